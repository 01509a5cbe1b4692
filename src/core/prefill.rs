//! Prefill: how long a prompt takes to process before its first token, from the same roofline.

use serde::{Deserialize, Serialize};

use super::model::{params_read, prefill_attention_flop};
use super::roofline::{
    allreduce_s, effective_bandwidth_bytes_per_s, peak_flop_per_s, step_sum_s, Bound, Scenario,
};

/// The time to prefill one prompt on the replica, and its terms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prefill {
    /// Tokens prefilled (the scenario's context).
    pub prompt_tokens: u32,
    /// 2 x active params x prompt + causal attention FLOPs, in FLOP.
    pub flop: f64,
    /// flop / (TP x peak), in s.
    pub compute_s: f64,
    /// Weights the prompt's tokens touch, per GPU, / (bandwidth x MBU), in s.
    pub memory_s: f64,
    /// The all-reduces for the prompt's tokens, in s.
    pub allreduce_s: f64,
    /// max(compute_s, memory_s) + allreduce_s + overhead, in s.
    pub prefill_s: f64,
    pub bound: Bound,
}

/// prefill(P) = max((2 x active x P + attention FLOPs) / (TP x peak),
/// weights_read(P) / TP / (bandwidth x MBU)) + all-reduce(P) + overhead, in s.
pub fn prefill_time(scenario: &Scenario) -> Prefill {
    let p = f64::from(scenario.context_tokens);
    let flop = 2.0 * scenario.model.active_params * p
        + prefill_attention_flop(&scenario.model, scenario.context_tokens);
    let compute_s = flop / peak_flop_per_s(scenario);
    let weight_bytes = params_read(&scenario.model, p) * scenario.weight_precision.bytes_per_element();
    let memory_s = weight_bytes / f64::from(scenario.tp.max(1)) / effective_bandwidth_bytes_per_s(scenario);
    let allreduce_s = allreduce_s(scenario, p);
    let bound = if compute_s > memory_s { Bound::Compute } else { Bound::Memory };
    let prefill_s = step_sum_s(memory_s, compute_s, allreduce_s, scenario.calibration.overhead_s);
    Prefill {
        prompt_tokens: scenario.context_tokens,
        flop,
        compute_s,
        memory_s,
        allreduce_s,
        prefill_s,
        bound,
    }
}
