//! The "Custom" model and GPU: plain numbers a person edits, turned into specs the roofline reads.

use serde::{Deserialize, Serialize};

use super::{Attention, GpuSpec, ModelSpec, Moe, SlidingWindow};

/// The id both custom entries use in the URL and the menus.
pub const CUSTOM_ID: &str = "custom";

/// Every editable number of a custom model (GQA attention, optional MoE and sliding window).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CustomModel {
    /// Total parameters.
    pub params: f64,
    /// Parameters each token uses (= params for a dense model).
    pub active_params: f64,
    pub layers: u32,
    pub hidden_size: u32,
    pub heads: u32,
    pub kv_heads: u32,
    pub head_dim: u32,
    /// Routed experts; 0 or 1 means dense.
    pub experts: u32,
    /// Experts each token uses.
    pub top_k: u32,
    /// Sliding-window length in tokens; 0 means no sliding layers.
    pub window_tokens: u32,
    /// Layers that slide.
    pub sliding_layers: u32,
    pub context_tokens_max: u32,
}

impl CustomModel {
    /// The custom numbers that reproduce `m`'s roofline. MLA becomes one KV "head" as wide as half
    /// the latent plus RoPE key, which caches the same elements per token and is likewise not split
    /// by tensor parallelism.
    pub fn from_spec(m: &ModelSpec) -> CustomModel {
        let (kv_heads, head_dim) = match m.attention {
            Attention::Gqa { kv_heads, head_dim } => (kv_heads, head_dim),
            Attention::Mla { kv_lora_rank, rope_head_dim, .. } => {
                (1, (kv_lora_rank + rope_head_dim).div_ceil(2))
            }
        };
        let (experts, top_k) = m.moe.map_or((0, 1), |moe| (moe.experts, moe.top_k));
        let (window_tokens, sliding_layers) =
            m.sliding_window.map_or((0, 0), |w| (w.window_tokens, w.sliding_layers));
        CustomModel {
            params: m.params,
            active_params: m.active_params,
            layers: m.layers,
            hidden_size: m.hidden_size,
            heads: m.heads,
            kv_heads,
            head_dim,
            experts,
            top_k,
            window_tokens,
            sliding_layers,
            context_tokens_max: m.context_tokens_max,
        }
    }

    /// The model spec these numbers describe.
    pub fn to_spec(&self) -> ModelSpec {
        let moe = (self.experts > 1).then(|| Moe {
            experts: self.experts,
            top_k: self.top_k.clamp(1, self.experts),
            shared_experts: 0,
            expert_ffn_size: 0,
            dense_layers: 0,
        });
        let sliding_window = (self.window_tokens > 0 && self.sliding_layers > 0).then_some(SlidingWindow {
            window_tokens: self.window_tokens,
            sliding_layers: self.sliding_layers,
        });
        ModelSpec {
            id: CUSTOM_ID,
            name: "Custom model",
            params: self.params,
            active_params: if moe.is_some() { self.active_params } else { self.params },
            layers: self.layers,
            hidden_size: self.hidden_size,
            heads: self.heads,
            attention: Attention::Gqa { kv_heads: self.kv_heads, head_dim: self.head_dim },
            ffn_size: 0,
            moe,
            vocab_size: 0,
            tied_embeddings: true,
            qkv_bias: false,
            sliding_window,
            context_tokens_max: self.context_tokens_max,
            source: "entered by hand (Custom)",
        }
    }
}

/// A custom GPU's board power, which is not editable: H100 SXM's 700 W TDP, in W.
pub const CUSTOM_BOARD_POWER_W: f64 = 700.0;
/// A custom GPU's idle power as a share of its board power (the presets' stated rule).
pub const CUSTOM_IDLE_SHARE: f64 = 0.15;
/// A custom GPU's host link, PCIe Gen5 x16 per direction, in B/s.
pub const CUSTOM_HOST_LINK_BYTES_PER_S: f64 = 64e9;

/// Every editable number of a custom GPU; a zero FP8 or FP4 peak means the GPU lacks that format.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CustomGpu {
    pub hbm_bytes: f64,
    pub hbm_bandwidth_bytes_per_s: f64,
    pub bf16_flop_per_s: f64,
    pub fp8_flop_per_s: f64,
    pub fp4_flop_per_s: f64,
    pub interconnect_bytes_per_s: f64,
}

impl CustomGpu {
    /// The custom numbers of `g`.
    pub fn from_spec(g: &GpuSpec) -> CustomGpu {
        CustomGpu {
            hbm_bytes: g.hbm_bytes,
            hbm_bandwidth_bytes_per_s: g.hbm_bandwidth_bytes_per_s,
            bf16_flop_per_s: g.bf16_flop_per_s,
            fp8_flop_per_s: g.fp8_flop_per_s.unwrap_or(0.0),
            fp4_flop_per_s: g.fp4_flop_per_s.unwrap_or(0.0),
            interconnect_bytes_per_s: g.interconnect_bytes_per_s,
        }
    }

    /// The GPU spec these numbers describe.
    pub fn to_spec(&self) -> GpuSpec {
        let positive = |x: f64| (x > 0.0).then_some(x);
        GpuSpec {
            id: CUSTOM_ID,
            name: "Custom GPU",
            hbm_bytes: self.hbm_bytes,
            hbm_bandwidth_bytes_per_s: self.hbm_bandwidth_bytes_per_s,
            bf16_flop_per_s: self.bf16_flop_per_s,
            fp8_flop_per_s: positive(self.fp8_flop_per_s),
            fp4_flop_per_s: positive(self.fp4_flop_per_s),
            interconnect_bytes_per_s: self.interconnect_bytes_per_s,
            board_power_w: CUSTOM_BOARD_POWER_W,
            idle_power_w: CUSTOM_BOARD_POWER_W * CUSTOM_IDLE_SHARE,
            host_link_bytes_per_s: CUSTOM_HOST_LINK_BYTES_PER_S,
            source: "entered by hand (Custom); power not editable: a default 700 W board (H100 SXM's TDP) \
                     idling at 15% of it (105 W), and a PCIe Gen5 x16 host link of 64 GB/s per direction",
        }
    }
}
