//! Steady-state attainment: overload is detected against an independent capacity, an overloaded
//! level never counts toward goodput, the warm-up leaves out exactly the requests it says, and
//! seeds combine into a median with its range (the default seed count measured on the seed scenario).

use crate::common::worked_example;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    median, simulate, summarize_after, sweep, warmup_requests, GoodputBound, LengthDist, LoadMode, Request,
    SimConfig, Trace,
};
use goodput_lab::state::sim::{SimInputs, DEFAULT_SEEDS};

/// The seed scenario: the worked example's simulator at p90 with `lengths`, one seed per sweep.
fn seed_scenario(lengths: LengthDist) -> SimConfig {
    let sim = SimInputs { lengths, ..SimInputs::default() };
    SimConfig { seeds: 1, ..sim.config(&worked_example()) }
}

/// The served rate of a long, heavily overloaded run: what the server can sustain, in req/s.
fn capacity_req_per_s(c: &SimConfig) -> f64 {
    let long = SimConfig { requests: 8000, ..c.clone() };
    simulate(&long, 3.0 * c.rate_max_req_per_s).throughput_req_per_s
}

#[test]
fn a_rate_well_above_the_long_runs_served_rate_is_overloaded_and_one_well_below_is_not() {
    for lengths in [LengthDist::Fixed, LengthDist::LogNormal] {
        let c = seed_scenario(lengths);
        let capacity = capacity_req_per_s(&c);
        assert!(capacity > 10.0 && capacity < 30.0, "{lengths:?}: capacity {capacity} req/s");
        for seed in 1..=3 {
            let cs = SimConfig { seed, ..c.clone() };
            let over = simulate(&cs, 1.25 * capacity);
            assert!(over.overloaded, "{lengths:?} seed {seed}: 1.25 x {capacity} req/s is overloaded");
            let under = simulate(&cs, 0.75 * capacity);
            assert!(!under.overloaded, "{lengths:?} seed {seed}: 0.75 x {capacity} req/s is steady");
        }
    }
}

#[test]
fn closed_load_is_never_overloaded() {
    let c = SimConfig { load: LoadMode::Closed, ..seed_scenario(LengthDist::Fixed) };
    for clients in [8.0, 64.0] {
        assert!(!simulate(&c, clients).overloaded, "{clients} clients");
    }
}

/// A loose TPOT and a 60 s TTFT target: past capacity the queue grows, but a finite run still
/// meets the targets, so only the overload test stops those rates from counting.
fn queue_hides_in_a_finite_run() -> SimConfig {
    let scenario = Scenario { tpot_target_s: 0.05, ttft_target_s: 60.0, ..worked_example() };
    let sim = SimInputs { lengths: LengthDist::Fixed, ..SimInputs::default() };
    let c = sim.config(&scenario);
    SimConfig { seeds: 1, max_concurrency: 64, rate_max_req_per_s: 40.0, ..c }
}

#[test]
fn goodput_never_lands_on_an_overloaded_level_even_when_its_finite_run_meets_the_target() {
    let c = queue_hides_in_a_finite_run();
    let sw = sweep(&c);
    let first_over = sw.points.iter().position(|p| p.overloaded).expect("some level overloads");
    let hidden = sw.points[first_over..].iter().filter(|p| p.requests.both >= c.attainment_target).count();
    assert!(hidden > 0, "an overloaded level's finite run meets the target: the case under test");
    let at = sw.at_goodput.expect("a steady level meets the target");
    assert!(!at.overloaded, "the run at goodput is steady");
    assert!(sw.goodput_req_per_s < sw.points[first_over].rate_req_per_s, "goodput below the first overload");
    assert_eq!(sw.bound, GoodputBound::Exact);
    // Independently, long runs (8,000 requests): the first overloaded rate serves visibly less than
    // it is offered, while the goodput rate is served within the served-rate test's resolution (8%).
    let long = SimConfig { requests: 8000, ..c };
    let over = simulate(&long, sw.points[first_over].rate_req_per_s);
    assert!(over.throughput_req_per_s < 0.97 * over.rate_req_per_s, "{over:?}");
    let kept = simulate(&long, sw.goodput_req_per_s);
    assert!(kept.throughput_req_per_s > 0.92 * kept.rate_req_per_s, "{kept:?}");
}

#[test]
fn the_warm_up_is_the_cap_at_most_a_tenth_of_the_run() {
    assert_eq!(warmup_requests(64, 2000), 64);
    assert_eq!(warmup_requests(64, 300), 30);
    assert_eq!(warmup_requests(1, 2000), 1);
    let p = simulate(&seed_scenario(LengthDist::Fixed), 5.0);
    assert_eq!(p.warmup_requests, 64);
}

#[test]
fn warm_up_exclusion_changes_attainment_as_counted_by_hand() {
    // Five requests; the first two (the warm-up) meet both targets on an empty server, the third
    // misses TTFT, the fifth misses TPOT. Targets: TTFT 2 s, TPOT 10 ms.
    let reqs: Vec<Request> = (0..5)
        .map(|i| Request { arrival_s: f64::from(i), prompt_tokens: 10, output_tokens: 11, cached_tokens: 0 })
        .collect();
    let trace = Trace {
        arrival_s: reqs.iter().map(|r| r.arrival_s).collect(),
        ttft_s: vec![0.1, 0.1, 3.0, 0.5, 0.2],
        tpot_s: vec![0.005, 0.005, 0.005, 0.005, 0.02],
        latency_s: vec![0.2, 0.2, 3.1, 0.6, 0.4],
        duration_s: 5.0,
        ..Trace::default()
    };
    let whole = summarize_after(&reqs, &trace, (2.0, 0.01), 1.0, 0);
    assert_eq!(whole.requests.both, 3.0 / 5.0, "3 of 5 meet both");
    let steady = summarize_after(&reqs, &trace, (2.0, 0.01), 1.0, 2);
    assert_eq!(steady.requests.both, 1.0 / 3.0, "of requests 3-5 only the fourth meets both");
    assert_eq!(steady.requests.ttft, 2.0 / 3.0);
    assert_eq!(steady.requests.tpot, 2.0 / 3.0);
    assert_eq!(steady.ttft.p50_s, Some(0.5), "the median of 3.0, 0.5, 0.2");
    assert_eq!(steady.warmup_requests, 2);
    assert_eq!(steady.throughput_req_per_s, whole.throughput_req_per_s, "throughput counts every request");
}

#[test]
fn seeds_give_the_median_goodput_with_its_range_and_a_band_around_each_level() {
    let c = SimConfig { requests: 600, ..seed_scenario(LengthDist::LogNormal) };
    let three = sweep(&SimConfig { seeds: 3, ..c.clone() });
    let alone: Vec<f64> =
        (1..=3).map(|seed| sweep(&SimConfig { seed, ..c.clone() }).goodput_req_per_s).collect();
    assert_eq!(three.seeds, 3);
    assert_eq!(three.seed_goodputs_req_per_s, alone);
    assert_eq!(three.goodput_req_per_s, median(&alone));
    let lo = alone.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = alone.iter().copied().fold(0.0, f64::max);
    assert_eq!(three.goodput_range_req_per_s, (lo, hi));
    assert_eq!(three.bands.len(), three.points.len());
    for (p, b) in three.points.iter().zip(&three.bands) {
        let (min, max) = b.requests;
        assert!(min.both <= p.requests.both && p.requests.both <= max.both, "median inside the band");
    }
    assert_eq!(
        sweep(&SimConfig { seeds: 1, ..c.clone() }).points,
        sweep(&c).points,
        "one seed is the plain sweep"
    );
}

/// Measured on the seed scenario: per-seed goodputs at 2,000 requests spread about ±10% (fixed
/// lengths 11.2-13.4 req/s over 30 seeds), which no seed count narrows; the median of
/// [`DEFAULT_SEEDS`] seeds is what stays put. Four disjoint sets of seeds: each set's median lies
/// within 2% of the median of the four.
#[test]
fn the_default_seed_count_keeps_the_seed_scenarios_median_goodput_within_two_percent() {
    let n = DEFAULT_SEEDS as u64;
    for lengths in [LengthDist::Fixed, LengthDist::LogNormal] {
        let c = seed_scenario(lengths);
        let medians: Vec<f64> = (0..4)
            .map(|set| {
                sweep(&SimConfig { seed: 1 + set * n, seeds: DEFAULT_SEEDS, ..c.clone() }).goodput_req_per_s
            })
            .collect();
        let centre = median(&medians);
        for m in &medians {
            assert!((m / centre - 1.0).abs() <= 0.02, "{lengths:?}: set medians {medians:?}");
        }
    }
}
