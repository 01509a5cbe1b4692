//! One mixed step's time for the simulator, from the same roofline as the analytic view: the
//! coefficients of [`crate::core::roofline::step_time`] gathered once per scenario.

use crate::core::model::{params_read, prefill_attention_flop};
use crate::core::roofline::{
    allreduce_s, effective_bandwidth_bytes_per_s, kv_bytes_per_seq, kv_shards, peak_flop_per_s, step_sum_s,
    Scenario,
};

/// A scenario's step-time coefficients, in base units.
#[derive(Clone, Copy, Debug)]
pub struct StepCost {
    scenario: Scenario,
    /// Bytes per weight element / TP, in B per parameter per GPU.
    weight_bytes_per_param: f64,
    /// KV bytes a held token costs each GPU: kv_per_seq(context) / context / shards, in B.
    kv_bytes_per_token: f64,
    /// HBM bandwidth x MBU, in B/s.
    bandwidth_bytes_per_s: f64,
    /// 2 x active params, in FLOP per token.
    flop_per_token: f64,
    /// The replica's peak, in FLOP/s.
    peak_flop_per_s: f64,
    /// All-reduce time per token in the step, in s.
    allreduce_s_per_token: f64,
    pub overhead_s: f64,
}

/// What one step does: decode tokens, prefill tokens (with their attention) and the KV it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepWork {
    /// Sequences decoding one token each.
    pub decode_tokens: u32,
    /// Prompt tokens prefilled in this step.
    pub prefill_tokens: u32,
    /// Causal attention FLOPs of those prefill chunks, in FLOP.
    pub prefill_attention_flop: f64,
    /// Tokens of KV the step reads (all running sequences' cache), in tokens.
    pub kv_tokens: f64,
}

impl StepCost {
    pub fn new(scenario: &Scenario) -> StepCost {
        let tp = f64::from(scenario.tp.max(1));
        let context = f64::from(scenario.context_tokens.max(1));
        StepCost {
            scenario: *scenario,
            weight_bytes_per_param: scenario.weight_precision.bytes_per_element() / tp,
            kv_bytes_per_token: kv_bytes_per_seq(scenario) / context / kv_shards(scenario),
            bandwidth_bytes_per_s: effective_bandwidth_bytes_per_s(scenario),
            flop_per_token: 2.0 * scenario.model.active_params,
            peak_flop_per_s: peak_flop_per_s(scenario),
            allreduce_s_per_token: allreduce_s(scenario, 1.0),
            overhead_s: scenario.calibration.overhead_s,
        }
    }

    /// step = max((params_read(T) x bytes / TP + kv_tokens x kv_per_token) / (bw x MBU),
    /// (2 x active x T + prefill attention) / peak) + all-reduce(T) + overhead, in s, where T is
    /// the step's tokens. With T = B decodes and B x context KV tokens this is step(B) exactly.
    pub fn step_s(&self, work: &StepWork) -> f64 {
        let tokens = f64::from(work.decode_tokens) + f64::from(work.prefill_tokens);
        let weights = params_read(&self.scenario.model, tokens) * self.weight_bytes_per_param;
        let memory_s = (weights + work.kv_tokens * self.kv_bytes_per_token) / self.bandwidth_bytes_per_s;
        let flop = self.flop_per_token * tokens + work.prefill_attention_flop;
        let compute_s = flop / self.peak_flop_per_s;
        step_sum_s(memory_s, compute_s, self.allreduce_s_per_token * tokens, self.overhead_s)
    }

    /// Causal attention FLOPs for prefilling prompt tokens `done..done + chunk`, in FLOP.
    pub fn chunk_attention_flop(&self, done: u32, chunk: u32) -> f64 {
        let m = &self.scenario.model;
        prefill_attention_flop(m, done.saturating_add(chunk)) - prefill_attention_flop(m, done)
    }
}
