//! The engine's calendar of finishing decodes: its ring of buckets is at most 2^16 steps long, so a
//! decode longer than that is filed a lap or more ahead of its bucket. Every request must still
//! leave on the step of its last token, timed as stepping the per-operator step one step at a time.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::sim::{run, Load, ReplicaConfig, Request, StepCost, StepWork};

const PROMPT_TOKENS: u32 = 100;

/// Requests arriving together, prompts free (first token on arrival): decode step j runs every
/// request with more than j + 1 tokens to write, each reading its prompt plus j tokens.
fn expected_latencies_s(cost: &StepCost, outputs: &[u32]) -> Vec<f64> {
    let steps_max = outputs.iter().map(|&n| n - 1).max().unwrap_or(0);
    let mut clock_s = 0.0;
    let mut finish_s = vec![0.0; outputs.len()];
    for j in 0..steps_max {
        let running = outputs.iter().filter(|&&n| n - 1 > j).count() as u32;
        let kv_tokens = f64::from(running) * f64::from(PROMPT_TOKENS + j);
        clock_s += cost.step_s(&StepWork { decode_tokens: running, kv_tokens, ..StepWork::default() });
        for (i, &n) in outputs.iter().enumerate() {
            if n - 1 == j + 1 {
                finish_s[i] = clock_s;
            }
        }
    }
    finish_s
}

#[test]
fn decodes_longer_than_the_calendar_ring_leave_on_their_last_step() {
    let cost = StepCost::new(&worked_example());
    // 2^16 = 65,536 steps of ring: outputs below, at and well past one lap, and short ones.
    let outputs = [100_000, 3, 70_000, 65_537, 65_538, 200, 131_075];
    let reqs: Vec<Request> = outputs
        .iter()
        .map(|&output_tokens| Request {
            arrival_s: 0.0,
            prompt_tokens: PROMPT_TOKENS,
            output_tokens,
            cached_tokens: 0,
        })
        .collect();
    let server = ReplicaConfig {
        chunk_tokens: 2048,
        max_concurrency: 16,
        kv_pool_tokens: 1e9,
        prefill_free: true,
        tpot_target_s: 1.0,
    };
    let t = run(&reqs, server, cost, Load::Open);
    assert_eq!(t.steps, 131_074, "the longest request's decode steps");
    for (i, want_s) in expected_latencies_s(&cost, &outputs).into_iter().enumerate() {
        assert_close(t.latency_s[i], want_s, 1e-9, &format!("latency of the {}-token output", outputs[i]));
    }
}
