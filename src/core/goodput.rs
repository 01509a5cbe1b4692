//! One batch size evaluated against both targets ([`evaluate`]): its decode step, its steady-state
//! TTFT (the step in flight, then the prompt's prefill), tokens/s, requests/s and goodput, the row
//! the batch table, the charts and the knee read.

use serde::{Deserialize, Serialize};

use super::prefill::{step_in_flight_s, ttft_split};
use super::roofline::{step_time, StepTime};
use super::scenario::Scenario;

/// Everything the page shows about one batch size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchPoint {
    pub batch: u32,
    pub step: StepTime,
    /// Steady-state TTFT the target is checked against: the decode step in flight, then the
    /// prompt's prefill (a prefix-cache miss while any request misses), in s.
    pub ttft_s: f64,
    /// The mean TTFT over prefix-cache hits and misses, h x hit + (1 - h) x miss (ttft_s without a
    /// prefix cache), in s.
    pub ttft_mean_s: f64,
    /// B / step_s, in tokens/s (the whole replica).
    pub tokens_per_s: f64,
    /// tokens_per_s / TP, in tokens/s per GPU.
    pub tokens_per_s_per_gpu: f64,
    /// 1 / step_s: the speed one user sees, in tokens/s.
    pub tokens_per_s_per_user: f64,
    /// B / (output_tokens x step_s), in requests/s (Little's law).
    pub throughput_req_per_s: f64,
    /// step_s <= tpot_target_s.
    pub meets_tpot: bool,
    /// ttft_s <= ttft_target_s.
    pub meets_ttft: bool,
    /// Throughput when the batch meets both targets, else 0, in requests/s.
    pub goodput_req_per_s: f64,
    /// goodput / TP: the DistServe per-GPU goodput, in requests/s per GPU.
    pub goodput_per_gpu_req_per_s: f64,
}

/// One batch size evaluated: tokens/s = B / step, requests/s = B / (output x step), goodput.
pub fn evaluate(scenario: &Scenario, batch: u32) -> BatchPoint {
    let step = step_time(scenario, batch);
    let b = f64::from(batch);
    let tp = f64::from(scenario.parallel.gpus());
    let tokens_per_s = ratio_or_zero(b, step.step_s);
    let throughput_req_per_s = ratio_or_zero(b, f64::from(scenario.output_tokens) * step.step_s);
    let ttft = ttft_split(scenario, step_in_flight_s(&step));
    let ttft_s = ttft.target_s;
    let meets_tpot = step.step_s <= scenario.tpot_target_s;
    let meets_ttft = ttft_s <= scenario.ttft_target_s;
    let goodput_req_per_s = if meets_tpot && meets_ttft { throughput_req_per_s } else { 0.0 };
    BatchPoint {
        batch,
        step,
        ttft_s,
        ttft_mean_s: ttft.mean_s,
        tokens_per_s,
        tokens_per_s_per_gpu: tokens_per_s / tp,
        tokens_per_s_per_user: ratio_or_zero(1.0, step.step_s),
        throughput_req_per_s,
        meets_tpot,
        meets_ttft,
        goodput_req_per_s,
        goodput_per_gpu_req_per_s: goodput_req_per_s / tp,
    }
}

/// a / b, or 0 where that is not a finite number (a zero-length step or output).
fn ratio_or_zero(a: f64, b: f64) -> f64 {
    let r = a / b;
    if r.is_finite() {
        r
    } else {
        0.0
    }
}
