//! Goodput Lab's simulator (`goodput_lab::core::sim`) driven on the workload exactly as a
//! sweep drives one load level: draw the requests, run the engine, summarise the trace.

use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    kv_pool_tokens, requests, run, summarize, Arrivals, LengthDist, Lengths, Load, Request, ReplicaConfig, StepCost,
    Trace,
};

use crate::workload::{Outcome, Run, Workload};

/// The page's state for the model and GPU, spelled out so a change of defaults cannot
/// move the benchmark: Llama 3.1 8B, H100 SXM, BF16 weights and KV, TP 1, ideal roofline.
const QUERY: &str = "model=llama-3.1-8b&gpu=h100-sxm&w=bf16&kv=bf16&tp=1&util=90&out=256&tpot=10&ttft=2000";

/// The validated scenario for [`QUERY`] with the workload's targets; panics on a notice, since a
/// benchmark of a different scenario would be meaningless.
pub fn scenario(w: &Workload) -> Scenario {
    let (inputs, notices) = goodput_lab::state::from_query(QUERY);
    assert!(notices.is_empty(), "benchmark query rejected: {:?}", notices.first().map(|n| &n.message));
    Scenario { tpot_target_s: w.tpot_target_s, ttft_target_s: w.ttft_target_s, ..inputs.scenario }
}

/// The engine's knobs for the workload: step budget, sequence cap and the scenario's KV pool.
fn server(w: &Workload, s: &Scenario) -> ReplicaConfig {
    ReplicaConfig {
        chunk_tokens: w.step_budget_tokens,
        max_concurrency: w.max_seqs,
        kv_pool_tokens: kv_pool_tokens(s),
        prefill_free: false,
        tpot_target_s: w.tpot_target_s,
    }
}

/// The run's requests: Poisson arrivals at the rate, fixed prompt and output lengths.
fn workload_requests(w: &Workload, r: &Run) -> Vec<Request> {
    let lengths = Lengths { dist: LengthDist::Fixed, length_cv: 0.0 };
    let means = (f64::from(w.prompt_tokens), f64::from(w.output_tokens));
    requests(Arrivals::Poisson, lengths, means, r.requests, r.rate_req_per_s, r.seed)
}

/// One run as a sweep level does it (requests, engine, summary); returns the trace and the
/// summary's attainment so the work cannot be optimised away.
pub fn simulate(w: &Workload, s: &Scenario, r: &Run) -> (Vec<Request>, Trace, f64) {
    let reqs = workload_requests(w, r);
    let trace = run(&reqs, server(w, s), StepCost::new(s), Load::Open);
    let point = summarize(&reqs, &trace, (w.ttft_target_s, w.tpot_target_s), r.rate_req_per_s);
    (reqs, trace, point.requests.both)
}

/// One run on our own arrivals, judged per request against the targets (the peer's counting).
pub fn outcome(w: &Workload, s: &Scenario, r: &Run) -> Outcome {
    judged(w, s, &workload_requests(w, r))
}

/// The same, on given arrival times (in s, ascending): the peer's, to compare like with like.
pub fn outcome_on(w: &Workload, s: &Scenario, arrivals_s: &[f64]) -> Outcome {
    let t0_s = arrivals_s.first().copied().unwrap_or(0.0);
    let reqs: Vec<Request> = arrivals_s
        .iter()
        .map(|a| Request {
            arrival_s: a - t0_s,
            prompt_tokens: w.prompt_tokens,
            output_tokens: w.output_tokens,
            cached_tokens: 0,
        })
        .collect();
    judged(w, s, &reqs)
}

/// Runs `reqs` and counts each request's TTFT and mean TPOT against the targets.
fn judged(w: &Workload, s: &Scenario, reqs: &[Request]) -> Outcome {
    let trace = run(reqs, server(w, s), StepCost::new(s), Load::Open);
    let pairs: Vec<(f64, f64)> = trace.ttft_s.iter().copied().zip(trace.tpot_s.iter().copied()).collect();
    Outcome::from_latencies(w, reqs.len() as u32, &pairs, trace.duration_s)
}
