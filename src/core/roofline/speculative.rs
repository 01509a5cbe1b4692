//! Speculative decoding's arithmetic: expected tokens per step, the drafter's time and memory, the
//! verify step, and the batch where speculation stops paying.
//!
//! One speculative step = the drafter's k proposals, then one target step verifying k + 1 tokens per
//! sequence (the same per-operator [`StepRoofline::terms`](super::StepRoofline::terms) with
//! [`StepMix::verify_draft_tokens`] = k: GEMM tokens T = B(k + 1), attention FLOPs x (k + 1),
//! weights and KV read once). Each sequence then keeps E tokens on average, so
//!
//! TPOT = (draft_s + verify_s) / E and tokens/s = B x E / (draft_s + verify_s).
//!
//! Pricing the drafter:
//! - **a draft model**: k decode steps of its own, each [`StepRoofline::terms`](super::StepRoofline::terms)
//!   on the scenario with the draft model (same GPUs, TP, precisions, context and calibration, so each
//!   draft step also pays the fixed overhead), reading its own weights and its own KV at the context;
//! - **a draft head** (MTP, EAGLE-style): k x f x one target layer's decode step, where one layer's
//!   step is (step(B) - overhead) / layers; it runs inside the target's step (no overhead of its own).
//!
//! Memory: a draft model keeps its weights (/ TP) and B x its KV per sequence (/ its shards); a head
//! is modelled as f of one target layer: f x params / layers of weights and f x kv_per_seq / layers
//! of KV per sequence. Both come out of the KV pool. Not modelled: the drafter's prefill of the
//! prompt (TTFT), a rejected draft's wasted KV writes, and acceptance that varies by position or
//! content (each draft token is accepted independently with probability alpha).

use serde::{Deserialize, Serialize};

use super::{kv_bytes_per_seq, kv_shards, step_terms, weight_bytes, StepMix, StepTerms, MAX_BATCH};
use crate::scenario::Scenario;
use crate::spec::{Drafter, Speculation};

/// E = (1 - alpha^(k+1)) / (1 - alpha): expected tokens a sequence keeps per step when each of k
/// draft tokens is accepted with probability alpha given the ones before it (the accepted prefix
/// plus the target's own token), in tokens; k + 1 as alpha -> 1, 1 at alpha = 0.
pub fn expected_tokens_per_step(draft_tokens: u32, acceptance: f64) -> f64 {
    let k = f64::from(draft_tokens);
    let alpha = acceptance.clamp(0.0, 1.0);
    if 1.0 - alpha < 1e-12 {
        return k + 1.0;
    }
    (1.0 - alpha.powf(k + 1.0)) / (1.0 - alpha)
}

/// One speculative step at batch B, in s.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpecStep {
    /// Draft tokens per sequence (k).
    pub draft_tokens: u32,
    /// Expected tokens kept per sequence per step (E).
    pub tokens_per_step: f64,
    /// The drafter's k proposals, in s.
    pub draft_s: f64,
    /// The target's verify step over k + 1 tokens per sequence, in s.
    pub verify_s: f64,
    /// (draft_s + verify_s) / E: the time per output token, in s.
    pub tpot_s: f64,
}

impl SpecStep {
    /// draft_s + verify_s: one whole speculative step, in s.
    pub fn step_s(&self) -> f64 {
        self.draft_s + self.verify_s
    }
}

/// The scenario with the draft model in place of the target (speculation off), if a model drafts.
pub fn draft_scenario(scenario: &Scenario) -> Option<Scenario> {
    match scenario.speculation.drafter {
        Drafter::Model(model) => Some(Scenario { model, speculation: Speculation::OFF, ..*scenario }),
        _ => None,
    }
}

/// The drafter's time for k proposals at `batch` (sequences at the scenario's context), in s:
/// k x step_draft(B) for a draft model, k x f x (step(B) - overhead) / layers for a head, 0 off.
pub fn draft_s(scenario: &Scenario, batch: f64) -> f64 {
    let k = f64::from(scenario.speculation.draft_tokens);
    let mix = StepMix::decode(batch, f64::from(scenario.context_tokens));
    match scenario.speculation.drafter {
        Drafter::Off => 0.0,
        Drafter::Model(_) => draft_scenario(scenario).map_or(0.0, |d| k * step_terms(&d, &mix).step_s),
        Drafter::Head { layer_cost_fraction } => {
            let target = step_terms(&Scenario { speculation: Speculation::OFF, ..*scenario }, &mix);
            let layers = f64::from(scenario.model.layers.max(1));
            k * layer_cost_fraction * (target.step_s - target.fixed_s) / layers
        }
    }
}

/// The verify step's terms at `batch`: B sequences at the context, each verifying k + 1 tokens.
pub fn verify_terms(scenario: &Scenario, batch: f64) -> StepTerms {
    let mix = StepMix {
        verify_draft_tokens: f64::from(scenario.speculation.draft_tokens),
        ..StepMix::decode(batch, f64::from(scenario.context_tokens))
    };
    step_terms(scenario, &mix)
}

/// The speculative step at `batch` (None when speculation is off), with the verify step's terms.
pub fn spec_step(scenario: &Scenario, batch: f64) -> Option<(SpecStep, StepTerms)> {
    let spec = &scenario.speculation;
    if !spec.is_on() {
        return None;
    }
    let verify = verify_terms(scenario, batch);
    let e = expected_tokens_per_step(spec.draft_tokens, spec.acceptance);
    let draft_s = draft_s(scenario, batch);
    let step = SpecStep {
        draft_tokens: spec.draft_tokens,
        tokens_per_step: e,
        draft_s,
        verify_s: verify.step_s,
        tpot_s: (draft_s + verify.step_s) / e,
    };
    Some((step, verify))
}

/// What the drafter holds per GPU, in B (both 0 when speculation is off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DraftMemory {
    /// Draft weights per GPU: draft params x bytes / TP (a head: f x params / layers x bytes / TP).
    pub weight_bytes_per_gpu: f64,
    /// Draft KV per sequence per GPU: its kv_per_seq / its shards (a head: f x kv_per_seq / layers / shards).
    pub kv_bytes_per_seq_per_gpu: f64,
}

/// The drafter's weights and KV per sequence on each GPU (see the module's memory model).
pub fn draft_memory(scenario: &Scenario) -> DraftMemory {
    let tp = f64::from(scenario.parallel.tp.max(1));
    match scenario.speculation.drafter {
        Drafter::Off => DraftMemory::default(),
        Drafter::Model(_) => draft_scenario(scenario).map_or(DraftMemory::default(), |d| DraftMemory {
            weight_bytes_per_gpu: weight_bytes(&d) / tp,
            kv_bytes_per_seq_per_gpu: kv_bytes_per_seq(&d) / kv_shards(&d),
        }),
        Drafter::Head { layer_cost_fraction } => {
            let share = layer_cost_fraction / f64::from(scenario.model.layers.max(1));
            DraftMemory {
                weight_bytes_per_gpu: share * weight_bytes(scenario) / tp,
                kv_bytes_per_seq_per_gpu: share * kv_bytes_per_seq(scenario) / kv_shards(scenario),
            }
        }
    }
}

/// Whether speculation no longer pays at `batch`: its time per output token is at least the
/// plain decode step's (tokens/s with speculation <= tokens/s without).
fn stops_paying(scenario: &Scenario, batch: u32) -> bool {
    let Some((spec, _)) = spec_step(scenario, f64::from(batch)) else { return true };
    let plain = Scenario { speculation: Speculation::OFF, ..*scenario };
    let mix = StepMix::decode(f64::from(batch), f64::from(scenario.context_tokens));
    spec.tpot_s >= step_terms(&plain, &mix).step_s
}

/// The crossover batch: the smallest B where speculation stops paying (tokens/s with it <= without,
/// as the verify step's GEMMs over B(k + 1) tokens turn compute-bound), by doubling then bisection
/// (the ratio of the two steps grows with B); None when off or when it pays up to [`MAX_BATCH`].
pub fn crossover_batch(scenario: &Scenario) -> Option<u32> {
    if !scenario.speculation.is_on() {
        return None;
    }
    if stops_paying(scenario, 1) {
        return Some(1);
    }
    let mut lo = 1_u32;
    let mut hi = 2_u32;
    while !stops_paying(scenario, hi) {
        if hi == MAX_BATCH {
            return None;
        }
        lo = hi;
        hi = hi.saturating_mul(2).min(MAX_BATCH);
    }
    Some(super::knee::boundary(lo, hi, |b| stops_paying(scenario, b)).1)
}

/// What the page states about speculation: E, the knee and the KV pool with and without it, and the
/// crossover batch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpecSummary {
    /// Expected tokens kept per sequence per step (E).
    pub tokens_per_step: f64,
    pub knee_with: u32,
    pub knee_without: u32,
    pub pool_with: u32,
    pub pool_without: u32,
    /// [`crossover_batch`]: where speculation stops paying (None: it pays at every batch).
    pub crossover: Option<u32>,
}

/// The summary for `scenario` (None when speculation is off).
pub fn spec_summary(scenario: &Scenario) -> Option<SpecSummary> {
    let spec = scenario.speculation;
    if !spec.is_on() {
        return None;
    }
    let plain = Scenario { speculation: Speculation::OFF, ..*scenario };
    Some(SpecSummary {
        tokens_per_step: expected_tokens_per_step(spec.draft_tokens, spec.acceptance),
        knee_with: super::knee_batch(scenario),
        knee_without: super::knee_batch(&plain),
        pool_with: super::kv_pool_batch(scenario),
        pool_without: super::kv_pool_batch(&plain),
        crossover: crossover_batch(scenario),
    })
}
