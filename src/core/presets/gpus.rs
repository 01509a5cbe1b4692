//! GPU presets, each from its vendor datasheet. FLOP/s are dense: datasheets quote 2:4 sparse rates
//! (footnoted), which are twice these. Interconnect is per direction: half the bidirectional figure.

use super::GpuSpec;

/// Every GPU preset, in menu order. The first is the default.
pub const GPUS: &[GpuSpec] = &[GpuSpec {
    id: "h100-sxm",
    name: "H100 SXM",
    hbm_bytes: 80e9,
    hbm_bandwidth_bytes_per_s: 3.35e12,
    bf16_flop_per_s: 989e12,
    fp8_flop_per_s: Some(1979e12),
    fp4_flop_per_s: None,
    interconnect_bytes_per_s: 450e9,
    source: "NVIDIA H100 Tensor Core GPU datasheet: 80 GB HBM3, 3.35 TB/s, BF16 1,979 TFLOP/s and \
             FP8 3,958 TFLOP/s with sparsity (dense: 989 and 1,979), NVLink 900 GB/s bidirectional",
}];
