//! The derivation's step: bandwidth, compute peak, the step formula's terms and step(B) at the batches
//! the panel shows.

use super::{KvSeq, Weights};
use crate::calibration::terms::cost_terms;
use crate::goodput::evaluate;
use crate::model::{decode_attention_flop, expected_experts};
use crate::roofline::{
    allreduce_s, effective_bandwidth_bytes_per_s, Analysis, CostModel, Limit, Precision, StepTime, MAX_BATCH,
};
use crate::scenario::Scenario;
use serde::Serialize;

/// The bandwidth a step reads at: peak x MBU (1 on the ideal roofline), plus a fixed overhead.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bandwidth {
    pub peak_bytes_per_s: f64,
    pub mbu: f64,
    /// peak x MBU (the GEMMs' achieved bandwidth), in B/s.
    pub effective_bytes_per_s: f64,
    /// Decode attention's achieved share of peak (MBU except in the measured profile).
    pub attention_mbu: f64,
    /// peak x attention_mbu, in B/s.
    pub attention_bytes_per_s: f64,
    /// Achieved share of the tensor peak (1 except in the measured profile).
    pub compute_fraction: f64,
    /// Every fixed cost of a step: per step, per layer and the all-reduces' latency, in s.
    pub fixed_s: f64,
    /// A calibration is on (custom, the user's fit or the measured profile).
    pub realistic: bool,
    /// The measured profile (per-group fractions and fixed costs) is on.
    pub measured: bool,
}

/// The dense tensor peak decode multiplies at: TP x the GPU's peak for the weight format.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ComputePeak {
    pub active_params: f64,
    pub per_gpu_flop_per_s: f64,
    /// The tensor-core format of that peak (INT4 weights multiply at BF16).
    pub precision: Precision,
    /// TP x per_gpu_flop_per_s x the cost model's achieved fraction (1 but in the measured
    /// profile), in FLOP/s.
    pub peak_flop_per_s: f64,
    /// The achieved fraction of the tensor peak.
    pub fraction: f64,
}

/// step(B) as a function of B: its per-step and per-sequence coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepFormula {
    /// Weight bytes each GPU reads per step when they do not depend on B (dense); `None` for MoE.
    pub fixed_weight_read_bytes: Option<f64>,
    /// KV bytes per sequence per GPU, in B.
    pub kv_bytes_per_seq: f64,
    /// Effective bandwidth of the weight reads, in B/s.
    pub bandwidth_bytes_per_s: f64,
    /// Effective bandwidth of the KV reads, in B/s (the same but in the measured profile).
    pub kv_bandwidth_bytes_per_s: f64,
    /// 2 x active params / peak: GEMM compute seconds per sequence in the batch.
    pub compute_per_seq_s: f64,
    /// Decode attention FLOPs of one sequence at the context / peak: attention compute seconds per
    /// sequence.
    pub attention_compute_per_seq_s: f64,
    /// all-reduce(1): seconds per sequence (0 at TP 1).
    pub allreduce_per_seq_s: f64,
    pub fixed_s: f64,
}

/// Why a batch is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Role {
    /// The largest batch meeting both targets.
    Knee,
    /// The batch after the knee: the first that misses.
    FirstMiss,
    /// The headline's comparison batch: twice the knee, or the pool if smaller.
    Compare,
    /// The largest batch the KV pool holds.
    Pool,
    /// Batch 1, when even it misses a target.
    One,
}

/// step(B) at one batch: the roofline's terms with the operands behind them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepAt {
    pub batch: u32,
    pub role: Role,
    /// Expected distinct experts one MoE layer reads for B tokens: E x (1 - (1 - k/E)^B).
    pub experts_touched: Option<f64>,
    /// 2 x active params x B, in FLOP (the whole replica): the GEMMs'.
    pub flop: f64,
    /// The roofline's step: weight and KV reads per GPU, memory, compute, all-reduce, overhead, and
    /// its per-operator terms.
    pub time: StepTime,
    pub meets_tpot: bool,
    pub meets_ttft: bool,
    /// The batch's KV fits the pool.
    pub fits_pool: bool,
}

/// The GEMMs' achieved bandwidth, and as the overhead every fixed cost per step (per step, per layer
/// and the all-reduces' latency).
pub(super) fn bandwidth(scenario: &Scenario) -> Bandwidth {
    let c = cost_terms(scenario);
    let peak = scenario.gpu.hbm_bandwidth_bytes_per_s;
    Bandwidth {
        peak_bytes_per_s: peak,
        mbu: c.gemm.memory,
        effective_bytes_per_s: effective_bandwidth_bytes_per_s(scenario),
        attention_mbu: c.decode_attention.memory,
        attention_bytes_per_s: peak * c.decode_attention.memory,
        compute_fraction: c.gemm.compute,
        fixed_s: c.step_fixed_s(&scenario.model, &scenario.parallel),
        realistic: scenario.calibration != CostModel::Ideal,
        measured: matches!(scenario.calibration, CostModel::Measured(_)),
    }
}

pub(super) fn compute_peak(scenario: &Scenario, analysis: &Analysis) -> ComputePeak {
    let fraction = cost_terms(scenario).gemm.compute;
    ComputePeak {
        active_params: scenario.model.active_params,
        per_gpu_flop_per_s: scenario.weight_precision.compute_peak(&scenario.gpu).0,
        precision: analysis.compute_precision,
        peak_flop_per_s: analysis.peak_flop_per_s * fraction,
        fraction,
    }
}

pub(super) fn step_formula(
    w: &Weights,
    kv: &KvSeq,
    bw: &Bandwidth,
    c: &ComputePeak,
    scenario: &Scenario,
) -> StepFormula {
    StepFormula {
        fixed_weight_read_bytes: w.moe.is_none().then_some(w.per_gpu_bytes),
        kv_bytes_per_seq: kv.per_gpu_bytes,
        bandwidth_bytes_per_s: bw.effective_bytes_per_s,
        kv_bandwidth_bytes_per_s: bw.attention_bytes_per_s,
        compute_per_seq_s: 2.0 * c.active_params / c.peak_flop_per_s,
        attention_compute_per_seq_s: decode_attention_flop(&scenario.model, scenario.context_tokens)
            / c.peak_flop_per_s,
        allreduce_per_seq_s: allreduce_s(scenario, 1.0),
        fixed_s: bw.fixed_s,
    }
}

/// The batches the argument walks through, by limit: the knee, the batch after it and the
/// headline's comparison batch; the pool (and the knee beyond it); batch 1; or none.
pub(super) fn step_batches(analysis: &Analysis) -> Vec<(u32, Role)> {
    let (knee, pool) = (analysis.knee_batch, analysis.kv_pool_batch);
    let mut batches = match analysis.limit {
        Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. } => vec![],
        Limit::TargetBelowFloor { .. } | Limit::TtftBelowFloor { .. } => vec![(1, Role::One)],
        Limit::KvPool if knee < MAX_BATCH => vec![(pool, Role::Pool), (knee, Role::Knee)],
        Limit::KvPool => vec![(pool, Role::Pool)],
        Limit::Tpot | Limit::Ttft => {
            let mut v = vec![(knee, Role::Knee)];
            if knee < MAX_BATCH {
                v.push((knee + 1, Role::FirstMiss));
            }
            let compare = knee.saturating_mul(2).min(pool);
            if compare > knee + 1 {
                v.push((compare, Role::Compare));
            }
            v
        }
    };
    batches.retain(|(b, _)| *b > 0);
    batches.dedup_by_key(|(b, _)| *b);
    batches
}

pub(super) fn step_at(scenario: &Scenario, analysis: &Analysis, batch: u32, role: Role) -> StepAt {
    let p = evaluate(scenario, batch);
    let b = f64::from(batch);
    StepAt {
        batch,
        role,
        experts_touched: scenario
            .model
            .moe
            .filter(|m| m.experts > m.top_k)
            .map(|m| expected_experts(m.experts, m.top_k, b)),
        flop: 2.0 * scenario.model.active_params * b,
        time: p.step,
        meets_tpot: p.meets_tpot,
        meets_ttft: p.meets_ttft,
        fits_pool: batch <= analysis.kv_pool_batch,
    }
}
