//! The simulator's read-out as sentences: its goodput (overall, per GPU, across seeds), what each
//! level's numbers are, warm-up and overload, the analytic line beside it, and its GPU count for a
//! load against the capacity plan's.

use super::{fixed, placement, significant, thousands};
use crate::core::goodput::evaluate;
use crate::core::roofline::{Analysis, Limit};
use crate::core::scenario::Scenario;

/// The simulator's goodput as the readout prints it: `25.4 req/s`, `≥ 50.4 req/s` when every rate
/// swept met the target, `below 3.15 req/s` when none did.
pub fn sim_goodput(sweep: &crate::core::sim::Sweep) -> String {
    use crate::core::sim::GoodputBound;
    let lowest = sweep.points.first().map_or(0.0, |p| p.rate_req_per_s);
    match sweep.bound {
        GoodputBound::Exact => format!("{} req/s", significant(sweep.goodput_req_per_s)),
        GoodputBound::AtLeast => format!("≥ {} req/s", significant(sweep.goodput_req_per_s)),
        GoodputBound::BelowLowest => format!("below {} req/s", significant(lowest)),
    }
}

/// The spread of a sweep's goodput over its seeds: "median of 7 seeds, 12.3 to 13.0 req/s across
/// them" (one seed: "one seed").
pub fn sim_goodput_range(sweep: &crate::core::sim::Sweep) -> String {
    let (lo, hi) = sweep.goodput_range_req_per_s;
    if sweep.seeds <= 1 {
        return "one seed".to_string();
    }
    format!("median of {} seeds, {} to {} req/s across them", sweep.seeds, significant(lo), significant(hi))
}

/// What each level's numbers are: "medians over 7 seeds; the first 64 requests of each run left
/// out as warm-up".
pub fn sim_sample(sweep: &crate::core::sim::Sweep) -> String {
    let warmup = sweep.points.first().map_or(0, |p| p.warmup_requests);
    let over =
        if sweep.seeds <= 1 { "one seed".to_string() } else { format!("medians over {} seeds", sweep.seeds) };
    format!("{over}; the first {warmup} requests of each run left out as warm-up")
}

/// The readout's sentence on a replica's DP ranks (None at DP 1): how many, where requests go, and
/// what each rank has, e.g. "8 DP ranks, requests to the least-loaded (fewest KV tokens held or
/// waiting), each with its own batch, KV pool and 1/8 of the cap and the chunk budget; every step
/// is paced by the slowest rank."
pub fn sim_ranks_note(dp: u32) -> Option<String> {
    (dp > 1).then(|| {
        format!(
            "{dp} DP ranks, requests to the least-loaded (fewest KV tokens held or waiting), each with its own batch, KV pool and 1/{dp} of the cap and the chunk budget; every step is paced by the slowest rank."
        )
    })
}

/// The readout's sentence on warm-up and overload (open load) or why closed load cannot overload.
pub fn sim_steady_note(sweep: &crate::core::sim::Sweep, open: bool) -> String {
    let warmup = sweep.points.first().map_or(0, |p| p.warmup_requests);
    let first = format!(
        "The first {warmup} requests of each run (while the batch fills) are left out of attainment and percentiles."
    );
    if !open {
        return format!("{first} A closed loop cannot overload: each client waits for its answer.");
    }
    let over = sweep.points.iter().find(|p| p.overloaded).map_or_else(
        || " No swept rate overloads the server.".to_string(),
        |p| format!(" From {} req/s the server is overloaded: the queue grows, so those rates never count toward goodput.", significant(p.rate_req_per_s)),
    );
    format!("{first}{over}")
}

/// A sweep's goodput per GPU as printed: "12.4 req/s/GPU", "≥ 12.4 req/s/GPU" (every rate met the
/// target) or "below 3.15 req/s/GPU" (none did), the sweep's rates divided by `gpus`.
pub fn sim_goodput_per_gpu(sweep: &crate::core::sim::Sweep, gpus: u32) -> String {
    use crate::core::sim::GoodputBound;
    let per_gpu = |rate: f64| significant(rate / f64::from(gpus.max(1)));
    match sweep.bound {
        GoodputBound::Exact => format!("{} req/s/GPU", per_gpu(sweep.goodput_req_per_s)),
        GoodputBound::AtLeast => format!("≥ {} req/s/GPU", per_gpu(sweep.goodput_req_per_s)),
        GoodputBound::BelowLowest => {
            format!("below {} req/s/GPU", per_gpu(sweep.points.first().map_or(0.0, |p| p.rate_req_per_s)))
        }
    }
}

/// The simulator readout's analytic line: the batch a server runs inside the targets and its rate,
/// beside the simulated concurrency cap; or, when no batch can run, why, instead of a rate for a
/// batch that does not exist.
pub fn sim_analytic(scenario: &Scenario, analysis: &Analysis, cap: u32) -> String {
    let cap_text =
        if cap == 1 { "1 sequence".to_string() } else { format!("{} sequences", thousands(f64::from(cap))) };
    match analysis.limit {
        Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. } => {
            "Analytic model: nothing fits in memory (see the headline), so the simulated server refuses every request."
                .to_string()
        }
        _ if analysis.server_batch == 0 => {
            format!("Analytic model: no batch meets both targets; simulated cap {cap_text}.")
        }
        _ => format!(
            "Analytic model: batch {} → {} req/s; simulated cap {cap_text}.",
            thousands(f64::from(analysis.server_batch)),
            significant(evaluate(scenario, analysis.server_batch).throughput_req_per_s)
        ),
    }
}

/// The simulator's answer to the capacity plan's question beside the plan's own: "For 100 req/s: 9
/// GPUs at the simulated goodput (a finite run: 2,000 requests x 7 seeds); the capacity plan's
/// analytic steady state: 8 GPUs at 13.4 req/s a replica." and, when they differ, why.
pub fn sim_plan_line(
    load_req_per_s: f64,
    sweep: &crate::core::sim::Sweep,
    tp: u32,
    unit: Option<&crate::core::capacity::Point>,
) -> String {
    use crate::core::capacity::gpus_for;
    let sim = gpus_for(load_req_per_s, sweep.goodput_req_per_s, tp.max(1));
    let sim_text = match sim {
        0 => "no GPU count at the simulated goodput".to_string(),
        n => format!("{} GPUs at the simulated goodput", thousands(f64::from(n))),
    };
    let run = format!("a finite run over {} seeds", sweep.seeds);
    let Some(u) = unit else {
        return format!(
            "For {} req/s: {sim_text} ({run}); the capacity plan finds no rate inside both targets.",
            fixed(load_req_per_s, 2)
        );
    };
    let plan = gpus_for(load_req_per_s, u.rate_req_per_s, u.gpus);
    let why = if plan == sim {
        " The two agree.".to_string()
    } else {
        format!(
            " They differ: {} (README, \"Placement, stated\").",
            placement::plan_difference_cause(u.binds)
        )
    };
    format!(
        "For {} req/s: {sim_text} ({run}); the capacity plan's analytic steady state: {} GPUs at {} req/s a replica.{why}",
        fixed(load_req_per_s, 2),
        thousands(f64::from(plan)),
        significant(u.rate_req_per_s),
    )
}

/// The readout's sentence on a trace replayed as recorded: its rate, the share meeting both
/// targets, its TTFT and TPOT p90 and whether the queue kept growing, e.g. "Replayed as recorded
/// (3.2 req/s, 12,000 requests): 94.1% met both targets; TTFT p90 180 ms, TPOT p90 9.1 ms; a
/// finite run, its queue steady."
pub fn sim_recorded_line(point: &crate::core::sim::RatePoint, requests: u32) -> String {
    let queue = if point.overloaded { "its queue still growing at the end" } else { "its queue steady" };
    format!(
        "Replayed as recorded ({} req/s, {} requests): {} met both targets; TTFT p90 {} ms, TPOT p90 {} ms; a finite run, {queue}.",
        super::significant(point.rate_req_per_s),
        super::thousands(f64::from(requests)),
        super::percent(point.requests.both),
        super::ms_or_dash(point.ttft.p90_s),
        super::ms_or_dash(point.tpot.p90_s),
    )
}
