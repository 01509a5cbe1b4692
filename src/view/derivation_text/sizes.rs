//! The derivation's size lines as text: weights, KV per token and per sequence.

use super::{line, Line};
use crate::core::derivation::{Derivation, KvShape};
use crate::view::format::{e9, size};
use crate::view::format::{thousands, trimmed};

/// A size in GB without trailing zeros (`80 GB`, `141 GB`).
pub(super) fn gb_short(size_bytes: f64) -> String {
    format!("{} GB", trimmed(size_bytes / 1e9, 2))
}

pub(super) fn weights(d: &Derivation) -> Line {
    let w = &d.weights;
    let numbers = format!("{} × {} B ({})", e9(w.params), trimmed(w.bytes_per_param, 1), w.precision.label());
    let mut note = String::new();
    if w.tp > 1 {
        note = format!(
            "Each of {} GPUs holds {} / {} = {}.",
            w.tp,
            size(w.weight_bytes),
            w.tp,
            size(w.per_gpu_bytes)
        );
    }
    if let Some(m) = w.moe {
        note.push_str(&format!(
            " All {} experts are held, but a step reads the dense part ({} params) plus the experts its \
             tokens touch, E × (1 − (1 − k/E)^B) with E = {}, k = {}, each {} params over all layers.",
            m.experts,
            e9(m.dense_params),
            m.experts,
            m.top_k,
            e9(m.expert_params)
        ));
    }
    line("weights", "Weights", "params × bytes per param", numbers, size(w.weight_bytes), note.trim().into())
}

pub(super) fn kv_token(d: &Derivation) -> Line {
    let t = &d.kv_token;
    let bytes = format!("{} B ({})", trimmed(t.bytes_per_element, 1), t.precision.label());
    match t.shape {
        KvShape::Gqa { kv_heads, head_dim } => line(
            "kv-token",
            "KV per token",
            "2 × layers × KV heads × head dim × bytes",
            format!("2 × {} × {kv_heads} × {head_dim} × {bytes}", t.layers),
            size(t.kv_bytes_per_token),
            String::new(),
        ),
        KvShape::Mla { latent_rank, rope_dim } => line(
            "kv-token",
            "KV per token",
            "(latent rank + RoPE dim) × layers × bytes",
            format!("({latent_rank} + {rope_dim}) × {} × {bytes}", t.layers),
            size(t.kv_bytes_per_token),
            "Multi-head latent attention caches one compressed latent and one RoPE key per layer, \
             not K and V per head."
                .into(),
        ),
    }
}

pub(super) fn kv_seq(d: &Derivation) -> Line {
    let k = &d.kv_seq;
    let ctx = thousands(f64::from(k.context_tokens));
    let (formula, numbers) = match k.sliding {
        None => {
            ("context × KV per token".to_string(), format!("{ctx} × {}", size(d.kv_token.kv_bytes_per_token)))
        }
        Some(w) => (
            "KV per token-layer × (full layers × context + sliding layers × min(context, window))"
                .to_string(),
            format!(
                "{} × ({} × {ctx} + {} × {})",
                size(d.kv_token.kv_bytes_per_token / f64::from(d.kv_token.layers.max(1))),
                w.full_layers,
                w.sliding_layers,
                thousands(f64::from(w.held_tokens))
            ),
        ),
    };
    let note = match (d.kv_token.shape, k.shards, d.weights.tp) {
        (_, _, 1) => String::new(),
        (KvShape::Mla { .. }, _, tp) => {
            format!("The latent is replicated on all {tp} GPUs: each holds {}.", size(k.per_gpu_bytes))
        }
        (KvShape::Gqa { kv_heads, .. }, shards, tp) => format!(
            "Split over min(TP {tp}, {kv_heads} KV heads) = {shards} GPUs: {} per GPU.",
            size(k.per_gpu_bytes)
        ),
    };
    line("kv-seq", "KV per sequence", &formula, numbers, size(k.kv_bytes_per_seq), note)
}
