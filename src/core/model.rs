//! Architecture arithmetic on a [`ModelSpec`]: parameters counted from the config, KV elements per
//! token and per sequence (GQA, MLA, sliding windows), MoE expert reads and attention FLOPs.
//!
//! Counts here are element counts, not bytes: the roofline multiplies by the chosen precision.

use super::presets::{Attention, ModelSpec, Moe};

/// Parameters of one gated MLP (gate, up and down projections) = 3 x hidden x ffn.
fn gated_mlp_params(hidden: f64, ffn: u32) -> f64 {
    3.0 * hidden * f64::from(ffn)
}

/// Attention projection parameters of one layer, from the config's widths.
///
/// GQA: q and o are hidden x heads x head_dim, k and v hidden x kv_heads x head_dim (+ biases).
/// MLA: q = hidden x q_rank + q_rank x heads x (nope + rope); kv = hidden x (kv_rank + rope)
/// + kv_rank x heads x (nope + v); o = heads x v x hidden.
pub fn attention_params_per_layer(model: &ModelSpec) -> f64 {
    let hidden = f64::from(model.hidden_size);
    let heads = f64::from(model.heads);
    match model.attention {
        Attention::Gqa { kv_heads, head_dim } => {
            let q = heads * f64::from(head_dim);
            let kv = f64::from(kv_heads) * f64::from(head_dim);
            let bias = if model.qkv_bias { q + 2.0 * kv } else { 0.0 };
            hidden * (2.0 * q + 2.0 * kv) + bias
        }
        Attention::Mla { kv_lora_rank, q_lora_rank, rope_head_dim, nope_head_dim, v_head_dim } => {
            let (kv_rank, q_rank) = (f64::from(kv_lora_rank), f64::from(q_lora_rank));
            let (rope, nope, v) = (f64::from(rope_head_dim), f64::from(nope_head_dim), f64::from(v_head_dim));
            let q = hidden * q_rank + q_rank * heads * (nope + rope);
            let kv = hidden * (kv_rank + rope) + kv_rank * heads * (nope + v);
            q + kv + heads * v * hidden
        }
    }
}

/// Layers with a mixture-of-experts MLP (all but the leading dense ones).
pub fn moe_layers(model: &ModelSpec) -> u32 {
    model.moe.map_or(0, |moe| model.layers.saturating_sub(moe.dense_layers))
}

/// Embedding plus output head = vocab x hidden x (1 if tied, else 2).
fn embedding_params(model: &ModelSpec) -> f64 {
    let tables = if model.tied_embeddings { 1.0 } else { 2.0 };
    tables * f64::from(model.vocab_size) * f64::from(model.hidden_size)
}

/// MLP parameters of the whole model when each MoE layer uses `experts_used` routed experts.
fn mlp_params(model: &ModelSpec, experts_used: impl Fn(&Moe) -> u32) -> f64 {
    let hidden = f64::from(model.hidden_size);
    match &model.moe {
        None => f64::from(model.layers) * gated_mlp_params(hidden, model.ffn_size),
        Some(moe) => {
            let dense_layers = f64::from(moe.dense_layers.min(model.layers));
            let dense = dense_layers * gated_mlp_params(hidden, model.ffn_size);
            let per_layer = f64::from(experts_used(moe) + moe.shared_experts)
                * gated_mlp_params(hidden, moe.expert_ffn_size)
                + hidden * f64::from(moe.experts);
            dense + f64::from(moe_layers(model)) * per_layer
        }
    }
}

/// Total parameters counted from the config: embeddings + layers x (attention + norms) + MLPs.
pub fn config_param_count(model: &ModelSpec) -> f64 {
    let hidden = f64::from(model.hidden_size);
    let per_layer = attention_params_per_layer(model) + 2.0 * hidden;
    let mlp = mlp_params(model, |moe| moe.experts);
    embedding_params(model) + f64::from(model.layers) * per_layer + hidden + mlp
}

/// Parameters one token uses, counted from the config: as [`config_param_count`] with only the
/// top-k routed experts of each MoE layer.
pub fn config_active_param_count(model: &ModelSpec) -> f64 {
    let hidden = f64::from(model.hidden_size);
    let per_layer = attention_params_per_layer(model) + 2.0 * hidden;
    let mlp = mlp_params(model, |moe| moe.top_k);
    embedding_params(model) + f64::from(model.layers) * per_layer + hidden + mlp
}

/// KV-cache elements one token adds across all layers at full context.
///
/// GQA: 2 (K and V) x layers x kv_heads x head_dim. MLA: (kv_lora_rank + rope_head_dim) x layers.
pub fn kv_elements_per_token(model: &ModelSpec) -> f64 {
    f64::from(model.layers) * kv_elements_per_token_layer(model)
}

/// KV-cache elements one token adds in one layer.
fn kv_elements_per_token_layer(model: &ModelSpec) -> f64 {
    match model.attention {
        Attention::Gqa { kv_heads, head_dim } => 2.0 * f64::from(kv_heads) * f64::from(head_dim),
        Attention::Mla { kv_lora_rank, rope_head_dim, .. } => {
            f64::from(kv_lora_rank) + f64::from(rope_head_dim)
        }
    }
}

/// KV-cache elements one sequence of `context_tokens` holds: full layers keep every token, sliding
/// layers at most their window.
///
/// elements = per_layer_token x (full_layers x ctx + sliding_layers x min(ctx, window)).
pub fn kv_elements_per_seq(model: &ModelSpec, context_tokens: u32) -> f64 {
    let ctx = f64::from(context_tokens);
    let (sliding, window) = match model.sliding_window {
        Some(w) => (w.sliding_layers.min(model.layers), f64::from(w.window_tokens).min(ctx)),
        None => (0, ctx),
    };
    let full = f64::from(model.layers - sliding);
    kv_elements_per_token_layer(model) * (full * ctx + f64::from(sliding) * window)
}

/// Expected distinct experts a layer reads for `tokens` tokens with uniform top-k routing:
/// E x (1 - (1 - k/E)^B). Equals k at B = 1 and tends to E as B grows.
pub fn expected_experts(experts: u32, top_k: u32, tokens: f64) -> f64 {
    if experts == 0 {
        return 0.0;
    }
    let e = f64::from(experts);
    let keep = (1.0 - f64::from(top_k.min(experts)) / e).max(0.0);
    e * (1.0 - keep.powf(tokens.max(0.0)))
}

/// Parameters of one routed expert summed over every MoE layer, from the published counts:
/// total = dense + E x p and active = dense + k x p, so p = (total - active) / (E - k).
pub fn expert_params(model: &ModelSpec) -> f64 {
    match &model.moe {
        Some(moe) if moe.experts > moe.top_k => {
            ((model.params - model.active_params) / f64::from(moe.experts - moe.top_k)).max(0.0)
        }
        _ => 0.0,
    }
}

/// Parameters a forward pass over `tokens` tokens reads: dense part + expert_params x E[experts].
/// For a dense model, every parameter.
pub fn params_read(model: &ModelSpec, tokens: f64) -> f64 {
    match &model.moe {
        Some(moe) if moe.experts > moe.top_k => {
            let per_expert = expert_params(model);
            let dense = (model.params - per_expert * f64::from(moe.experts)).max(0.0);
            dense + per_expert * expected_experts(moe.experts, moe.top_k, tokens)
        }
        _ => model.params,
    }
}

/// Query-key pairs a causal prompt of `p` tokens scores in one layer seeing `window` tokens:
/// p(p+1)/2 when the window covers the prompt, else w(w+1)/2 + (p - w) x w.
fn causal_pairs(p: f64, window: f64) -> f64 {
    if window >= p {
        p * (p + 1.0) / 2.0
    } else {
        window * (window + 1.0) / 2.0 + (p - window) * window
    }
}

/// FLOPs one query-key pair costs in one layer (scores q·k and the weighted sum of v):
/// heads x 2 x (qk_dim + v_dim), in FLOP. MLA is counted in its prefill form (qk = nope + RoPE,
/// v = v_head_dim per head) for decode too; a decode kernel that absorbs the up-projections does
/// more per pair (about (latent + RoPE + latent) instead of (qk + v) per head), which is not modelled.
pub fn attention_flop_per_pair(model: &ModelSpec) -> f64 {
    let (qk, v) = match model.attention {
        Attention::Gqa { head_dim, .. } => (f64::from(head_dim), f64::from(head_dim)),
        Attention::Mla { rope_head_dim, nope_head_dim, v_head_dim, .. } => {
            (f64::from(rope_head_dim + nope_head_dim), f64::from(v_head_dim))
        }
    };
    f64::from(model.heads) * 2.0 * (qk + v)
}

/// Attention FLOPs of prefilling a `prompt_tokens` prompt (scores and weighted sum, causal):
/// sum over layers of pairs x [`attention_flop_per_pair`], in FLOP.
pub fn prefill_attention_flop(model: &ModelSpec, prompt_tokens: u32) -> f64 {
    PromptAttention::new(model).flop(prompt_tokens)
}

/// [`prefill_attention_flop`]'s coefficients for one model, gathered once (the simulator evaluates
/// it at every prompt chunk): the per-pair FLOPs and the full and sliding layers with their window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PromptAttention {
    per_pair_flop: f64,
    full_layers: f64,
    sliding_layers: f64,
    /// The sliding layers' window, in tokens (None: no sliding layers, every layer sees the prompt).
    window_tokens: Option<f64>,
}

impl PromptAttention {
    pub fn new(model: &ModelSpec) -> PromptAttention {
        let (sliding, window_tokens) = match model.sliding_window {
            Some(w) => (w.sliding_layers.min(model.layers), Some(f64::from(w.window_tokens))),
            None => (0, None),
        };
        PromptAttention {
            per_pair_flop: attention_flop_per_pair(model),
            full_layers: f64::from(model.layers - sliding),
            sliding_layers: f64::from(sliding),
            window_tokens,
        }
    }

    /// Causal attention FLOPs of a prompt's first `prompt_tokens` tokens: per pair x (full layers x
    /// causal_pairs(p, p) + sliding layers x causal_pairs(p, window)), in FLOP.
    #[inline]
    pub fn flop(&self, prompt_tokens: u32) -> f64 {
        let p = f64::from(prompt_tokens);
        let full = self.full_layers * causal_pairs(p, p);
        let slid = self.sliding_layers * causal_pairs(p, self.window_tokens.unwrap_or(p));
        self.per_pair_flop * (full + slid)
    }
}

/// Attention FLOPs of decoding one token against `context_tokens` of KV: one pair per cached token
/// per layer (sliding layers at most their window), so pairs = [`kv_elements_per_seq`] /
/// elements per token-layer; FLOPs = pairs x [`attention_flop_per_pair`], in FLOP.
pub fn decode_attention_flop(model: &ModelSpec, context_tokens: u32) -> f64 {
    let per_layer = kv_elements_per_token_layer(model);
    if per_layer <= 0.0 {
        return 0.0;
    }
    attention_flop_per_pair(model) * kv_elements_per_seq(model, context_tokens) / per_layer
}
