//! A recorded trace through the simulator's sweep: its arrivals scaled to each swept rate, its own
//! lengths, one seed, every request at every level, and one replay at the rate it was recorded at.

use std::sync::Arc;

use crate::common::worked_example;
use goodput_lab::core::plan::compute;
use goodput_lab::core::plan::SimPlan;
use goodput_lab::core::sim::{
    run, simulate, summarize_after, sweep, trace_requests, warmup_requests, Load, LoadMode, ReplicaConfig,
    Request, SimConfig, StepCost,
};
use goodput_lab::core::traffic::{RequestTrace, TraceRequest};
use goodput_lab::state::sim::SimInputs;

/// A trace of `n` requests at the given arrivals (s) and lengths, no sessions or blocks.
fn trace_of(rows: &[(f64, u32, u32)]) -> RequestTrace {
    RequestTrace::unhashed(rows.iter().map(|&(t, p, o)| TraceRequest::unhashed(t, p, o)).collect())
}

/// A bursty trace: pairs of requests 10 ms apart every 0.4 s, alternating short and long prompts.
fn bursty_trace(pairs: usize) -> RequestTrace {
    let rows: Vec<(f64, u32, u32)> = (0..2 * pairs)
        .map(|i| {
            let t_s = (i / 2) as f64 * 0.4 + (i % 2) as f64 * 0.01;
            (t_s, if i % 3 == 0 { 3000 } else { 600 }, 100 + (i % 5) as u32 * 50)
        })
        .collect();
    trace_of(&rows)
}

fn config_with(trace: RequestTrace) -> SimConfig {
    SimConfig { trace: Some(Arc::new(trace)), ..SimInputs::default().config(&worked_example()) }
}

#[test]
fn a_trace_arrives_at_a_mean_rate_of_one_with_its_recorded_lengths() {
    let trace = trace_of(&[(0.0, 100, 10), (2.0, 200, 20), (3.0, 300, 30), (8.0, 400, 40)]);
    // Three gaps over 8 s: recorded at 3/8 req/s, so the unit workload's arrivals are t x 3/8.
    assert_eq!(trace.recorded_rate_req_per_s(), Some(3.0 / 8.0));
    let unit = trace_requests(&trace, 8.0 / 3.0);
    let arrivals: Vec<f64> = unit.iter().map(|r| r.arrival_s).collect();
    for (got, want) in arrivals.iter().zip([0.0, 0.75, 1.125, 3.0]) {
        assert!((got - want).abs() < 1e-12, "{arrivals:?}");
    }
    let lengths: Vec<(u32, u32)> = unit.iter().map(|r| (r.prompt_tokens, r.output_tokens)).collect();
    assert_eq!(lengths, vec![(100, 10), (200, 20), (300, 30), (400, 40)]);
}

#[test]
fn a_trace_of_simultaneous_requests_has_no_recorded_rate() {
    assert_eq!(trace_of(&[(0.0, 10, 10), (0.0, 10, 10)]).recorded_rate_req_per_s(), None);
    assert_eq!(trace_of(&[(0.0, 10, 10)]).recorded_rate_req_per_s(), None);
}

#[test]
fn a_sweep_over_a_trace_runs_its_every_request_at_each_level_with_one_seed() {
    let c = SimConfig { seeds: 5, requests: 7, rate_points: 4, ..config_with(bursty_trace(150)) };
    let s = sweep(&c);
    assert_eq!(s.seeds, 1, "a trace draws nothing: one seed");
    assert_eq!(s.points.len(), 4);
    assert_eq!(s.requests_simulated % 300, 0, "the whole trace at every level, not `requests`");
    assert!(s.requests_simulated >= 300 * 4, "{}", s.requests_simulated);
}

#[test]
fn the_trace_replayed_as_recorded_is_the_engine_run_on_its_own_arrival_times() {
    let trace = bursty_trace(200);
    let rate = trace.recorded_rate_req_per_s().expect("a rate");
    let c = config_with(trace.clone());
    let plan = SimPlan { config: c.clone(), placement: None, fleet: None };
    let recorded = compute(&plan, |_, _| {}).recorded.expect("open load with a trace replays it");
    assert_eq!(recorded, simulate(&c, rate));
    // Independently: the engine on the recorded arrival times, summarized the same way.
    let reqs: Vec<Request> = trace
        .requests
        .iter()
        .map(|t| Request {
            arrival_s: t.arrival_s,
            prompt_tokens: t.prompt_tokens,
            output_tokens: t.output_tokens,
            cached_tokens: 0,
        })
        .collect();
    let server = ReplicaConfig {
        chunk_tokens: c.chunk_tokens,
        max_concurrency: c.max_concurrency,
        kv_pool_tokens: goodput_lab::core::sim::kv_pool_tokens(&c.scenario),
        prefill_free: false,
        tpot_target_s: c.scenario.tpot_target_s,
    };
    let run_trace = run(&reqs, server, StepCost::new(&c.scenario).seeded(c.seed), Load::Open);
    let targets = (c.scenario.ttft_target_s, c.scenario.tpot_target_s);
    let warmup = warmup_requests(c.max_concurrency, reqs.len());
    let direct = summarize_after(&reqs, &run_trace, targets, rate, warmup);
    let p90 = |p: &goodput_lab::core::sim::RatePoint| p.ttft.p90_s.expect("served");
    assert!((p90(&recorded) / p90(&direct) - 1.0).abs() < 1e-6, "{:?} vs {:?}", recorded.ttft, direct.ttft);
    assert!((recorded.requests.both - direct.requests.both).abs() < 1e-9);
}

#[test]
fn closed_load_and_traceless_plans_replay_nothing_as_recorded() {
    let c = config_with(bursty_trace(40));
    let closed = SimPlan {
        config: SimConfig { load: LoadMode::Closed, rate_points: 3, ..c.clone() },
        placement: None,
        fleet: None,
    };
    assert_eq!(compute(&closed, |_, _| {}).recorded, None);
    let none = SimPlan {
        config: SimConfig { trace: None, rate_points: 3, requests: 50, ..c },
        placement: None,
        fleet: None,
    };
    assert_eq!(compute(&none, |_, _| {}).recorded, None);
}
