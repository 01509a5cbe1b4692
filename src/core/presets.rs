//! Model and GPU presets as data, and the spec types they are rows of ([`ModelSpec`], [`GpuSpec`]):
//! each row names the source its numbers come from.
//!
//! Adding a preset is adding a row to [`MODELS`] or [`GPUS`]; no code changes elsewhere. The
//! architecture arithmetic on these rows (parameter count from the config, KV elements per token)
//! lives in [`crate::model`]. A spec travels by its preset's id ([`ModelWire`]), so the types
//! and the tables live together, at the bottom of the core: this module names no other core module.

mod custom;
mod gpus;
mod models;
mod prices;
mod wire;

pub use custom::{CustomGpu, CustomModel, CUSTOM_ID};
pub use gpus::GPUS;
pub use models::MODELS;
pub use prices::{default_price, GpuPrice, GPU_PRICES};
pub use wire::{GpuWire, ModelWire};

use serde::Serialize;

/// How a layer's attention caches keys and values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Attention {
    /// Grouped-query (or multi-head) attention: K and V per KV head, `head_dim` wide.
    Gqa { kv_heads: u32, head_dim: u32 },
    /// Multi-head latent attention (DeepSeek-V2/V3): the cache holds one `kv_lora_rank`-wide latent
    /// plus one `rope_head_dim`-wide RoPE key per layer; queries pass through a `q_lora_rank` latent.
    Mla { kv_lora_rank: u32, q_lora_rank: u32, rope_head_dim: u32, nope_head_dim: u32, v_head_dim: u32 },
}

/// Mixture-of-experts feed-forward: `experts` routed experts, `top_k` chosen per token.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Routed experts each token uses.
    pub top_k: u32,
    /// Experts every token uses (DeepSeek's shared expert), per MoE layer.
    pub shared_experts: u32,
    /// Intermediate size of one expert's gated MLP.
    pub expert_ffn_size: u32,
    /// Leading layers that keep a dense MLP of `ModelSpec::ffn_size` instead (DeepSeek-V3: 3).
    pub dense_layers: u32,
}

/// Layers whose attention only sees the last `window_tokens` tokens, so their KV is capped there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlidingWindow {
    pub window_tokens: u32,
    /// How many of the model's layers slide (the rest attend to the full context).
    pub sliding_layers: u32,
}

/// The architecture facts of a model that the roofline needs, as its `config.json` states them.
/// Serialized as a [`ModelWire`]: a preset by id, a custom model by its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(into = "ModelWire")]
pub struct ModelSpec {
    /// URL id, lowercase and hyphenated (`llama-3.1-8b`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Published total parameter count (what the weights occupy).
    pub params: f64,
    /// Published parameters active per token (equal to `params` for a dense model).
    pub active_params: f64,
    /// Transformer layers (`num_hidden_layers`).
    pub layers: u32,
    /// Residual stream width (`hidden_size`).
    pub hidden_size: u32,
    /// Query heads (`num_attention_heads`).
    pub heads: u32,
    pub attention: Attention,
    /// Dense MLP intermediate size (`intermediate_size`); for an MoE model, its dense layers' size.
    pub ffn_size: u32,
    pub moe: Option<Moe>,
    /// Vocabulary size (`vocab_size`).
    pub vocab_size: u32,
    /// The output head shares the embedding matrix (`tie_word_embeddings`).
    pub tied_embeddings: bool,
    /// Q, K and V projections carry biases (Qwen2.5, gpt-oss).
    pub qkv_bias: bool,
    pub sliding_window: Option<SlidingWindow>,
    /// Longest context the model supports, in tokens.
    pub context_tokens_max: u32,
    /// Where these numbers come from.
    pub source: &'static str,
}

/// The hardware facts of one accelerator that the roofline needs. Serialized as a [`GpuWire`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(into = "GpuWire")]
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
    /// Dense FP4 tensor-core peak in FLOP per second, where the GPU has FP4.
    pub fp4_flop_per_s: Option<f64>,
    /// GPU-to-GPU bandwidth for tensor parallelism, per direction, in bytes per second
    /// (NVLink, Infinity Fabric, ICI or PCIe; datasheets quote the bidirectional sum, twice this).
    pub interconnect_bytes_per_s: f64,
    /// Board power at full load (the datasheet's max TDP or total board power; a superchip's GPU
    /// share as its source states), in W.
    pub board_power_w: f64,
    /// Power of the GPU powered on with nothing running (a published idle figure or the rule its
    /// source states), in W; below `board_power_w`.
    pub idle_power_w: f64,
    /// The GPU's link to host CPU memory, per direction (PCIe, or Grace's NVLink-C2C), in bytes per
    /// second: what a KV offload tier in host memory moves blocks over.
    pub host_link_bytes_per_s: f64,
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

/// TTFT target default: MLPerf Inference's server-scenario TTFT for llama3.1-8b (2,000 ms, p99).
pub const DEFAULT_TTFT_S: f64 = 2.0;
/// Share of HBM given to weights plus KV, as vLLM's `gpu_memory_utilization` default.
pub const DEFAULT_MEMORY_UTILIZATION: f64 = 0.9;
