//! The derivation's speculative-decoding lines as data: E, the drafter's and the verify step's times
//! at the speculative knee, TPOT, the KV pool with the drafter, goodput and the crossover batch.

use serde::Serialize;

use crate::goodput::evaluate;
use crate::roofline::{
    analyze, draft_kv_bytes_per_seq_held, draft_memory, kv_bytes_per_seq_held, prefix_shared_kv_bytes,
    spec_summary, usable_hbm_bytes, weight_bytes_per_gpu, SpecStep, SpecSummary, StepTerms,
};
use crate::scenario::Scenario;
use crate::spec::Drafter;

/// Speculation's arithmetic at one batch (the batch a server can run with it, at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpecLines {
    pub drafter: Drafter,
    pub acceptance: f64,
    pub batch: u32,
    pub step: SpecStep,
    /// The verify step's per-operator terms at `batch`.
    pub verify: StepTerms,
    /// The plain decode step at `batch`, in s.
    pub plain_step_s: f64,
    /// Target layers (a head's cost is a fraction of one).
    pub layers: u32,
    /// Usable HBM per GPU, the target's weights per GPU and the KV a sequence holds per GPU (its
    /// whole context's; with a prefix cache, context - h x C tokens' worth), in B.
    pub usable_bytes: f64,
    pub weight_bytes_per_gpu: f64,
    pub kv_bytes_per_seq_per_gpu: f64,
    pub draft_weight_bytes_per_gpu: f64,
    /// The drafter's KV a sequence holds per GPU, on the same footing as the target's, in B.
    pub draft_kv_bytes_per_seq_per_gpu: f64,
    /// The shared prefix's one copy per GPU, the target's and the drafter's KV (0 without a prefix
    /// cache), in B.
    pub prefix_shared_bytes: f64,
    /// B / (output x TPOT) at `batch` when it meets both targets, else 0, in requests/s.
    pub goodput_req_per_s: f64,
    pub summary: SpecSummary,
}

/// The lines for `scenario`, None when speculation is off.
pub(super) fn spec_lines(scenario: &Scenario) -> Option<SpecLines> {
    let summary = spec_summary(scenario)?;
    let batch = analyze(scenario).server_batch.max(1);
    let point = evaluate(scenario, batch);
    let step = point.step.speculative?;
    let plain = Scenario { speculation: crate::spec::Speculation::OFF, ..*scenario };
    let draft = draft_memory(scenario);
    Some(SpecLines {
        drafter: scenario.speculation.drafter,
        acceptance: scenario.speculation.acceptance,
        batch,
        step,
        verify: point.step.terms,
        plain_step_s: evaluate(&plain, batch).step.step_s,
        layers: scenario.model.layers,
        usable_bytes: usable_hbm_bytes(scenario),
        weight_bytes_per_gpu: weight_bytes_per_gpu(scenario),
        kv_bytes_per_seq_per_gpu: kv_bytes_per_seq_held(scenario),
        draft_weight_bytes_per_gpu: draft.weight_bytes_per_gpu,
        draft_kv_bytes_per_seq_per_gpu: draft_kv_bytes_per_seq_held(scenario),
        prefix_shared_bytes: prefix_shared_kv_bytes(scenario),
        goodput_req_per_s: point.goodput_req_per_s,
        summary,
    })
}
