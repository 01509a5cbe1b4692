//! GPU presets, each from its vendor datasheet. FLOP/s are dense: datasheets quote 2:4 sparse rates
//! (footnoted), which are twice these. Interconnect is per direction: half the bidirectional figure.

use super::GpuSpec;

/// Every GPU preset, in menu order. The first is the default.
pub const GPUS: &[GpuSpec] = &[
    GpuSpec {
        id: "h100-sxm",
        name: "H100 SXM",
        hbm_bytes: 80e9,
        hbm_bandwidth_bytes_per_s: 3.35e12,
        bf16_flop_per_s: 989e12,
        fp8_flop_per_s: Some(1979e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 450e9,
        board_power_w: 700.0,
        idle_power_w: 105.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA H100 Tensor Core GPU datasheet: 80 GB HBM3, 3.35 TB/s, BF16 1,979 TFLOP/s and \
                 FP8 3,958 TFLOP/s with sparsity (dense: 989 and 1,979), NVLink 900 GB/s bidirectional. Power: 700 W max TDP (H100 SXM datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "h100-pcie",
        name: "H100 PCIe",
        hbm_bytes: 80e9,
        hbm_bandwidth_bytes_per_s: 2.0e12,
        bf16_flop_per_s: 756e12,
        fp8_flop_per_s: Some(1513e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 64e9,
        board_power_w: 350.0,
        idle_power_w: 52.5,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe column): 80 GB HBM2e, 2.0 TB/s, BF16 \
                 1,513 TFLOP/s and FP8 3,026 TFLOP/s with sparsity (dense: 756 and 1,513), PCIe Gen5 x16 \
                 128 GB/s bidirectional (64 GB/s per direction). Power: 350 W max TDP (H100 PCIe datasheet column), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "h100-nvl",
        name: "H100 NVL",
        hbm_bytes: 94e9,
        hbm_bandwidth_bytes_per_s: 3.9e12,
        bf16_flop_per_s: 835e12,
        fp8_flop_per_s: Some(1671e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 300e9,
        board_power_w: 400.0,
        idle_power_w: 60.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA H100 Tensor Core GPU datasheet (H100 NVL column): 94 GB HBM3, 3.9 TB/s, BF16 \
                 1,671 TFLOP/s and FP8 3,341 TFLOP/s with sparsity (dense: 835 and 1,671), NVLink bridge \
                 600 GB/s bidirectional. Power: 400 W max TDP (H100 NVL datasheet column, configurable 350-400 W), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "h200-sxm",
        name: "H200 SXM",
        hbm_bytes: 141e9,
        hbm_bandwidth_bytes_per_s: 4.8e12,
        bf16_flop_per_s: 989e12,
        fp8_flop_per_s: Some(1979e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 450e9,
        board_power_w: 700.0,
        idle_power_w: 105.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM column): 141 GB HBM3e, 4.8 TB/s, BF16 \
                 1,979 TFLOP/s and FP8 3,958 TFLOP/s with sparsity (dense: 989 and 1,979), NVLink \
                 900 GB/s bidirectional. Power: 700 W max TDP (H200 SXM datasheet column), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "h200-nvl",
        name: "H200 NVL",
        hbm_bytes: 141e9,
        hbm_bandwidth_bytes_per_s: 4.8e12,
        bf16_flop_per_s: 835e12,
        fp8_flop_per_s: Some(1671e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 450e9,
        board_power_w: 600.0,
        idle_power_w: 90.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA H200 Tensor Core GPU datasheet (H200 NVL column): 141 GB HBM3e, 4.8 TB/s, BF16 \
                 1,671 TFLOP/s and FP8 3,341 TFLOP/s with sparsity (dense: 835 and 1,671), NVLink bridge \
                 900 GB/s bidirectional. Power: 600 W max TDP (H200 NVL datasheet column), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "a100-40gb",
        name: "A100 40GB SXM",
        hbm_bytes: 40e9,
        hbm_bandwidth_bytes_per_s: 1.555e12,
        bf16_flop_per_s: 312e12,
        fp8_flop_per_s: None,
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 300e9,
        board_power_w: 400.0,
        idle_power_w: 60.0,
        host_link_bytes_per_s: 32e9,
        source: "NVIDIA A100 Tensor Core GPU datasheet (A100 40GB SXM): 40 GB HBM2, 1,555 GB/s, BF16 \
                 312 TFLOP/s dense (624 with sparsity), no FP8, NVLink 600 GB/s bidirectional. Power: 400 W max TDP (A100 40GB SXM datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen4 x16 host link 32 GB/s per direction",
    },
    GpuSpec {
        id: "a100-80gb",
        name: "A100 80GB SXM",
        hbm_bytes: 80e9,
        hbm_bandwidth_bytes_per_s: 2.039e12,
        bf16_flop_per_s: 312e12,
        fp8_flop_per_s: None,
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 300e9,
        board_power_w: 400.0,
        idle_power_w: 60.0,
        host_link_bytes_per_s: 32e9,
        source: "NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM): 80 GB HBM2e, 2,039 GB/s, BF16 \
                 312 TFLOP/s dense (624 with sparsity), no FP8, NVLink 600 GB/s bidirectional. Power: 400 W max TDP (A100 80GB SXM datasheet; the PCIe card is 300 W), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen4 x16 host link 32 GB/s per direction",
    },
    GpuSpec {
        id: "l40s",
        name: "L40S",
        hbm_bytes: 48e9,
        hbm_bandwidth_bytes_per_s: 0.864e12,
        bf16_flop_per_s: 362e12,
        fp8_flop_per_s: Some(733e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 32e9,
        board_power_w: 350.0,
        idle_power_w: 52.5,
        host_link_bytes_per_s: 32e9,
        source: "NVIDIA L40S datasheet: 48 GB GDDR6, 864 GB/s, BF16 362 TFLOP/s dense (733 with sparsity), \
                 FP8 733 TFLOP/s dense (1,466 with sparsity), PCIe Gen4 x16 64 GB/s bidirectional, no NVLink. Power: 350 W max (L40S datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen4 x16 host link 32 GB/s per direction",
    },
    GpuSpec {
        id: "l4",
        name: "L4",
        hbm_bytes: 24e9,
        hbm_bandwidth_bytes_per_s: 0.300e12,
        bf16_flop_per_s: 121e12,
        fp8_flop_per_s: Some(242.5e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 32e9,
        board_power_w: 72.0,
        idle_power_w: 10.8,
        host_link_bytes_per_s: 32e9,
        source: "NVIDIA L4 datasheet: 24 GB GDDR6, 300 GB/s, BF16 242 TFLOP/s and FP8 485 TFLOP/s with \
                 sparsity (dense: 121 and 242.5), PCIe Gen4 x16 64 GB/s bidirectional, no NVLink. Power: 72 W max (L4 datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen4 x16 host link 32 GB/s per direction",
    },
    GpuSpec {
        id: "b200",
        name: "B200 (HGX)",
        hbm_bytes: 180e9,
        hbm_bandwidth_bytes_per_s: 7.7e12,
        bf16_flop_per_s: 2250e12,
        fp8_flop_per_s: Some(4500e12),
        fp4_flop_per_s: Some(9000e12),
        interconnect_bytes_per_s: 900e9,
        board_power_w: 1000.0,
        idle_power_w: 150.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA HGX B200 datasheet, per GPU (one eighth of the board): 180 GB HBM3e, 7.7 TB/s, \
                 BF16 4.5, FP8 9 and FP4 18 PFLOP/s with sparsity (dense: 2,250, 4,500 and 9,000 \
                 TFLOP/s), NVLink 5 1.8 TB/s bidirectional. Power: 1,000 W per GPU (HGX B200 board), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "gb200",
        name: "GB200 (per GPU)",
        hbm_bytes: 186e9,
        hbm_bandwidth_bytes_per_s: 8.0e12,
        bf16_flop_per_s: 2500e12,
        fp8_flop_per_s: Some(5000e12),
        fp4_flop_per_s: Some(10_000e12),
        interconnect_bytes_per_s: 900e9,
        board_power_w: 1200.0,
        idle_power_w: 180.0,
        host_link_bytes_per_s: 450e9,
        source: "NVIDIA GB200 NVL72 datasheet, per Blackwell GPU (half a GB200 superchip): 186 GB HBM3e, \
                 8 TB/s, BF16 5, FP8 10 and FP4 20 PFLOP/s with sparsity (dense: 2,500, 5,000 and 10,000 \
                 TFLOP/s), NVLink 5 1.8 TB/s bidirectional. Power: 1,200 W per GPU, its share of the GB200 superchip's 2,700 W configurable maximum after the Grace CPU's ~300 W: (2,700 - 300) / 2 (the CPU's share is host power, not counted here), idle 15% of board (stated rule: no vendor publishes an idle figure); Grace NVLink-C2C host link 900 GB/s bidirectional = 450 GB/s per direction",
    },
    GpuSpec {
        id: "gb300",
        name: "GB300 (per GPU)",
        hbm_bytes: 288e9,
        hbm_bandwidth_bytes_per_s: 8.0e12,
        bf16_flop_per_s: 2500e12,
        fp8_flop_per_s: Some(5000e12),
        fp4_flop_per_s: Some(15_000e12),
        interconnect_bytes_per_s: 900e9,
        board_power_w: 1400.0,
        idle_power_w: 210.0,
        host_link_bytes_per_s: 450e9,
        source: "NVIDIA GB300 NVL72 product page, rack totals / 72 Blackwell Ultra GPUs: 288 GB HBM3e \
                 per GPU (20.7 TB per rack, quoted as 20 TB), 576 TB/s = 8 TB/s, FP4 1,440 PFLOP/s with \
                 sparsity and 1,080 dense (15,000 TFLOP/s per GPU), FP8 720 and BF16 360 PFLOP/s with \
                 sparsity (dense per GPU: 5,000 and 2,500 TFLOP/s), NVLink 5 130 TB/s = 1.8 TB/s per GPU \
                 bidirectional. Power: 1,400 W per Blackwell Ultra GPU (GB300 NVL72 published per-GPU TDP), idle 15% of board (stated rule: no vendor publishes an idle figure); Grace NVLink-C2C host link 900 GB/s bidirectional = 450 GB/s per direction",
    },
    GpuSpec {
        id: "b300",
        name: "B300 (HGX)",
        hbm_bytes: 270e9,
        hbm_bandwidth_bytes_per_s: 7.7e12,
        bf16_flop_per_s: 2250e12,
        fp8_flop_per_s: Some(4500e12),
        fp4_flop_per_s: Some(14_000e12),
        interconnect_bytes_per_s: 900e9,
        board_power_w: 1100.0,
        idle_power_w: 165.0,
        host_link_bytes_per_s: 64e9,
        source: "NVIDIA HGX B300 datasheet, per GPU: 270 GB HBM3e, 7.7 TB/s, FP4 ~14,000 TFLOP/s dense \
                 (approximate); BF16 2,250 and FP8 4,500 TFLOP/s dense inferred (half the sparse rates, as \
                 for B200), NVLink 5 1.8 TB/s bidirectional. Power: 1,100 W per GPU (HGX B300 published per-GPU TDP), idle 15% of board (stated rule: no vendor publishes an idle figure); taken as PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "mi300x",
        name: "MI300X",
        hbm_bytes: 192e9,
        hbm_bandwidth_bytes_per_s: 5.3e12,
        bf16_flop_per_s: 1307.4e12,
        fp8_flop_per_s: Some(2614.9e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 448e9,
        board_power_w: 750.0,
        idle_power_w: 112.5,
        host_link_bytes_per_s: 64e9,
        source: "AMD Instinct MI300X datasheet: 192 GB HBM3, 5.3 TB/s, BF16 1,307.4 TFLOP/s dense \
                 (2,614.9 with sparsity), FP8 2,614.9 TFLOP/s dense (5,229.8 with sparsity), Infinity \
                 Fabric 7 links x 128 GB/s = 896 GB/s bidirectional. Power: 750 W peak total board power (MI300X datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "mi325x",
        name: "MI325X",
        hbm_bytes: 256e9,
        hbm_bandwidth_bytes_per_s: 6.0e12,
        bf16_flop_per_s: 1307.4e12,
        fp8_flop_per_s: Some(2614.9e12),
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 448e9,
        board_power_w: 1000.0,
        idle_power_w: 150.0,
        host_link_bytes_per_s: 64e9,
        source: "AMD Instinct MI325X datasheet: 256 GB HBM3E, 6 TB/s, BF16 1,307.4 TFLOP/s dense \
                 (2,614.9 with sparsity), FP8 2,614.9 TFLOP/s dense (5,229.8 with sparsity), Infinity \
                 Fabric 7 links x 128 GB/s = 896 GB/s bidirectional. Power: 1,000 W peak total board power (MI325X datasheet), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "mi355x",
        name: "MI355X",
        hbm_bytes: 288e9,
        hbm_bandwidth_bytes_per_s: 8.0e12,
        bf16_flop_per_s: 2500e12,
        fp8_flop_per_s: Some(5000e12),
        fp4_flop_per_s: Some(10_000e12),
        interconnect_bytes_per_s: 537.5e9,
        board_power_w: 1400.0,
        idle_power_w: 210.0,
        host_link_bytes_per_s: 64e9,
        source: "AMD Instinct MI355X announcements: 288 GB HBM3E, 8 TB/s, FP8 ~5,000 and FP4 ~10,000 \
                 TFLOP/s dense; BF16 ~2,500 TFLOP/s dense inferred (half of FP8), Infinity Fabric 7 links \
                 x 153.6 GB/s = 1,075 GB/s bidirectional. Power: 1,400 W total board power (MI355X announcement, liquid cooled), idle 15% of board (stated rule: no vendor publishes an idle figure); PCIe Gen5 x16 host link 64 GB/s per direction",
    },
    GpuSpec {
        id: "tpu-v5e",
        name: "TPU v5e",
        hbm_bytes: 16e9,
        hbm_bandwidth_bytes_per_s: 0.819e12,
        bf16_flop_per_s: 197e12,
        fp8_flop_per_s: None,
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 100e9,
        board_power_w: 250.0,
        idle_power_w: 37.5,
        host_link_bytes_per_s: 32e9,
        source: "Google Cloud TPU v5e docs, per chip: 16 GB HBM2, 819 GB/s, BF16 197 TFLOP/s (INT8 393 \
                 TOP/s, not FP8: no FP8 rate), ICI 1,600 Gbps = 200 GB/s taken as bidirectional. Power: Google publishes no per-chip figure: 250 W assumed (stated, not sourced), idle 15% of board (stated rule: no vendor publishes an idle figure); host link taken as PCIe Gen4 x16 host link 32 GB/s per direction (not published)",
    },
    GpuSpec {
        id: "tpu-v6e",
        name: "TPU v6e",
        hbm_bytes: 32e9,
        hbm_bandwidth_bytes_per_s: 1.638e12,
        bf16_flop_per_s: 918e12,
        fp8_flop_per_s: None,
        fp4_flop_per_s: None,
        interconnect_bytes_per_s: 224e9,
        board_power_w: 350.0,
        idle_power_w: 52.5,
        host_link_bytes_per_s: 32e9,
        source: "Google Cloud TPU v6e (Trillium) docs, per chip: 32 GB HBM, 1,638 GB/s, BF16 918 TFLOP/s \
                 (INT8 1,836 TOP/s, not FP8: no FP8 rate), ICI 3,584 Gbps = 448 GB/s taken as \
                 bidirectional. Power: Google publishes no per-chip figure: 350 W assumed (stated, not sourced), idle 15% of board (stated rule: no vendor publishes an idle figure); host link taken as PCIe Gen4 x16 host link 32 GB/s per direction (not published)",
    },
];
