//! Model and GPU presets as data: each row names the source its numbers come from.
//!
//! Adding a preset is adding a row to [`MODELS`] or [`GPUS`]; no code changes elsewhere.

mod gpus;
mod models;

pub use gpus::GPUS;
pub use models::MODELS;

use serde::Serialize;

/// The architecture facts of a model that the roofline needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ModelSpec {
    /// URL id, lowercase and hyphenated (`llama-3.1-8b`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Total parameter count.
    pub params: f64,
    /// Transformer layers.
    pub layers: u32,
    /// Key/value heads per layer (grouped-query attention).
    pub kv_heads: u32,
    /// Dimension of one attention head.
    pub head_dim: u32,
    /// Longest context the model supports, in tokens.
    pub max_context_tokens: u32,
    /// Where these numbers come from.
    pub source: &'static str,
}

/// The hardware facts of one accelerator that the roofline needs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GpuSpec {
    /// URL id, lowercase and hyphenated (`h100-sxm`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// HBM capacity in bytes.
    pub hbm_bytes: f64,
    /// Peak HBM bandwidth in bytes per second.
    pub hbm_bandwidth_bytes_per_s: f64,
    /// Dense (not 2:4 sparse) BF16 tensor-core peak in FLOP per second.
    pub bf16_flop_per_s: f64,
    /// Dense FP8 tensor-core peak in FLOP per second, where the GPU has FP8.
    pub fp8_flop_per_s: Option<f64>,
    /// Where these numbers come from.
    pub source: &'static str,
}

/// The model preset with this id, if any.
pub fn model_by_id(id: &str) -> Option<&'static ModelSpec> {
    MODELS.iter().find(|m| m.id == id)
}

/// The GPU preset with this id, if any.
pub fn gpu_by_id(id: &str) -> Option<&'static GpuSpec> {
    GPUS.iter().find(|g| g.id == id)
}
