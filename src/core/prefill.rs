//! Prefill: how long a prompt takes to process before its first token, from the same per-operator
//! step as decode ([`crate::roofline::StepRoofline::terms`]), whole (a prefix-cache miss) or
//! past a cached shared prefix (a hit), and the TTFT of each and their mean, after the decode step in
//! flight ([`ttft_s`], the one the TTFT target is checked against).

use serde::{Deserialize, Serialize};

use super::model::prefill_attention_flop;
use super::roofline::{
    effective_bandwidth_bytes_per_s, peak_flop_per_s, step_terms, Bound, StepMix, StepTerms, StepTime,
};
use super::scenario::Scenario;

/// The time to prefill one prompt on the replica, and its terms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prefill {
    /// The prompt's tokens ([`Scenario::prompt_tokens`]).
    pub prompt_tokens: u32,
    /// Tokens of it found cached (a shared prefix's hit) and not computed; 0 for a whole prompt.
    pub cached_tokens: u32,
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
/// the weight read (the single max hid it under the reads). This is a prefix-cache miss.
pub fn prefill_time(scenario: &Scenario) -> Prefill {
    prefill_time_cached(scenario, 0)
}

/// A prompt of P = [`Scenario::prompt_tokens`] tokens whose first C tokens are cached (a hit on the shared prefix): one
/// step of the P - C uncached tokens, whose GEMMs see P - C tokens and whose attention reads the
/// C cached tokens' KV and computes the suffix's causal pairs over the whole prompt,
/// attention FLOPs(P) - attention FLOPs(C). prefill_hit = max(weights_read(P - C) / TP / bw,
/// 2 x active x (P - C) / (TP x peak)) + max(C x KV per token / shards / bw, (attn(P) - attn(C)) /
/// (TP x peak)) + all-reduce(P - C) + overhead, in s. C = 0 is [`prefill_time`].
pub fn prefill_time_cached(scenario: &Scenario, cached_tokens: u32) -> Prefill {
    prefill_of(scenario, scenario.prompt_tokens(), cached_tokens)
}

/// [`prefill_time_cached`] for a prompt of `prompt_tokens` (the simulator's requests vary).
pub fn prefill_of(scenario: &Scenario, prompt_tokens: u32, cached_tokens: u32) -> Prefill {
    let m = &scenario.model;
    let prompt = prompt_tokens.max(1);
    let cached = cached_tokens.min(prompt);
    let mix = if cached == 0 {
        StepMix {
            prefill_tokens: f64::from(prompt),
            prefill_attention_flop: prefill_attention_flop(m, prompt),
            ..StepMix::default()
        }
    } else {
        StepMix {
            prefill_tokens: f64::from(prompt - cached),
            prefill_kv_tokens: f64::from(cached),
            prefill_attention_flop: prefill_attention_flop(m, prompt) - prefill_attention_flop(m, cached),
            ..StepMix::default()
        }
    };
    let terms = step_terms(scenario, &mix);
    let flop = terms.gemm.flop + terms.prefill_attention.flop;
    let bytes = terms.gemm.bytes + terms.prefill_attention.bytes;
    Prefill {
        prompt_tokens: prompt,
        cached_tokens: cached,
        flop,
        compute_s: flop / peak_flop_per_s(scenario),
        memory_s: bytes / effective_bandwidth_bytes_per_s(scenario),
        allreduce_s: terms.allreduce_s,
        prefill_s: terms.step_s,
        bound: terms.bound(),
        terms,
    }
}

/// The prefill the TTFT target is checked against: a miss's whole prompt while any request misses
/// (h < 1), the hit's suffix when every request hits (h = 1).
pub fn target_prefill(scenario: &Scenario) -> Prefill {
    let prefix = &scenario.prefix;
    if prefix.active() && prefix.hit_rate >= 1.0 {
        prefill_time_cached(scenario, prefix.cached_tokens(scenario.prompt_tokens()))
    } else {
        prefill_time(scenario)
    }
}

/// Steady-state TTFT at one batch for a prefix-cache hit, a miss and their mean.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TtftSplit {
    /// step(B) + prefill of the uncached suffix, in s.
    pub hit_s: f64,
    /// step(B) + prefill of the whole prompt, in s.
    pub miss_s: f64,
    /// h x hit + (1 - h) x miss: the mean over requests, not a percentile, in s.
    pub mean_s: f64,
    /// What the TTFT target is checked against: the miss while h < 1 (every request must meet it,
    /// and some miss), the hit at h = 1, in s.
    pub target_s: f64,
}

/// hit = step + prefill_hit, miss = step + prefill(prompt), mean = h x hit + (1 - h) x miss, in s,
/// for a decode step of `step_s` in flight. Without a prefix cache all four are step + prefill.
pub fn ttft_split(scenario: &Scenario, step_s: f64) -> TtftSplit {
    let miss_s = step_s + prefill_time(scenario).prefill_s;
    let prefix = &scenario.prefix;
    if !prefix.active() {
        return TtftSplit { hit_s: miss_s, miss_s, mean_s: miss_s, target_s: miss_s };
    }
    let cached = prefix.cached_tokens(scenario.prompt_tokens());
    let hit_s = step_s + prefill_time_cached(scenario, cached).prefill_s;
    let h = prefix.hit_rate;
    let mean_s = h * hit_s + (1.0 - h) * miss_s;
    TtftSplit { hit_s, miss_s, mean_s, target_s: if h >= 1.0 { hit_s } else { miss_s } }
}

/// Steady-state TTFT at batch B that the target is checked against: a new request waits for the
/// decode step in flight (with speculation the whole draft + verify step), then its prompt is
/// prefilled alone. ttft(B) = step(B) + prefill(prompt), in s; with a prefix cache the miss's while
/// h < 1, the hit's at h = 1 ([`ttft_split`], which also gives the hit, the
/// miss and the mean).
pub fn ttft_s(scenario: &Scenario, step: &StepTime) -> f64 {
    ttft_split(scenario, step_in_flight_s(step)).target_s
}

/// The step a new request waits for: the decode step, or with speculation the whole draft + verify
/// step (not the per-token TPOT), in s.
pub fn step_in_flight_s(step: &StepTime) -> f64 {
    step.speculative.map_or(step.step_s, |s| s.step_s())
}
