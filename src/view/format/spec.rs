//! Speculative decoding's readout: E, the knee with and without it, the KV pool it costs, and the
//! crossover batch, as one sentence.

use super::{fixed, thousands};
use crate::core::roofline::SpecSummary;

/// "2.77 tokens per sequence per step. Knee 102 with speculation, 64 without; KV pool 159 (208
/// without). It pays at every batch." (or "It stops paying at batch 141, ...").
pub fn spec_sentence(s: &SpecSummary) -> String {
    let crossover = match s.crossover {
        None => "It pays at every batch: no crossover.".to_string(),
        Some(b) => {
            let place = if b > s.pool_with { ", past the KV pool" } else { "" };
            format!(
                "It stops paying at batch {} (tokens/s with it ≤ without, the verify step compute-bound){place}.",
                thousands(f64::from(b))
            )
        }
    };
    format!(
        "{} tokens per sequence per step. Knee {} with speculation, {} without; KV pool {} sequences ({} without). {crossover}",
        fixed(s.tokens_per_step, 2),
        thousands(f64::from(s.knee_with)),
        thousands(f64::from(s.knee_without)),
        thousands(f64::from(s.pool_with)),
        thousands(f64::from(s.pool_without)),
    )
}
