//! The worked example's arithmetic written out for any scenario, as plain data: each line's operands (the
//! numbers the page substitutes into the formula) beside the roofline's own result, and which form of
//! each formula applies (dense or MoE reads, GQA or MLA cache, sliding windows, tensor parallelism,
//! realistic calibration, and the cases in which no batch can run).
//!
//! Results come from [`super::roofline`] itself, so the panel shows the numbers the table shows;
//! `tests/derivation.rs` recombines the operands as the formulas are printed and holds them equal
//! to those results for every preset.

use serde::Serialize;

use super::model::{expected_experts, expert_params};
use super::presets::Attention;
use super::roofline::{
    allreduce_s, analyze, evaluate, kv_shards, step_time, usable_hbm_bytes, weight_bytes_per_gpu, Analysis,
    Calibration, Limit, Precision, Scenario, StepTime, MAX_BATCH,
};

/// Every line of the derivation for one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Derivation {
    pub weights: Weights,
    pub kv_token: KvToken,
    pub kv_seq: KvSeq,
    pub bandwidth: Bandwidth,
    pub compute: ComputePeak,
    pub step: StepFormula,
    /// step(B) evaluated at the batches the argument needs, ascending (none when nothing runs).
    pub steps: Vec<StepAt>,
    pub knee: Knee,
    pub pool: Pool,
    /// Little's law at the batch a server can run; `None` when no batch runs inside the targets.
    pub goodput: Option<Goodput>,
    pub limit: Limit,
}

/// weights = params x bytes per param; per GPU = weights / TP.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Weights {
    pub params: f64,
    pub precision: Precision,
    pub bytes_per_param: f64,
    /// params x bytes_per_param, in B (the whole replica).
    pub weight_bytes: f64,
    pub tp: u32,
    /// weight_bytes / TP, in B.
    pub per_gpu_bytes: f64,
    /// How an MoE step's weight reads grow with the batch; `None` for a dense model.
    pub moe: Option<MoeReads>,
}

/// MoE reads: dense part + expert_params x E x (1 - (1 - k/E)^B), per the published counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoeReads {
    pub experts: u32,
    pub top_k: u32,
    pub active_params: f64,
    /// One routed expert's parameters summed over the MoE layers: (total - active) / (E - k).
    pub expert_params: f64,
    /// total - E x expert_params: attention, embeddings, shared experts and dense layers.
    pub dense_params: f64,
}

/// The cache layout a token's KV follows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum KvShape {
    /// 2 (K and V) x KV heads x head dim elements per layer.
    Gqa { kv_heads: u32, head_dim: u32 },
    /// One latent plus one RoPE key per layer (multi-head latent attention).
    Mla { latent_rank: u32, rope_dim: u32 },
}

/// KV per token = elements per layer x layers x bytes per element.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvToken {
    pub layers: u32,
    pub shape: KvShape,
    pub precision: Precision,
    pub bytes_per_element: f64,
    /// Elements one token adds in one layer: GQA 2 x kv_heads x head_dim, MLA latent + rope.
    pub elements_per_layer: f64,
    /// elements_per_layer x layers x bytes, in B.
    pub kv_bytes_per_token: f64,
}

/// Sliding-window layers keep at most their window of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlidingKv {
    pub full_layers: u32,
    pub sliding_layers: u32,
    pub window_tokens: u32,
    /// min(context, window): tokens a sliding layer holds.
    pub held_tokens: u32,
}

/// KV per sequence = context x KV per token (sliding layers capped at their window); per GPU over
/// the shards it splits into.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvSeq {
    pub context_tokens: u32,
    pub sliding: Option<SlidingKv>,
    /// In B: context x KV per token, or bytes per token-layer x (full x ctx + sliding x held).
    pub kv_bytes_per_seq: f64,
    /// GPUs one sequence's KV splits over: min(TP, KV heads) for GQA, 1 for MLA (replicated).
    pub shards: u32,
    /// kv_bytes_per_seq / shards, in B.
    pub per_gpu_bytes: f64,
}

/// The bandwidth a step reads at: peak x MBU (1 on the ideal roofline), plus a fixed overhead.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bandwidth {
    pub peak_bytes_per_s: f64,
    pub mbu: f64,
    /// peak x MBU, in B/s.
    pub effective_bytes_per_s: f64,
    pub overhead_s: f64,
    /// Realistic mode is on (MBU below 1 or an overhead).
    pub realistic: bool,
}

/// The dense tensor peak decode multiplies at: TP x the GPU's peak for the weight format.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ComputePeak {
    pub active_params: f64,
    pub per_gpu_flop_per_s: f64,
    /// The tensor-core format of that peak (INT4 weights multiply at BF16).
    pub precision: Precision,
    /// TP x per_gpu_flop_per_s, in FLOP/s.
    pub peak_flop_per_s: f64,
}

/// step(B) as a function of B: its per-step and per-sequence coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepFormula {
    /// Weight bytes each GPU reads per step when they do not depend on B (dense); `None` for MoE.
    pub fixed_weight_read_bytes: Option<f64>,
    /// KV bytes per sequence per GPU, in B.
    pub kv_bytes_per_seq: f64,
    /// Effective bandwidth, in B/s.
    pub bandwidth_bytes_per_s: f64,
    /// 2 x active params / peak: compute seconds per sequence in the batch.
    pub compute_per_seq_s: f64,
    /// all-reduce(1): seconds per sequence (0 at TP 1).
    pub allreduce_per_seq_s: f64,
    pub overhead_s: f64,
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
    /// 2 x active params x B, in FLOP (the whole replica).
    pub flop: f64,
    /// The roofline's step: weight and KV reads per GPU, memory, compute, all-reduce, overhead.
    pub time: StepTime,
    pub meets_tpot: bool,
    pub meets_ttft: bool,
    /// The batch's KV fits the pool.
    pub fits_pool: bool,
}

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
    /// Dense and compute-bound at the knee: B = (target - overhead) / (compute per seq + all-reduce
    /// per seq), in s.
    Compute { budget_s: f64, compute_per_seq_s: f64, allreduce_per_seq_s: f64 },
    /// MoE: the weight reads grow with B, so step(B) = target is solved by bisection.
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

/// KV pool = (HBM x utilization - weights per GPU) / KV per seq per GPU.
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

/// The whole derivation for `s` and its analysis.
pub fn derive(scenario: &Scenario, analysis: &Analysis) -> Derivation {
    let weights = weights(scenario);
    let kv_token = kv_token(scenario);
    let kv_seq = kv_seq(scenario, analysis);
    let bandwidth = bandwidth(scenario);
    let compute = compute_peak(scenario, analysis);
    let step = step_formula(&weights, &kv_seq, &bandwidth, &compute, scenario);
    Derivation {
        weights,
        kv_token,
        kv_seq,
        bandwidth,
        compute,
        step,
        steps: step_batches(analysis)
            .into_iter()
            .map(|(batch, role)| step_at(scenario, analysis, batch, role))
            .collect(),
        knee: knee(scenario, analysis, &step),
        pool: pool(scenario, analysis),
        goodput: goodput(scenario, analysis),
        limit: analysis.limit,
    }
}

/// [`derive`] with the scenario's own analysis.
pub fn derive_scenario(scenario: &Scenario) -> Derivation {
    derive(scenario, &analyze(scenario))
}

fn weights(scenario: &Scenario) -> Weights {
    let bytes_per_param = scenario.weight_precision.bytes_per_element();
    let weight_bytes = scenario.model.params * bytes_per_param;
    let moe = scenario.model.moe.filter(|m| m.experts > m.top_k).map(|m| {
        let expert_params = expert_params(&scenario.model);
        MoeReads {
            experts: m.experts,
            top_k: m.top_k,
            active_params: scenario.model.active_params,
            expert_params,
            dense_params: (scenario.model.params - expert_params * f64::from(m.experts)).max(0.0),
        }
    });
    Weights {
        params: scenario.model.params,
        precision: scenario.weight_precision,
        bytes_per_param,
        weight_bytes,
        tp: scenario.tp.max(1),
        per_gpu_bytes: weight_bytes_per_gpu(scenario),
        moe,
    }
}

fn kv_token(scenario: &Scenario) -> KvToken {
    let (shape, elements_per_layer) = match scenario.model.attention {
        Attention::Gqa { kv_heads, head_dim } => {
            (KvShape::Gqa { kv_heads, head_dim }, 2.0 * f64::from(kv_heads) * f64::from(head_dim))
        }
        Attention::Mla { kv_lora_rank, rope_head_dim, .. } => (
            KvShape::Mla { latent_rank: kv_lora_rank, rope_dim: rope_head_dim },
            f64::from(kv_lora_rank) + f64::from(rope_head_dim),
        ),
    };
    let bytes_per_element = scenario.kv_precision.bytes_per_element();
    KvToken {
        layers: scenario.model.layers,
        shape,
        precision: scenario.kv_precision,
        bytes_per_element,
        elements_per_layer,
        kv_bytes_per_token: elements_per_layer * f64::from(scenario.model.layers) * bytes_per_element,
    }
}

fn kv_seq(scenario: &Scenario, analysis: &Analysis) -> KvSeq {
    let sliding = scenario.model.sliding_window.filter(|w| w.sliding_layers > 0).map(|w| {
        let sliding_layers = w.sliding_layers.min(scenario.model.layers);
        SlidingKv {
            full_layers: scenario.model.layers - sliding_layers,
            sliding_layers,
            window_tokens: w.window_tokens,
            held_tokens: w.window_tokens.min(scenario.context_tokens),
        }
    });
    let shards = kv_shards(scenario);
    KvSeq {
        context_tokens: scenario.context_tokens,
        sliding,
        kv_bytes_per_seq: analysis.kv_bytes_per_seq,
        shards: shards as u32,
        per_gpu_bytes: analysis.kv_bytes_per_seq / shards,
    }
}

fn bandwidth(scenario: &Scenario) -> Bandwidth {
    let c = scenario.calibration;
    Bandwidth {
        peak_bytes_per_s: scenario.gpu.hbm_bandwidth_bytes_per_s,
        mbu: c.mbu,
        effective_bytes_per_s: scenario.gpu.hbm_bandwidth_bytes_per_s * c.mbu,
        overhead_s: c.overhead_s,
        realistic: c != Calibration::IDEAL,
    }
}

fn compute_peak(scenario: &Scenario, analysis: &Analysis) -> ComputePeak {
    ComputePeak {
        active_params: scenario.model.active_params,
        per_gpu_flop_per_s: scenario.weight_precision.compute_peak(&scenario.gpu).0,
        precision: analysis.compute_precision,
        peak_flop_per_s: analysis.peak_flop_per_s,
    }
}

fn step_formula(
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
        compute_per_seq_s: 2.0 * c.active_params / c.peak_flop_per_s,
        allreduce_per_seq_s: allreduce_s(scenario, 1.0),
        overhead_s: bw.overhead_s,
    }
}

/// The batches the argument walks through, by limit: the knee, the batch after it and the
/// headline's comparison batch; the pool (and the knee beyond it); batch 1; or none.
fn step_batches(analysis: &Analysis) -> Vec<(u32, Role)> {
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

fn step_at(scenario: &Scenario, analysis: &Analysis, batch: u32, role: Role) -> StepAt {
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

/// The knee's exact batch and the formula that gives it. Dense models solve step(B) = target in
/// closed form on whichever roofline term reaches the target first; MoE reads need bisection.
fn knee(scenario: &Scenario, analysis: &Analysis, f: &StepFormula) -> Knee {
    let target_s = scenario.tpot_target_s;
    let empty_step_s = step_time(scenario, 0).step_s;
    let form = if empty_step_s > target_s {
        KneeForm::BelowFloor { empty_step_s }
    } else if analysis.knee_exact >= f64::from(MAX_BATCH) {
        KneeForm::Unbounded
    } else {
        match f.fixed_weight_read_bytes {
            None => KneeForm::Numeric,
            Some(weight_bytes) => linear_knee(target_s, weight_bytes, f),
        }
    };
    let exact = analysis.knee_exact;
    let tpot_batch = if exact >= f64::from(MAX_BATCH) { MAX_BATCH } else { exact.max(0.0).floor() as u32 };
    let ttft_cap = matches!(analysis.limit, Limit::Ttft | Limit::TtftBelowFloor { .. })
        .then_some((scenario.ttft_target_s, analysis.prefill.prefill_s));
    Knee { target_s, form, exact, tpot_batch, batch: analysis.knee_batch, ttft_cap }
}

/// A dense model's knee: step(B) = max(memory(B), compute(B)) + all-reduce(B) + overhead is
/// piecewise linear in B, so step(B) = target where the first of the two lines reaches it.
fn linear_knee(target_s: f64, weight_bytes: f64, f: &StepFormula) -> KneeForm {
    let budget_s = target_s - f.overhead_s;
    let bw = f.bandwidth_bytes_per_s;
    let allreduce_bytes_per_seq = f.allreduce_per_seq_s * bw;
    let memory_b = (budget_s * bw - weight_bytes) / (f.kv_bytes_per_seq + allreduce_bytes_per_seq);
    let compute_b = budget_s / (f.compute_per_seq_s + f.allreduce_per_seq_s);
    if compute_b < memory_b {
        KneeForm::Compute {
            budget_s,
            compute_per_seq_s: f.compute_per_seq_s,
            allreduce_per_seq_s: f.allreduce_per_seq_s,
        }
    } else {
        KneeForm::Memory {
            budget_s,
            bandwidth_bytes_per_s: bw,
            budget_bytes: budget_s * bw,
            weight_bytes,
            kv_bytes_per_seq: f.kv_bytes_per_seq,
            allreduce_bytes_per_seq,
        }
    }
}

fn pool(scenario: &Scenario, analysis: &Analysis) -> Pool {
    let usable_bytes = usable_hbm_bytes(scenario);
    let weight_bytes = weight_bytes_per_gpu(scenario);
    Pool {
        hbm_bytes: scenario.gpu.hbm_bytes,
        memory_utilization: scenario.memory_utilization,
        usable_bytes,
        weight_bytes,
        free_bytes: usable_bytes - weight_bytes,
        kv_bytes_per_seq: analysis.kv_bytes_per_seq / kv_shards(scenario),
        batch: analysis.kv_pool_batch,
        server_batch: analysis.server_batch,
    }
}

/// Little's law at the server batch (the knee, or the pool when it binds first).
fn goodput(scenario: &Scenario, analysis: &Analysis) -> Option<Goodput> {
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
        tp: scenario.tp.max(1),
        goodput_per_gpu_req_per_s: p.goodput_per_gpu_req_per_s,
    })
}
