//! The worked example's arithmetic written out for any scenario, as plain data: each line's operands (the
//! numbers the page substitutes into the formula) beside the roofline's own result, and which form of
//! each formula applies (dense or MoE reads, GQA or MLA cache, sliding windows, tensor parallelism,
//! realistic calibration, and the cases in which no batch can run).
//!
//! Results come from [`super::roofline`] itself, so the panel shows the numbers the table shows;
//! `tests/it/derivation.rs` recombines the operands as the formulas are printed and holds them equal
//! to those results for every preset.

mod limits;
mod parallel;
mod sizes;
mod spec;
mod step;
use serde::Serialize;

use super::roofline::{analyze, Analysis, Limit};
use super::scenario::Scenario;
use super::spec::Speculation;
use limits::{goodput, knee, pool};
pub use limits::{Goodput, Knee, KneeForm, Pool};
pub use parallel::{parallel_lines, ParallelLines, ParallelStep};
use sizes::{kv_seq, kv_token, weights};
pub use sizes::{KvSeq, KvShape, KvToken, MoeReads, SlidingKv, Weights};
pub use spec::SpecLines;
use step::{bandwidth, compute_peak, step_at, step_batches, step_formula};
pub use step::{Bandwidth, ComputePeak, Role, StepAt, StepFormula};

/// Every line of the derivation for one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Derivation {
    pub weights: Weights,
    pub kv_token: KvToken,
    pub kv_seq: KvSeq,
    pub bandwidth: Bandwidth,
    pub compute: ComputePeak,
    pub step: StepFormula,
    /// step(B) evaluated at the batches the argument needs, ascending (none when nothing runs).
    pub steps: Vec<StepAt>,
    pub knee: Knee,
    pub pool: Pool,
    /// Little's law at the batch a server can run; `None` when no batch runs inside the targets.
    pub goodput: Option<Goodput>,
    pub limit: Limit,
    /// Speculative decoding's lines (None when off); the lines above are then the target without it.
    pub speculation: Option<SpecLines>,
    /// Expert, data or pipeline parallelism's lines (None for tensor parallelism alone).
    pub parallel: Option<ParallelLines>,
}

/// The whole derivation for `s` and its analysis. With speculation on, every line but the
/// speculative ones is the target's without it (so each stays the formula it prints), and
/// [`SpecLines`] adds the drafter, the verify step, TPOT, the pool, goodput and the crossover.
pub fn derive(scenario: &Scenario, analysis: &Analysis) -> Derivation {
    if scenario.speculation.is_on() {
        let plain = Scenario { speculation: Speculation::OFF, ..*scenario };
        return Derivation { speculation: spec::spec_lines(scenario), ..derive(&plain, &analyze(&plain)) };
    }
    let weights = weights(scenario);
    let kv_token = kv_token(scenario);
    let kv_seq = kv_seq(scenario, analysis);
    let bandwidth = bandwidth(scenario);
    let compute = compute_peak(scenario, analysis);
    let step = step_formula(&weights, &kv_seq, &bandwidth, &compute, scenario);
    Derivation {
        weights,
        kv_token,
        kv_seq,
        bandwidth,
        compute,
        step,
        steps: step_batches(analysis)
            .into_iter()
            .map(|(batch, role)| step_at(scenario, analysis, batch, role))
            .collect(),
        knee: knee(scenario, analysis, &step),
        pool: pool(scenario, analysis),
        goodput: goodput(scenario, analysis),
        limit: analysis.limit,
        speculation: None,
        parallel: parallel_lines(scenario, analysis),
    }
}

/// [`derive`] with the scenario's own analysis.
pub fn derive_scenario(scenario: &Scenario) -> Derivation {
    derive(scenario, &analyze(scenario))
}
