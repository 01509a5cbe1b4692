//! The headline sentence: the knee and what a larger batch costs, or why no batch runs, with live
//! numbers.

use super::placement::percentile_label;
use super::{gb, ms, req_per_s, target_ms, thousands};
use crate::core::calibration::range::at_range_ends;
use crate::core::capacity::{Placing, Point};
use crate::core::goodput::evaluate;
use crate::core::placement::PlacementMode;
use crate::core::roofline::{analyze, Analysis, Limit};
use crate::core::scenario::Scenario;

/// The one sentence above the charts that states the lesson with live numbers.
pub fn headline(scenario: &Scenario, analysis: &Analysis) -> String {
    let target = target_ms(scenario.tpot_target_s);
    match analysis.limit {
        Limit::Tpot => tpot_headline(scenario, analysis, &target),
        Limit::KvPool => {
            let pool = evaluate(scenario, analysis.kv_pool_batch);
            format!(
                "The KV pool binds: it holds {} sequences of {} tokens, fewer than the {} that would meet {target} ms; \
                 at {} goodput equals throughput, {} req/s ({} tokens/s).",
                thousands(f64::from(analysis.kv_pool_batch)),
                thousands(f64::from(scenario.context_tokens)),
                thousands(f64::from(analysis.knee_batch)),
                thousands(f64::from(analysis.kv_pool_batch)),
                req_per_s(pool.goodput_req_per_s),
                thousands(pool.tokens_per_s),
            )
        }
        Limit::Ttft => ttft_headline(scenario, analysis),
        Limit::TargetBelowFloor { floor_s } => format!(
            "No batch meets {target} ms: even a batch of 1 takes {} ms per step, so goodput is 0 at every batch size.",
            ms(floor_s)
        ),
        Limit::TtftBelowFloor { floor_s } => format!(
            "No batch meets the {} ms TTFT target: prefilling {} tokens takes {} ms even beside a batch of 1, \
             so goodput is 0 at every batch size.",
            target_ms(scenario.ttft_target_s),
            thousands(f64::from(scenario.prompt_tokens())),
            ms(floor_s)
        ),
        Limit::WeightsDoNotFit { weight_bytes, usable_bytes, gpus_needed } => {
            weights_do_not_fit(scenario, analysis, weight_bytes, usable_bytes, gpus_needed)
        }
        Limit::ContextDoesNotFit { free_bytes, kv_bytes_per_seq } => format!(
            "Not even one sequence fits: {} tokens of KV take {} GB, and {} GB is free after the weights.",
            thousands(f64::from(scenario.context_tokens)),
            gb(kv_bytes_per_seq),
            gb(free_bytes)
        ),
    }
}

/// "Llama 3.1 405B in BF16 needs 811.70 GB of weights; one H100 SXM holds 72.00 GB usable, so it
/// needs at least 12 GPUs ..." with the tensor-parallel degree that fits, or what to try instead.
pub(super) fn weights_do_not_fit(
    scenario: &Scenario,
    analysis: &Analysis,
    weight_bytes: f64,
    usable_bytes: f64,
    gpus: u32,
) -> String {
    let first = format!(
        "{} in {} needs {} GB of weights; one {} holds {} GB usable, so it needs at least {} GPUs",
        scenario.model.name,
        scenario.weight_precision.label(),
        gb(weight_bytes),
        scenario.gpu.name,
        gb(usable_bytes),
        thousands(f64::from(gpus)),
    );
    match analysis.tp_needed {
        Some(tp) => format!("{first}: set tensor parallelism to {tp} (it is {} now).", scenario.parallel.tp),
        None => format!(
            "{first}, more than tensor parallelism 8 offers: try smaller weights (FP8, INT4) or a GPU with more HBM."
        ),
    }
}

/// "The 2000 ms TTFT target caps the batch at 40 ..." when TTFT binds before TPOT.
pub(super) fn ttft_headline(scenario: &Scenario, analysis: &Analysis) -> String {
    let knee = evaluate(scenario, analysis.knee_batch);
    format!(
        "The {} ms TTFT target binds first: prefilling {} tokens takes {} ms, so the largest batch meeting both targets \
         is {}, goodput {} req/s ({} per GPU).",
        target_ms(scenario.ttft_target_s),
        thousands(f64::from(scenario.prompt_tokens())),
        ms(analysis.prefill.prefill_s),
        thousands(f64::from(analysis.knee_batch)),
        req_per_s(knee.goodput_req_per_s),
        req_per_s(knee.goodput_per_gpu_req_per_s),
    )
}

/// " (6.3 per GPU)" when the replica spans several GPUs, else nothing; under the measured engines'
/// model with its likely range at the knee: " (6.3 per GPU, likely 5.1 to 7.0)".
pub(super) fn per_gpu(scenario: &Scenario, rate: f64) -> String {
    if scenario.parallel.gpus() <= 1 {
        return String::new();
    }
    match knee_goodput_per_gpu_range(scenario) {
        Some((low, high)) => {
            format!(" ({} per GPU, likely {} to {})", req_per_s(rate), req_per_s(low), req_per_s(high))
        }
        None => format!(" ({} per GPU)", req_per_s(rate)),
    }
}

/// The knee's goodput per GPU at the slow and the fast end of the likely range: each end's own knee,
/// since a slower step also meets the target at a smaller batch.
pub fn knee_goodput_per_gpu_range(scenario: &Scenario) -> Option<(f64, f64)> {
    at_range_ends(scenario, |s| evaluate(s, analyze(s).knee_batch).goodput_per_gpu_req_per_s)
}

/// "Largest batch meeting 10 ms: 64, goodput 25.2 req/s; at 128 throughput is 8,505 tokens/s (32%
/// more) and goodput 0." The comparison batch is twice the knee, or the pool if that is smaller.
pub(super) fn tpot_headline(scenario: &Scenario, analysis: &Analysis, target: &str) -> String {
    let knee = evaluate(scenario, analysis.knee_batch);
    let first = format!(
        "Largest batch meeting {target} ms: {}, goodput {} req/s{}",
        thousands(f64::from(analysis.knee_batch)),
        req_per_s(knee.goodput_req_per_s),
        per_gpu(scenario, knee.goodput_per_gpu_req_per_s)
    );
    let compare_batch = analysis.knee_batch.saturating_mul(2).min(analysis.kv_pool_batch);
    if compare_batch <= analysis.knee_batch {
        return format!("{first}; the KV pool allows no larger batch.");
    }
    let more = evaluate(scenario, compare_batch);
    let gain_pct = (more.tokens_per_s / knee.tokens_per_s - 1.0) * 100.0;
    format!(
        "{first}; at {} throughput is {} tokens/s ({}% more) and goodput {}.",
        thousands(f64::from(compare_batch)),
        thousands(more.tokens_per_s),
        thousands(gain_pct),
        req_per_s(more.goodput_req_per_s)
    )
}

/// What the replica serves with each request's prefill on its GPUs, at the page's percentile (the
/// capacity plan's unit): "With prefill too: 13.4 req/s a replica at p90." The decode-only
/// numbers before it are the lesson; this is the number to plan with.
pub fn with_prefill(unit: Option<&Point>, placing: &Placing) -> String {
    let pct = percentile_label(&placing.percentile);
    match (unit, placing.mode) {
        (None, _) => {
            format!("With prefill too: no rate meets both targets at {pct}.")
        }
        (Some(u), PlacementMode::Colocated) => {
            format!("With prefill too: {} req/s a replica at {pct}.", req_per_s(u.rate_req_per_s))
        }
        (Some(u), PlacementMode::Disaggregated) => format!(
            "With prefill on its own GPUs: {} req/s on {} GPUs at {pct}.",
            req_per_s(u.rate_req_per_s),
            thousands(f64::from(u.gpus))
        ),
    }
}
