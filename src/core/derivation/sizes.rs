//! The derivation's sizes: weights (and an MoE step's expert reads), KV per token and per sequence.

use crate::model::expert_params;
use crate::presets::Attention;
use crate::roofline::{kv_shards, weight_bytes_per_gpu, Analysis, Precision};
use crate::scenario::Scenario;
use serde::Serialize;

/// weights = params x bytes per param; per GPU = weights / TP.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Weights {
    pub params: f64,
    pub precision: Precision,
    pub bytes_per_param: f64,
    /// params x bytes_per_param, in B (the whole replica).
    pub weight_bytes: f64,
    pub tp: u32,
    /// weight_bytes / TP, in B.
    pub per_gpu_bytes: f64,
    /// How an MoE step's weight reads grow with the batch; `None` for a dense model.
    pub moe: Option<MoeReads>,
}

/// MoE reads: dense part + expert_params x E x (1 - (1 - k/E)^B), per the published counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoeReads {
    pub experts: u32,
    pub top_k: u32,
    pub active_params: f64,
    /// One routed expert's parameters summed over the MoE layers: (total - active) / (E - k).
    pub expert_params: f64,
    /// total - E x expert_params: attention, embeddings, shared experts and dense layers.
    pub dense_params: f64,
}

/// The cache layout a token's KV follows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum KvShape {
    /// 2 (K and V) x KV heads x head dim elements per layer.
    Gqa { kv_heads: u32, head_dim: u32 },
    /// One latent plus one RoPE key per layer (multi-head latent attention).
    Mla { latent_rank: u32, rope_dim: u32 },
}

/// KV per token = elements per layer x layers x bytes per element.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvToken {
    pub layers: u32,
    pub shape: KvShape,
    pub precision: Precision,
    pub bytes_per_element: f64,
    /// Elements one token adds in one layer: GQA 2 x kv_heads x head_dim, MLA latent + rope.
    pub elements_per_layer: f64,
    /// elements_per_layer x layers x bytes, in B.
    pub kv_bytes_per_token: f64,
}

/// Sliding-window layers keep at most their window of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlidingKv {
    pub full_layers: u32,
    pub sliding_layers: u32,
    pub window_tokens: u32,
    /// min(context, window): tokens a sliding layer holds.
    pub held_tokens: u32,
}

/// KV per sequence = context x KV per token (sliding layers capped at their window); per GPU over
/// the shards it splits into.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvSeq {
    pub context_tokens: u32,
    pub sliding: Option<SlidingKv>,
    /// In B: context x KV per token, or bytes per token-layer x (full x ctx + sliding x held).
    pub kv_bytes_per_seq: f64,
    /// GPUs one sequence's KV splits over: min(TP, KV heads) for GQA, 1 for MLA (replicated).
    pub shards: u32,
    /// kv_bytes_per_seq / shards, in B.
    pub per_gpu_bytes: f64,
}

pub(super) fn weights(scenario: &Scenario) -> Weights {
    let bytes_per_param = scenario.weight_precision.bytes_per_element();
    let weight_bytes = scenario.model.params * bytes_per_param;
    let moe = scenario.model.moe.filter(|m| m.experts > m.top_k).map(|m| {
        let expert_params = expert_params(&scenario.model);
        MoeReads {
            experts: m.experts,
            top_k: m.top_k,
            active_params: scenario.model.active_params,
            expert_params,
            dense_params: (scenario.model.params - expert_params * f64::from(m.experts)).max(0.0),
        }
    });
    Weights {
        params: scenario.model.params,
        precision: scenario.weight_precision,
        bytes_per_param,
        weight_bytes,
        tp: scenario.parallel.tp.max(1),
        per_gpu_bytes: weight_bytes_per_gpu(scenario),
        moe,
    }
}

pub(super) fn kv_token(scenario: &Scenario) -> KvToken {
    let (shape, elements_per_layer) = match scenario.model.attention {
        Attention::Gqa { kv_heads, head_dim } => {
            (KvShape::Gqa { kv_heads, head_dim }, 2.0 * f64::from(kv_heads) * f64::from(head_dim))
        }
        Attention::Mla { kv_lora_rank, rope_head_dim, .. } => (
            KvShape::Mla { latent_rank: kv_lora_rank, rope_dim: rope_head_dim },
            f64::from(kv_lora_rank) + f64::from(rope_head_dim),
        ),
    };
    let bytes_per_element = scenario.kv_precision.bytes_per_element();
    KvToken {
        layers: scenario.model.layers,
        shape,
        precision: scenario.kv_precision,
        bytes_per_element,
        elements_per_layer,
        kv_bytes_per_token: elements_per_layer * f64::from(scenario.model.layers) * bytes_per_element,
    }
}

pub(super) fn kv_seq(scenario: &Scenario, analysis: &Analysis) -> KvSeq {
    let sliding = scenario.model.sliding_window.filter(|w| w.sliding_layers > 0).map(|w| {
        let sliding_layers = w.sliding_layers.min(scenario.model.layers);
        SlidingKv {
            full_layers: scenario.model.layers - sliding_layers,
            sliding_layers,
            window_tokens: w.window_tokens,
            held_tokens: w.window_tokens.min(scenario.context_tokens),
        }
    });
    let shards = kv_shards(scenario);
    KvSeq {
        context_tokens: scenario.context_tokens,
        sliding,
        kv_bytes_per_seq: analysis.kv_bytes_per_seq,
        shards: shards as u32,
        per_gpu_bytes: analysis.kv_bytes_per_seq / shards,
    }
}
