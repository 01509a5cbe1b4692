//! A published measurement as the model sees it: its scenario, and the TPOT and throughput the model
//! predicts under the conditions it was measured in (closed loop at a concurrency, or a ceiling).
//!
//! A closed-loop run at concurrency C with prompts of ISL and answers of OSL tokens (means) is taken as
//! its steady state: C sequences decode at the mean context ISL + OSL / 2, and every OSL decode steps
//! each of the other C - 1 requests has its prompt prefilled once, as a step of its own that the
//! decodes wait for (SGLang's default; vLLM and TensorRT-LLM chunk the prompt into the decode steps,
//! which costs about the same GPU time). So
//!
//! TPOT = step(C, ISL + OSL / 2) + (C - 1) / OSL x prefill(ISL)
//!
//! (a request's own prefill is its TTFT, which TPOT excludes). Batches are the client's concurrency:
//! requests waiting for a slot or between requests are not counted out.

use super::published::{PublishedPoint, UseClass};
use super::CostModel;
use crate::model::prefill_attention_flop;
use crate::presets::{gpu_by_id, model_by_id};
use crate::roofline::{kv_pool_batch, step_time_at, StepMix, StepRoofline, MAX_BATCH};
use crate::scenario::Scenario;
use crate::scenario::WORKED_EXAMPLE;

/// The scenario of a published point at its mean context, under `calibration`, with the worked
/// example's memory share (0.9, vLLM's default) and no speculation or prefix cache (the data state
/// neither; the targets do not enter a prediction); `None` when its model or GPU is not a preset.
pub fn scenario_of(point: &PublishedPoint, calibration: CostModel) -> Option<Scenario> {
    let model = *model_by_id(point.model_id)?;
    let gpu = *gpu_by_id(point.gpu_id)?;
    let base = Scenario {
        model,
        gpu,
        weight_precision: point.weight_precision,
        kv_precision: point.kv_precision,
        parallel: point.parallelism(),
        calibration,
        ..WORKED_EXAMPLE
    };
    Some(at_run_lengths(base, point.isl_mean, point.osl_mean))
}

/// `base` at a run's mean lengths (tokens): its sequences hold ISL + OSL / 2 on average (rounded, at
/// least 1) and answer OSL (rounded, at least 1); a shared prefix stays within the prompt.
pub fn at_run_lengths(base: Scenario, isl: f64, osl: f64) -> Scenario {
    let context = (isl + osl / 2.0).round().clamp(1.0, f64::from(u32::MAX));
    let prompt = isl.round().clamp(0.0, f64::from(u32::MAX)) as u32;
    let mut prefix = base.prefix;
    prefix.prefix_tokens = prefix.prefix_tokens.min(prompt);
    Scenario { context_tokens: context as u32, output_tokens: osl.round().max(1.0) as u32, prefix, ..base }
}

/// One prompt of `isl` tokens prefilled as a step of its own, in s.
fn prefill_s(scenario: &Scenario, isl: f64) -> f64 {
    let tokens = isl.round().clamp(1.0, f64::from(u32::MAX)) as u32;
    let mix = StepMix {
        prefill_tokens: f64::from(tokens),
        prefill_attention_flop: prefill_attention_flop(&scenario.model, tokens),
        ..StepMix::default()
    };
    StepRoofline::new(scenario).terms(&mix).step_s
}

/// The closed-loop TPOT the model predicts at `batch` (see the module's equation), in s.
pub fn closed_loop_tpot_at_s(scenario: &Scenario, batch: f64, isl: f64, osl: f64) -> f64 {
    let step = step_time_at(scenario, batch).step_s;
    let others = (batch - 1.0).max(0.0);
    step + others / osl.max(1.0) * prefill_s(scenario, isl)
}

/// The TPOT the model predicts for a point with a TPOT at a known concurrency, in s.
pub fn predicted_tpot_s(point: &PublishedPoint, calibration: CostModel) -> Option<f64> {
    let batch = point.concurrency?;
    let scenario = scenario_of(point, calibration)?;
    Some(closed_loop_tpot_at_s(&scenario, batch, point.isl_mean, point.osl_mean))
}

/// Output tokens/s the model predicts for a throughput point, over all its GPUs: for a ceiling, the
/// largest batch the KV pool holds; for a load point without a known batch, the largest batch (up to
/// the pool) whose closed-loop TPOT stays within the measured TPOT. Replicas = GPUs / the replica's GPUs (TP x DP x PP).
pub fn predicted_output_tokens_per_s(point: &PublishedPoint, calibration: CostModel) -> Option<f64> {
    let scenario = scenario_of(point, calibration)?;
    let pool = kv_pool_batch(&scenario).min(MAX_BATCH);
    if pool == 0 {
        return Some(0.0);
    }
    let tpot_at = |b: u32| closed_loop_tpot_at_s(&scenario, f64::from(b), point.isl_mean, point.osl_mean);
    let batch = match (point.use_class, point.tpot_s) {
        (UseClass::Ceiling, _) | (_, None) => pool,
        (_, Some(limit_s)) => largest_batch_within(pool, limit_s, tpot_at),
    };
    let replicas = f64::from(point.replicas());
    Some(replicas * f64::from(batch) / tpot_at(batch.max(1)))
}

/// The largest batch in 1..=pool whose TPOT is at most `limit_s` (TPOT grows with the batch); 1 if none.
fn largest_batch_within(pool: u32, limit_s: f64, tpot_at: impl Fn(u32) -> f64) -> u32 {
    let (mut lo, mut hi) = (1_u32, pool);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if tpot_at(mid) <= limit_s {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Each offline maximum of `points` as a floor on the TPOT at its batch: a ceiling row's measured
/// output tokens/s T over its replicas, at the largest batch B the KV pool holds (memory alone sets
/// B, whatever the cost terms), says the model's TPOT at B must be at least replicas x B / T, the
/// inverse of [`predicted_output_tokens_per_s`]. Returned as the row with `concurrency` B and
/// `tpot_s` that floor, for the fit's one-sided rows.
pub fn ceiling_floors(points: &[PublishedPoint]) -> Vec<PublishedPoint> {
    points
        .iter()
        .filter(|p| p.use_class == UseClass::Ceiling)
        .filter_map(|p| {
            let scenario = scenario_of(p, CostModel::Ideal)?;
            let batch = kv_pool_batch(&scenario).min(MAX_BATCH);
            let measured = p.output_tokens_per_s.filter(|t| *t > 0.0)?;
            let replicas = f64::from(p.replicas());
            (batch > 0).then(|| PublishedPoint {
                concurrency: Some(f64::from(batch)),
                tpot_s: Some(replicas * f64::from(batch) / measured),
                ..*p
            })
        })
        .collect()
}
