//! The peer, `inference-lab` =1.0.0 (Doubleword's vLLM-style simulator), configured for the same
//! workload and driven through its fastest path: a deadline run whose progress interval is as long
//! as the run, so it builds one metrics summary at the end instead of one per simulated second.
//!
//! Its catalog presets match the hardware and model: `h100` (H100 SXM: 989.5 TFLOP/s BF16,
//! 3.35 TB/s, 80 GB) and `llama-3.1-8b-instruct` (32 layers, 32 q / 8 KV heads of 128, 8.03e9
//! params, BF16 weights and KV). The roofline is pure (no `time_correction`), TP 1, one replica, FCFS
//! with chunked prefill, vLLM's default 0.9 memory utilisation and 16-token KV blocks.

use std::ops::ControlFlow;

use inference_lab::config::Config;
use inference_lab::request::RequestGenerator;
use inference_lab::simulation::Simulator;
use serde_json::json;

use crate::workload::{Outcome, Run, Workload};

/// Longer than any run here, in simulated s: arrivals are never cut off, and the one progress
/// callback comes when the last request has finished.
const HORIZON_S: f64 = 1e9;

/// The peer's config for one run, in its JSON form (the shape its wasm API and TOML files use).
pub fn config(w: &Workload, r: &Run) -> Config {
    let value = json!({
        "hardware": "h100",
        "model": "llama-3.1-8b-instruct",
        "scheduler": {
            "max_num_batched_tokens": w.step_budget_tokens,
            "max_num_seqs": w.max_seqs,
            "policy": "fcfs",
            "enable_chunked_prefill": true,
            "block_size": 16,
        },
        "workload": {
            "arrival_pattern": "poisson",
            "arrival_rate": r.rate_req_per_s,
            "num_requests": r.requests,
            "seed": r.seed,
            "input_len_dist": { "type": "fixed", "value": w.prompt_tokens },
            "output_len_dist": { "type": "fixed", "value": w.output_tokens },
            "duration_secs": HORIZON_S,
        },
    });
    let mut config: Config = serde_json::from_value(value).expect("inference-lab rejected the config");
    config.finalize();
    config
}

/// One run to completion with a single summary at the end; returns the finished simulator.
pub fn simulate(w: &Workload, r: &Run) -> Simulator {
    let mut sim = Simulator::new(config(w, r), None).expect("inference-lab could not build the run");
    sim.run_until_deadline_with_control_interval(HORIZON_S, |_| ControlFlow::Continue(()))
        .expect("inference-lab run failed");
    sim
}

/// One run judged per request against the targets (the same counting as ours): TTFT and the
/// request's mean TPOT from the peer's per-request rows; refused requests count as misses.
pub fn outcome(w: &Workload, r: &Run) -> Outcome {
    let sim = simulate(w, r);
    let rows = sim.request_rows();
    let pairs: Vec<(f64, f64)> = rows.iter().map(|row| (row.ttft, row.mean_tpot)).collect();
    let first_arrival_s = rows.iter().map(|row| row.arrival).fold(f64::INFINITY, f64::min);
    let duration_s = sim.current_time() - first_arrival_s.min(sim.current_time());
    Outcome::from_latencies(w, r.requests, &pairs, duration_s)
}

/// The arrival times (s, ascending) the peer's own generator draws for the run: the requests its
/// simulation replays, for running ours on exactly the same load.
pub fn arrivals(w: &Workload, r: &Run) -> Vec<f64> {
    let mut generator = RequestGenerator::new(config(w, r).workload);
    std::iter::from_fn(|| generator.next_if_before(f64::INFINITY)).map(|req| req.arrival_time).collect()
}
