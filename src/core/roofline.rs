//! The worked example's arithmetic, generalised: bytes a decode step reads per GPU, step time, the knee, the
//! KV pool and the headline analysis, for dense and MoE models, tensor parallelism and a realistic
//! calibration. Prefill and TTFT ([`crate::prefill`]) and one batch's goodput
//! ([`crate::goodput`]) are priced with the step here.
//!
//! A decode step reads the weights once plus every running sequence's KV cache, and every sequence
//! in the batch waits for that same step, so TPOT is a property of the batch. Every step (decode,
//! prefill, the simulator's mixed steps) is priced per operator group in [`step`]. All functions here are
//! total: they return numbers or a [`Limit`] that says why no batch can run, never a panic.

mod analysis;
mod knee;
mod pool;
mod speculative;
mod step;
use serde::{Deserialize, Serialize};

use super::calibration::terms::cost_terms;
pub use super::calibration::{CostModel, CustomCalibration};
use super::model::{kv_elements_per_seq, kv_elements_per_token};
use super::parallel::link_bytes_per_s;
pub use super::precision::Precision;
use super::presets::Attention;
use super::scenario::Scenario;
pub use analysis::{analyze, Analysis, Limit};
pub use knee::{knee_batch, knee_exact};
pub use pool::{
    draft_kv_bytes_per_seq_held, gpus_needed, kv_bytes_per_held_token, kv_bytes_per_seq_held, kv_pool_batch,
    kv_pool_held_tokens, kv_pool_sequences, prefix_shared_kv_bytes, usable_hbm_bytes, weight_bytes_per_gpu,
};
pub use speculative::{
    crossover_batch, draft_memory, draft_s, draft_scenario, expected_tokens_per_step, spec_step,
    spec_summary, verify_terms, DraftMemory, SpecStep, SpecSummary,
};
pub use step::{step_terms, Group, GroupCost, StepMix, StepRoofline, StepTerms};

/// The largest batch the model ever considers; bounds every search and cast.
pub const MAX_BATCH: u32 = 1 << 20;
/// Tensor-parallel degrees offered.
pub const TP_CHOICES: [u32; 4] = [1, 2, 4, 8];
/// Bytes per activation element exchanged by the all-reduce (BF16).
pub const ACTIVATION_BYTES: f64 = 2.0;

/// Which side of a roofline sets a kernel group's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    Memory,
    Compute,
}

/// The time of one decode step, per GPU of the replica: the per-operator terms and the single
/// roofline's memory and compute terms the step chart draws.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    /// Weight bytes the step reads per GPU: params_read(B) x bytes / TP, in B.
    pub weight_read_bytes: f64,
    /// KV bytes the step reads per GPU: B x kv_per_seq / kv_shards, in B.
    pub kv_read_bytes: f64,
    /// Every group's reads together: (weight_read + kv_read) / (bandwidth x MBU), in s.
    pub memory_s: f64,
    /// The GEMMs' compute: 2 x active params x B / (TP x peak), in s.
    pub compute_s: f64,
    /// Two ring all-reduces per layer: 2 x layers x 2(TP-1)/TP x B x hidden x 2 B / link, in s.
    pub allreduce_s: f64,
    /// The cost model's fixed costs per step (per step, per layer, all-reduce latency), in s.
    pub fixed_s: f64,
    /// max(weights / bw, GEMM compute) + max(KV / bw, attention compute) + allreduce_s +
    /// fixed_s, in s; max(memory_s, compute_s) + allreduce_s + fixed_s when every group is
    /// memory-bound.
    pub step_s: f64,
    /// The bound of the group that takes longest.
    pub bound: Bound,
    /// The per-operator terms (the prefill-attention group is empty in a decode step; with
    /// speculation, the verify step's).
    pub terms: StepTerms,
    /// Speculative decoding's step (None when off). Then `step_s` is its time per output token,
    /// (draft + verify) / E, and `memory_s` and `compute_s` are the verify step's divided by E.
    pub speculative: Option<SpecStep>,
}

/// weight_bytes = params x bytes per weight, in B (all GPUs of the replica together).
pub fn weight_bytes(scenario: &Scenario) -> f64 {
    scenario.model.params * scenario.weight_precision.bytes_per_element()
}

/// kv_bytes_per_token = KV elements per token x bytes per element, in B
/// (GQA: 2 x layers x kv_heads x head_dim; MLA: (latent + RoPE) x layers).
pub fn kv_bytes_per_token(scenario: &Scenario) -> f64 {
    kv_elements_per_token(&scenario.model) * scenario.kv_precision.bytes_per_element()
}

/// kv_bytes_per_seq = KV elements of a `context_tokens` sequence x bytes per element, in B
/// (sliding-window layers capped at their window).
pub fn kv_bytes_per_seq(scenario: &Scenario) -> f64 {
    kv_elements_per_seq(&scenario.model, scenario.context_tokens) * scenario.kv_precision.bytes_per_element()
}

/// GPUs each sequence's KV is split over: TP for GQA up to the KV-head count (past it heads are
/// replicated), 1 for MLA (its single latent is replicated on every GPU).
pub fn kv_shards(scenario: &Scenario) -> f64 {
    match scenario.model.attention {
        Attention::Gqa { kv_heads, .. } => f64::from(scenario.parallel.tp.min(kv_heads).max(1)),
        Attention::Mla { .. } => 1.0,
    }
}

/// The replica's dense tensor peak for the weight precision: TP x per-GPU peak, in FLOP/s.
pub fn peak_flop_per_s(scenario: &Scenario) -> f64 {
    f64::from(scenario.parallel.tp.max(1)) * scenario.weight_precision.compute_peak(&scenario.gpu).0
}

/// Ring all-reduce time for `tokens` tokens: two per layer, each moving 2(TP-1)/TP x tokens x
/// hidden x 2 B over the per-direction link the TP group crosses (the GPU's interconnect within
/// one domain, the NIC past it: [`link_bytes_per_s`]), in s; 0 at TP 1.
pub fn allreduce_s(scenario: &Scenario, tokens: f64) -> f64 {
    let tp_degree = scenario.parallel.tp;
    let tp = f64::from(tp_degree.max(1));
    if tp_degree <= 1 {
        return 0.0;
    }
    let bytes = 2.0 * (tp - 1.0) / tp * tokens * f64::from(scenario.model.hidden_size) * ACTIVATION_BYTES;
    let link = link_bytes_per_s(&scenario.gpu, &scenario.cluster, tp_degree);
    2.0 * f64::from(scenario.model.layers) * bytes / link
}

/// The bandwidth the GEMMs read at: peak HBM bandwidth x their achieved fraction under the cost model
/// (MBU in custom mode, where every group shares it; 1 on the ideal roofline), in B/s.
pub fn effective_bandwidth_bytes_per_s(scenario: &Scenario) -> f64 {
    scenario.gpu.hbm_bandwidth_bytes_per_s * cost_terms(scenario).gemm.memory
}

/// The single roofline's step, the worked example's form: max(memory, compute) + all-reduce +
/// overhead, in s. One kernel group's time plus the rest; the per-operator step
/// ([`StepRoofline::terms`]) equals it when every group is memory-bound.
#[inline]
pub fn step_sum_s(memory_s: f64, compute_s: f64, allreduce_s: f64, fixed_s: f64) -> f64 {
    memory_s.max(compute_s) + allreduce_s + fixed_s
}

/// step(B): B sequences decoding at the scenario's context, priced per operator by
/// [`StepRoofline::terms`] = max(weights_read(B) / TP / bw, 2 x active x B / (TP x peak))
/// + max(B x kv_per_seq / shards / bw, B x attention FLOPs / (TP x peak)) + all-reduce(B) + overhead,
/// in s, with bw = bandwidth x MBU.
pub fn step_time(scenario: &Scenario, batch: u32) -> StepTime {
    step_time_at(scenario, f64::from(batch))
}

/// [`step_time`] at a real-valued batch (the knee's exact value solves step(B) = target). With
/// speculation the step is [`spec_step`]'s: TPOT = (draft + verify) / E per output token.
pub fn step_time_at(scenario: &Scenario, batch: f64) -> StepTime {
    let (speculative, terms) = match spec_step(scenario, batch) {
        Some((spec, verify)) => (Some(spec), verify),
        None => (None, step_terms(scenario, &StepMix::decode(batch, f64::from(scenario.context_tokens)))),
    };
    let per_token = speculative.map_or(1.0, |s| s.tokens_per_step);
    let weight_read_bytes = terms.gemm.bytes;
    let kv_read_bytes = terms.decode_attention.bytes;
    let c = cost_terms(scenario);
    // One memory fraction for both groups (ideal, custom): the single roofline's (weights + KV) / bw,
    // to the bit; else each group's reads at its own fraction.
    let memory_s = if c.gemm.memory == c.decode_attention.memory {
        (weight_read_bytes + kv_read_bytes) / effective_bandwidth_bytes_per_s(scenario)
    } else {
        terms.gemm.memory_s + terms.decode_attention.memory_s
    };
    StepTime {
        weight_read_bytes,
        kv_read_bytes,
        memory_s: memory_s / per_token,
        compute_s: terms.gemm.compute_s / per_token,
        allreduce_s: terms.allreduce_s,
        fixed_s: terms.fixed_s,
        step_s: speculative.map_or(terms.step_s, |s| s.tpot_s),
        bound: terms.bound(),
        terms,
        speculative,
    }
}
