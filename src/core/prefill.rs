//! Prefill: how long a prompt takes to process before its first token, from the same per-operator
//! step as decode ([`crate::core::roofline::StepRoofline::terms`]).

use serde::{Deserialize, Serialize};

use super::model::prefill_attention_flop;
use super::roofline::{
    effective_bandwidth_bytes_per_s, peak_flop_per_s, step_terms, Bound, Scenario, StepMix, StepTerms,
};

/// The time to prefill one prompt on the replica, and its terms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prefill {
    /// Tokens prefilled (the scenario's context).
    pub prompt_tokens: u32,
    /// 2 x active params x prompt + causal attention FLOPs, in FLOP.
    pub flop: f64,
    /// flop / (TP x peak), in s.
    pub compute_s: f64,
    /// Weights the prompt's tokens touch, per GPU, / (bandwidth x MBU), in s.
    pub memory_s: f64,
    /// The all-reduces for the prompt's tokens, in s.
    pub allreduce_s: f64,
    /// max(weights / bw, GEMM compute) + attention compute + allreduce_s + overhead, in s: the
    /// single max(compute_s, memory_s) + allreduce_s + overhead when the GEMMs are compute-bound.
    pub prefill_s: f64,
    /// The bound of the group that takes longest.
    pub bound: Bound,
    /// The per-operator terms: the GEMMs and the prompt's causal attention (no KV held before it).
    pub terms: StepTerms,
}

/// prefill(P) = max(weights_read(P) / TP / (bandwidth x MBU), 2 x active x P / (TP x peak))
/// + causal attention FLOPs(P) / (TP x peak) + all-reduce(P) + overhead, in s: one step of P prompt
/// tokens and no decodes. A short prompt's GEMMs are memory-bound, and then its attention adds to
/// the weight read (the single max hid it under the reads).
pub fn prefill_time(scenario: &Scenario) -> Prefill {
    let mix = StepMix {
        prefill_tokens: f64::from(scenario.context_tokens),
        prefill_attention_flop: prefill_attention_flop(&scenario.model, scenario.context_tokens),
        ..StepMix::default()
    };
    let terms = step_terms(scenario, &mix);
    let flop = terms.gemm.flop + terms.prefill_attention.flop;
    let bytes = terms.gemm.bytes + terms.prefill_attention.bytes;
    Prefill {
        prompt_tokens: scenario.context_tokens,
        flop,
        compute_s: flop / peak_flop_per_s(scenario),
        memory_s: bytes / effective_bandwidth_bytes_per_s(scenario),
        allreduce_s: terms.allreduce_s,
        prefill_s: terms.step_s,
        bound: terms.bound(),
        terms,
    }
}
