//! The three measurements, each printing its own lines: simulator speed (ours, the peer, the
//! ratio), the page's sweep time, and goodput side by side.

use std::hint::black_box;

use goodput_lab::core::sim::sweep;

use crate::measure::median_s;
use crate::report::{metric, note, Budget};
use crate::workload::{Outcome, Run, Workload};
use crate::{goodput, info, ours, peer, steps};

/// Our native floor from the issue, in simulated req/s, and the least ratio over the peer.
const OURS_MIN_REQ_PER_S: f64 = 500_000.0;
const MIN_RATIO: f64 = 10.0;

/// Simulated requests per second: requests / median wall time of one whole run (workload drawn,
/// simulated, summarised). Returns false if a budget fails.
pub fn speed(w: &Workload, run: &Run, repeats: (u32, u32)) -> bool {
    note(&format!("speed run: {} requests at {} req/s, seed {}", run.requests, run.rate_req_per_s, run.seed));
    let s = ours::scenario(w);
    let ours_s = median_s(repeats.0, || ours::simulate(w, &s, run));
    let peer_s = median_s(repeats.1, || peer::simulate(w, run).request_rows().len());
    let n = f64::from(run.requests);
    let (ours_rps, peer_rps) = (n / ours_s, n / peer_s);
    let mut ok = metric("ours_sim_req_per_s", ours_rps, "req/s", Budget::AtLeast(OURS_MIN_REQ_PER_S));
    info("peer_sim_req_per_s", peer_rps, "req/s");
    ok &= metric("ratio_ours_over_peer", ours_rps / peer_rps, "x", Budget::AtLeast(MIN_RATIO));
    ok
}

/// One full attainment sweep for the page's default state (the URL with no keys), as the
/// simulator panel runs it; and with the chunk-budget table the worker adds.
pub fn sweep_times(repeats: u32) {
    let (inputs, _) = goodput_lab::state::from_query("");
    let c = inputs.sim.config(&inputs.scenario);
    let sweep_s = median_s(repeats, || sweep(black_box(&c)));
    let all_s = median_s(repeats, || {
        goodput_lab::core::plan::compute(&black_box(&inputs).sim_plan(), |_, _| {})
    });
    let simulated = sweep(&c).requests_simulated as f64;
    info("ours_sweep_default_ms", sweep_s * 1e3, "ms");
    info("ours_sweep_default_requests", simulated, "requests");
    info("ours_sweep_default_req_per_s", simulated / sweep_s, "req/s");
    info("ours_sweep_and_chunk_table_default_ms", all_s * 1e3, "ms");
}

/// Requests per run in the goodput comparison. The arrival sample moves goodput: over 8 seeds ours
/// spread over about 1.2 req/s with 5,000 or 10,000 requests, about 0.6 req/s with 20,000.
const GOODPUT_REQUESTS: u32 = 20_000;
/// Highest rate the goodput search tries, in req/s (the capacity is about 22.8 req/s).
const SEARCH_RATE_MAX: f64 = 32.0;
/// Seeds of ours alone, to show how far the arrival sample moves goodput.
const SPREAD_SEEDS: u64 = 8;

/// Both simulators' goodput on the workload: at the speed run's rate, then DistServe goodput
/// (highest rate with >= the attainment target), each simulator on its own Poisson arrivals and
/// ours also on the peer's arrival times; then the step times of both cost models on the same steps.
pub fn goodput(w: &Workload, run: &Run) {
    let s = ours::scenario(w);
    let at = |side: &str, what: &str| format!("{side}_{what}_at_{}rps", run.rate_req_per_s);
    let peer_arrivals = peer::arrivals(w, run);
    let sides = [
        ("ours", ours::outcome(w, &s, run)),
        ("peer", peer::outcome(w, run)),
        ("ours_on_peer_arrivals", ours::outcome_on(w, &s, &peer_arrivals)),
    ];
    note(&format!("one run of {} requests at {} req/s, seed {}", run.requests, run.rate_req_per_s, run.seed));
    for (side, x) in &sides {
        info(&at(side, "attainment"), x.attainment() * 100.0, "%");
        info(&at(side, "goodput"), x.goodput_req_per_s(), "req/s");
        info(&at(side, "tpot_p50"), x.tpot_p50_s * 1e3, "ms");
        info(&at(side, "ttft_p50"), x.ttft_p50_s * 1e3, "ms");
    }
    distserve(w, run.seed);
    step_costs(w);
}

/// DistServe goodput of both simulators by the same search, and the spread of ours over seeds.
fn distserve(w: &Workload, seed: u64) {
    let s = ours::scenario(w);
    let run_at = |rate, seed| Run { requests: GOODPUT_REQUESTS, rate_req_per_s: rate, seed };
    let good = |x: Outcome| x.attainment() >= w.attainment_target;
    note(&format!(
        "goodput: highest Poisson rate with >= {}% of {GOODPUT_REQUESTS} requests meeting both targets, seed {seed}",
        w.attainment_target * 100.0
    ));
    let ours_g = goodput::search(SEARCH_RATE_MAX, |r| good(ours::outcome(w, &s, &run_at(r, seed))));
    let peer_g = goodput::search(SEARCH_RATE_MAX, |r| good(peer::outcome(w, &run_at(r, seed))));
    let same_g = goodput::search(SEARCH_RATE_MAX, |r| {
        good(ours::outcome_on(w, &s, &peer::arrivals(w, &run_at(r, seed))))
    });
    info("ours_goodput_req_per_s", ours_g, "req/s");
    info("peer_goodput_req_per_s", peer_g, "req/s");
    info("ours_on_peer_arrivals_goodput_req_per_s", same_g, "req/s");
    let spread: Vec<f64> = (1..=SPREAD_SEEDS)
        .map(|seed| goodput::search(SEARCH_RATE_MAX, |r| good(ours::outcome(w, &s, &run_at(r, seed)))))
        .collect();
    let min = spread.iter().copied().fold(f64::INFINITY, f64::min);
    let max = spread.iter().copied().fold(0.0, f64::max);
    info(&format!("ours_goodput_min_over_{SPREAD_SEEDS}_seeds_req_per_s"), min, "req/s");
    info(&format!("ours_goodput_max_over_{SPREAD_SEEDS}_seeds_req_per_s"), max, "req/s");
}

/// Both cost models on the same three steps (see [`steps::SHAPES`]).
fn step_costs(w: &Workload) {
    let s = ours::scenario(w);
    for shape in &steps::SHAPES {
        info(&format!("ours_step_{}_ms", shape.name), steps::ours_s(&s, shape) * 1e3, "ms");
        info(&format!("peer_step_{}_ms", shape.name), steps::peer_s(w, shape) * 1e3, "ms");
    }
}
