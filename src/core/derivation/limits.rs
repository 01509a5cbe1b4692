//! The derivation's limits: the knee as a formula (closed or by search), the KV pool and goodput by
//! Little's law.

use super::StepFormula;
use crate::goodput::evaluate;
use crate::roofline::{
    kv_bytes_per_seq_held, kv_shards, prefix_shared_kv_bytes, step_time, step_time_at, usable_hbm_bytes,
    weight_bytes_per_gpu, Analysis, Bound, Limit, MAX_BATCH,
};
use crate::scenario::Scenario;
use serde::Serialize;

/// How the largest batch under the TPOT target is found.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum KneeForm {
    /// Dense and memory-bound at the knee: B = (budget - weights) / (KV per seq + all-reduce per seq
    /// x bandwidth), with budget = (target - overhead) x bandwidth, all per GPU in B.
    Memory {
        budget_s: f64,
        bandwidth_bytes_per_s: f64,
        budget_bytes: f64,
        weight_bytes: f64,
        kv_bytes_per_seq: f64,
        allreduce_bytes_per_seq: f64,
    },
    /// Dense with compute-bound GEMMs at the knee: each sequence adds its GEMM compute, its
    /// attention (the larger of its KV read and its attention FLOPs) and its all-reduce, so
    /// B = (target - overhead) / (compute + attention + all-reduce per seq), in s.
    Compute { budget_s: f64, compute_per_seq_s: f64, attention_per_seq_s: f64, allreduce_per_seq_s: f64 },
    /// MoE (the weight reads grow with B) or a compute-bound attention under memory-bound GEMMs:
    /// step(B) = target is solved by bisection.
    Numeric,
    /// Even an empty batch (the weight read plus overhead) takes longer than the target.
    BelowFloor { empty_step_s: f64 },
    /// No batch up to the model's largest reaches the target.
    Unbounded,
}

/// The knee: where step(B) reaches the TPOT target, and the whole batch both targets allow.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Knee {
    pub target_s: f64,
    pub form: KneeForm,
    /// The real-valued batch where step(B) = target (the worked example's 64.97).
    pub exact: f64,
    /// floor(exact): the largest batch meeting the TPOT target alone.
    pub tpot_batch: u32,
    /// The table's knee: the largest batch meeting both targets.
    pub batch: u32,
    /// TTFT caps the batch below the TPOT knee: (TTFT target, prefill time), in s.
    pub ttft_cap: Option<(f64, f64)>,
}

/// KV pool = (HBM x utilization - weights per GPU - shared prefix KV) / KV a sequence holds per GPU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pool {
    pub hbm_bytes: f64,
    pub memory_utilization: f64,
    /// hbm x utilization, in B.
    pub usable_bytes: f64,
    pub weight_bytes: f64,
    /// usable - weights per GPU, in B (negative when the weights do not fit).
    pub free_bytes: f64,
    pub kv_bytes_per_seq: f64,
    /// A shared prefix's KV, stored once per GPU (0 without a prefix cache), in B.
    pub prefix_shared_bytes: f64,
    /// KV a sequence holds on average per GPU: kv_bytes_per_seq less a hit's cached prefix,
    /// (context - h x cached) / context x kv_bytes_per_seq, in B (kv_bytes_per_seq without a cache).
    pub kv_bytes_held_per_seq: f64,
    /// The roofline's pool, in sequences.
    pub batch: u32,
    /// min(knee, pool): the batch a server can run.
    pub server_batch: u32,
}

/// Little's law at a batch: requests/s = B / (output tokens x step).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Goodput {
    pub batch: u32,
    pub output_tokens: u32,
    pub step_s: f64,
    pub tokens_per_s: f64,
    pub throughput_req_per_s: f64,
    pub goodput_req_per_s: f64,
    pub tp: u32,
    pub goodput_per_gpu_req_per_s: f64,
}

/// The knee's exact batch and the formula that gives it. Dense models solve step(B) = target in
/// closed form on the pieces of the per-operator step that apply at the knee; MoE reads need
/// bisection.
pub(super) fn knee(scenario: &Scenario, analysis: &Analysis, f: &StepFormula) -> Knee {
    let target_s = scenario.tpot_target_s;
    let empty_step_s = step_time(scenario, 0).step_s;
    let form = if empty_step_s > target_s {
        KneeForm::BelowFloor { empty_step_s }
    } else if analysis.knee_exact >= f64::from(MAX_BATCH) {
        KneeForm::Unbounded
    } else {
        match f.fixed_weight_read_bytes {
            None => KneeForm::Numeric,
            Some(weight_bytes) => {
                let at = step_time_at(scenario, analysis.knee_exact).terms;
                let (gemm, attention) = (at.gemm.bound(), at.decode_attention.bound());
                let two_bandwidths = f.kv_bandwidth_bytes_per_s != f.bandwidth_bytes_per_s;
                if two_bandwidths && (gemm, attention) == (Bound::Memory, Bound::Memory) {
                    // Weights and KV read at different achieved bandwidths (the measured profile):
                    // no single budget in bytes, so the knee is bisected.
                    KneeForm::Numeric
                } else {
                    linear_knee(target_s, weight_bytes, f, gemm, attention)
                }
            }
        }
    };
    let exact = analysis.knee_exact;
    let tpot_batch = if exact >= f64::from(MAX_BATCH) { MAX_BATCH } else { exact.max(0.0).floor() as u32 };
    let ttft_cap = matches!(analysis.limit, Limit::Ttft | Limit::TtftBelowFloor { .. })
        .then_some((scenario.ttft_target_s, analysis.prefill.prefill_s));
    Knee { target_s, form, exact, tpot_batch, batch: analysis.knee_batch, ttft_cap }
}

/// A dense model's knee: step(B) = max(weights / bw, compute x B) + max(KV x B / bw, attention x B)
/// + all-reduce x B + overhead is piecewise linear in B; on the pieces that apply at the knee (the
/// GEMMs' and the attention's bounds there) step(B) = target is one line's root.
pub(super) fn linear_knee(
    target_s: f64,
    weight_bytes: f64,
    f: &StepFormula,
    gemm: Bound,
    attention: Bound,
) -> KneeForm {
    let budget_s = target_s - f.fixed_s;
    let bw = f.bandwidth_bytes_per_s;
    match (gemm, attention) {
        (Bound::Memory, Bound::Memory) => KneeForm::Memory {
            budget_s,
            bandwidth_bytes_per_s: bw,
            budget_bytes: budget_s * bw,
            weight_bytes,
            kv_bytes_per_seq: f.kv_bytes_per_seq,
            allreduce_bytes_per_seq: f.allreduce_per_seq_s * bw,
        },
        (Bound::Compute, attention) => KneeForm::Compute {
            budget_s,
            compute_per_seq_s: f.compute_per_seq_s,
            attention_per_seq_s: match attention {
                Bound::Memory => f.kv_bytes_per_seq / f.kv_bandwidth_bytes_per_s,
                Bound::Compute => f.attention_compute_per_seq_s,
            },
            allreduce_per_seq_s: f.allreduce_per_seq_s,
        },
        (Bound::Memory, Bound::Compute) => KneeForm::Numeric,
    }
}

pub(super) fn pool(scenario: &Scenario, analysis: &Analysis) -> Pool {
    let usable_bytes = usable_hbm_bytes(scenario);
    let weight_bytes = weight_bytes_per_gpu(scenario);
    Pool {
        hbm_bytes: scenario.gpu.hbm_bytes,
        memory_utilization: scenario.memory_utilization,
        usable_bytes,
        weight_bytes,
        free_bytes: usable_bytes - weight_bytes,
        kv_bytes_per_seq: analysis.kv_bytes_per_seq / kv_shards(scenario),
        prefix_shared_bytes: prefix_shared_kv_bytes(scenario),
        kv_bytes_held_per_seq: kv_bytes_per_seq_held(scenario),
        batch: analysis.kv_pool_batch,
        server_batch: analysis.server_batch,
    }
}

/// Little's law at the server batch (the knee, or the pool when it binds first).
pub(super) fn goodput(scenario: &Scenario, analysis: &Analysis) -> Option<Goodput> {
    if analysis.server_batch == 0 {
        return None;
    }
    let p = evaluate(scenario, analysis.server_batch);
    Some(Goodput {
        batch: p.batch,
        output_tokens: scenario.output_tokens,
        step_s: p.step.step_s,
        tokens_per_s: p.tokens_per_s,
        throughput_req_per_s: p.throughput_req_per_s,
        goodput_req_per_s: p.goodput_req_per_s,
        tp: scenario.parallel.tp.max(1),
        goodput_per_gpu_req_per_s: p.goodput_per_gpu_req_per_s,
    })
}
