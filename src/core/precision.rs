//! Number formats for weights and KV cache: bytes per element and which tensor-core peak they use.

use serde::{Deserialize, Serialize};

use super::presets::GpuSpec;
use super::url_id::UrlId;

/// Bytes per element for weights or KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Precision {
    /// bfloat16: 2 bytes.
    Bf16,
    /// 8-bit float: 1 byte.
    Fp8,
    /// 4-bit integer weights (AWQ/GPTQ style, weight-only): half a byte.
    Int4,
    /// 4-bit float (NVFP4/MXFP4): half a byte.
    Fp4,
}

impl Precision {
    /// Formats offered for weights, in control order.
    pub const WEIGHTS: [Precision; 4] = [Precision::Bf16, Precision::Fp8, Precision::Int4, Precision::Fp4];
    /// Formats offered for the KV cache, in control order.
    pub const KV: [Precision; 3] = [Precision::Bf16, Precision::Fp8, Precision::Fp4];

    /// Bytes one element occupies (BF16 2 B, FP8 1 B, INT4 and FP4 0.5 B; group scales ignored).
    pub fn bytes_per_element(self) -> f64 {
        match self {
            Precision::Bf16 => 2.0,
            Precision::Fp8 => 1.0,
            Precision::Int4 | Precision::Fp4 => 0.5,
        }
    }

    /// The URL id (`bf16`, `fp8`, `int4`, `fp4`): [`UrlId::url_id`].
    pub fn id(self) -> &'static str {
        self.url_id()
    }

    /// The display label (`BF16`, `FP8`, `INT4`, `FP4`).
    pub fn label(self) -> &'static str {
        match self {
            Precision::Bf16 => "BF16",
            Precision::Fp8 => "FP8",
            Precision::Int4 => "INT4",
            Precision::Fp4 => "FP4",
        }
    }

    /// The precision with this URL id among `allowed`, if any.
    pub fn from_id(id: &str, allowed: &[Precision]) -> Option<Precision> {
        Precision::from_url_id(id).filter(|precision| allowed.contains(precision))
    }

    /// The dense tensor peak weights in this format compute at on `gpu`, in FLOP/s, and the format
    /// that peak belongs to. FP8 and FP4 use their own tensor cores where the GPU has them, else the
    /// next wider format it has; INT4 is weight-only (W4A16): dequantized, it multiplies at BF16.
    pub fn compute_peak(self, gpu: &GpuSpec) -> (f64, Precision) {
        let fp8 = gpu.fp8_flop_per_s.map(|f| (f, Precision::Fp8));
        let bf16 = (gpu.bf16_flop_per_s, Precision::Bf16);
        match self {
            Precision::Bf16 | Precision::Int4 => bf16,
            Precision::Fp8 => fp8.unwrap_or(bf16),
            Precision::Fp4 => gpu.fp4_flop_per_s.map(|f| (f, Precision::Fp4)).or(fp8).unwrap_or(bf16),
        }
    }
}

impl UrlId for Precision {
    const VARIANTS: &'static [Precision] = &Precision::WEIGHTS;

    fn url_id(self) -> &'static str {
        match self {
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
            Precision::Int4 => "int4",
            Precision::Fp4 => "fp4",
        }
    }
}
