//! The capacity plan: replicas and GPUs for a target request rate when each replica runs at the
//! knee, and what a million output tokens then cost.

use serde::{Deserialize, Serialize};

use super::roofline::{evaluate, Analysis, Scenario};

/// Seconds in an hour, for $/GPU-hour.
pub const S_PER_HOUR: f64 = 3600.0;

/// A plan for serving `rate_req_per_s` inside both targets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityPlan {
    /// Goodput of one replica at the server batch, in requests/s.
    pub replica_goodput_req_per_s: f64,
    /// ceil(rate / replica goodput).
    pub replicas: u32,
    /// replicas x TP.
    pub gpus: u32,
    /// gpus x price, in $ per hour.
    pub cost_per_hour: f64,
    /// cost_per_hour / (rate x output tokens x 3600) x 1e6, in $ per million output tokens.
    pub cost_per_million_tokens: f64,
}

/// The plan for a target rate and a $/GPU-hour price; `None` when no batch meets the targets or
/// the rate is not positive.
pub fn capacity_plan(
    scenario: &Scenario,
    analysis: &Analysis,
    rate_req_per_s: f64,
    price_per_gpu_hour: f64,
) -> Option<CapacityPlan> {
    if analysis.server_batch == 0 || !(rate_req_per_s.is_finite() && rate_req_per_s > 0.0) {
        return None;
    }
    let replica_goodput_req_per_s = evaluate(scenario, analysis.server_batch).goodput_req_per_s;
    let replicas = (rate_req_per_s / replica_goodput_req_per_s).ceil();
    if !(replicas.is_finite() && replicas >= 1.0 && replicas <= f64::from(u32::MAX / 8)) {
        return None;
    }
    let replicas = replicas as u32;
    let gpus = replicas * scenario.tp.max(1);
    let cost_per_hour = f64::from(gpus) * price_per_gpu_hour;
    let cost_per_million_tokens =
        usd_per_million_tokens(cost_per_hour, rate_req_per_s, scenario.output_tokens);
    Some(CapacityPlan { replica_goodput_req_per_s, replicas, gpus, cost_per_hour, cost_per_million_tokens })
}

/// $ per million output tokens of GPUs costing `usd_per_hour` together while they serve
/// `rate_req_per_s` requests of `output_tokens` each: usd_per_hour / (rate x output x 3600) x 1e6.
pub fn usd_per_million_tokens(usd_per_hour: f64, rate_req_per_s: f64, output_tokens: u32) -> f64 {
    usd_per_hour / (rate_req_per_s * f64::from(output_tokens) * S_PER_HOUR) * 1e6
}
