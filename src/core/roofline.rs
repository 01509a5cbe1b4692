//! The worked example's arithmetic, generalised: bytes a decode step reads per GPU, step time, the knee, the
//! KV pool and goodput, for dense and MoE models, tensor parallelism and a realistic calibration.
//!
//! A decode step reads the weights once plus every running sequence's KV cache, and every sequence
//! in the batch waits for that same step, so TPOT is a property of the batch. All functions here are
//! total: they return numbers or a [`Limit`] that says why no batch can run, never a panic.

use serde::{Deserialize, Serialize};

use super::model::{kv_elements_per_seq, kv_elements_per_token, params_read};
pub use super::precision::Precision;
use super::prefill::{prefill_time, Prefill};
use super::presets::{Attention, GpuSpec, ModelSpec};

/// The largest batch the model ever considers; bounds every search and cast.
pub const MAX_BATCH: u32 = 1 << 20;
/// Tensor-parallel degrees offered.
pub const TP_CHOICES: [u32; 4] = [1, 2, 4, 8];
/// Bytes per activation element exchanged by the all-reduce (BF16).
pub const ACTIVATION_BYTES: f64 = 2.0;

/// How far a real server falls short of the roofline: achieved bandwidth and a per-step overhead.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Achieved share of peak HBM bandwidth (MBU), in (0, 1].
    pub mbu: f64,
    /// Fixed time added to every step (scheduling, sampling, launches), in s.
    pub overhead_s: f64,
}

impl Calibration {
    /// The ideal roofline: full bandwidth, no overhead (the worked example's model).
    pub const IDEAL: Calibration = Calibration { mbu: 1.0, overhead_s: 0.0 };
    /// Realistic mode's starting point: 80% MBU and 1 ms per step. Round figures in the range
    /// public engine measurements report (decode kernels reach roughly 70-90% of peak HBM
    /// bandwidth; scheduling, sampling and launches cost of the order of a millisecond per step
    /// without multi-step scheduling); assumptions to replace with a measurement, not data.
    pub const REALISTIC_DEFAULT: Calibration = Calibration { mbu: 0.8, overhead_s: 1e-3 };
}

/// One validated what-if: a model on GPUs with its precisions, lengths, targets and calibration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub model: ModelSpec,
    pub gpu: GpuSpec,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
    /// Tensor-parallel degree: GPUs one replica spans.
    pub tp: u32,
    /// Tokens of KV every running sequence holds (the worked example's simplification: all at this length),
    /// also the prompt length TTFT prefills.
    pub context_tokens: u32,
    /// Tokens each request generates.
    pub output_tokens: u32,
    /// Time-per-output-token objective, in s.
    pub tpot_target_s: f64,
    /// Time-to-first-token objective, in s.
    pub ttft_target_s: f64,
    /// Share of HBM the server may use for weights plus KV (0.9 by default, as vLLM).
    pub memory_utilization: f64,
    pub calibration: Calibration,
}

impl Scenario {
    /// The same scenario on the ideal roofline.
    pub fn ideal(&self) -> Scenario {
        Scenario { calibration: Calibration::IDEAL, ..*self }
    }
}

/// Which roofline term sets a step's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    Memory,
    Compute,
}

/// The time of one decode step, per GPU of the replica, and its terms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    /// Weight bytes the step reads per GPU: params_read(B) x bytes / TP, in B.
    pub weight_read_bytes: f64,
    /// KV bytes the step reads per GPU: B x kv_per_seq / kv_shards, in B.
    pub kv_read_bytes: f64,
    /// (weight_read + kv_read) / (bandwidth x MBU), in s.
    pub memory_s: f64,
    /// 2 x active params x B / (TP x peak), in s.
    pub compute_s: f64,
    /// Two ring all-reduces per layer: 2 x layers x 2(TP-1)/TP x B x hidden x 2 B / link, in s.
    pub allreduce_s: f64,
    /// The calibration's fixed per-step overhead, in s.
    pub overhead_s: f64,
    /// max(memory_s, compute_s) + allreduce_s + overhead_s, in s.
    pub step_s: f64,
    pub bound: Bound,
}

/// Everything the page shows about one batch size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchPoint {
    pub batch: u32,
    pub step: StepTime,
    /// Steady-state TTFT: the decode step in flight, then the prompt's prefill, in s.
    pub ttft_s: f64,
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

/// What caps the batch a server can run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Limit {
    /// The TPOT target: the knee is at or below the KV pool.
    Tpot,
    /// The TTFT target caps the batch before the TPOT target does.
    Ttft,
    /// The KV pool: it fills before a latency target is reached.
    KvPool,
    /// Even a batch of one misses the TPOT target; `floor_s` is its step time.
    TargetBelowFloor { floor_s: f64 },
    /// Even a batch of one misses the TTFT target; `floor_s` is its TTFT.
    TtftBelowFloor { floor_s: f64 },
    /// The weights exceed the usable HBM of each GPU; `gpus_needed` GPUs would hold them.
    WeightsDoNotFit { weight_bytes: f64, usable_bytes: f64, gpus_needed: u32 },
    /// The weights fit but not even one sequence's KV does.
    ContextDoesNotFit { free_bytes: f64, kv_bytes_per_seq: f64 },
}

/// The scenario's headline facts: sizes, the knee, the KV pool and which of them binds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// All weights, summed over the replica's GPUs, in B.
    pub weight_bytes: f64,
    pub kv_bytes_per_token: f64,
    pub kv_bytes_per_seq: f64,
    /// The replica's peak for the weight precision: TP x per-GPU peak, in FLOP/s.
    pub peak_flop_per_s: f64,
    /// The format whose tensor cores that peak belongs to.
    pub compute_precision: Precision,
    pub prefill: Prefill,
    /// The batch where step(B) reaches the TPOT target, before rounding (the worked example's 64.97).
    pub knee_exact: f64,
    /// Largest whole batch meeting both targets; 0 when none does.
    pub knee_batch: u32,
    /// Sequences the KV pool holds; 0 when none fits.
    pub kv_pool_batch: u32,
    /// min(knee, pool): the batch a server can run inside the targets.
    pub server_batch: u32,
    /// Smallest offered TP whose GPUs hold the weights, if any.
    pub tp_needed: Option<u32>,
    pub limit: Limit,
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
        Attention::Gqa { kv_heads, .. } => f64::from(scenario.tp.min(kv_heads).max(1)),
        Attention::Mla { .. } => 1.0,
    }
}

/// The replica's dense tensor peak for the weight precision: TP x per-GPU peak, in FLOP/s.
pub fn peak_flop_per_s(scenario: &Scenario) -> f64 {
    f64::from(scenario.tp.max(1)) * scenario.weight_precision.compute_peak(&scenario.gpu).0
}

/// Ring all-reduce time for `tokens` tokens: two per layer, each moving 2(TP-1)/TP x tokens x
/// hidden x 2 B over the per-direction link, in s; 0 at TP 1.
pub fn allreduce_s(scenario: &Scenario, tokens: f64) -> f64 {
    let tp = f64::from(scenario.tp.max(1));
    if scenario.tp <= 1 {
        return 0.0;
    }
    let bytes = 2.0 * (tp - 1.0) / tp * tokens * f64::from(scenario.model.hidden_size) * ACTIVATION_BYTES;
    2.0 * f64::from(scenario.model.layers) * bytes / scenario.gpu.interconnect_bytes_per_s
}

/// step(B) = max((weights_read(B) / TP + B x kv_per_seq / shards) / (bw x MBU),
/// 2 x active x B / (TP x peak)) + all-reduce(B) + overhead, in s.
pub fn step_time(scenario: &Scenario, batch: u32) -> StepTime {
    step_time_at(scenario, f64::from(batch))
}

/// [`step_time`] at a real-valued batch (the knee's exact value solves step(B) = target).
pub fn step_time_at(scenario: &Scenario, b: f64) -> StepTime {
    let tp = f64::from(scenario.tp.max(1));
    let weight_read_bytes =
        params_read(&scenario.model, b) * scenario.weight_precision.bytes_per_element() / tp;
    let kv_read_bytes = b * kv_bytes_per_seq(scenario) / kv_shards(scenario);
    let bandwidth = scenario.gpu.hbm_bandwidth_bytes_per_s * scenario.calibration.mbu;
    let memory_s = (weight_read_bytes + kv_read_bytes) / bandwidth;
    let compute_s = 2.0 * scenario.model.active_params * b / peak_flop_per_s(scenario);
    let allreduce_s = allreduce_s(scenario, b);
    let overhead_s = scenario.calibration.overhead_s;
    let bound = if compute_s > memory_s { Bound::Compute } else { Bound::Memory };
    let step_s = memory_s.max(compute_s) + allreduce_s + overhead_s;
    StepTime { weight_read_bytes, kv_read_bytes, memory_s, compute_s, allreduce_s, overhead_s, step_s, bound }
}

/// Steady-state TTFT at batch B: a new request waits for the decode step in flight, then its
/// prompt is prefilled alone. ttft(B) = step(B) + prefill(prompt), in s.
pub fn ttft_s(scenario: &Scenario, step: &StepTime) -> f64 {
    step.step_s + prefill_time(scenario).prefill_s
}

/// One batch size evaluated: tokens/s = B / step, requests/s = B / (output x step), goodput.
pub fn evaluate(scenario: &Scenario, batch: u32) -> BatchPoint {
    let step = step_time(scenario, batch);
    let b = f64::from(batch);
    let tp = f64::from(scenario.tp.max(1));
    let tokens_per_s = ratio_or_zero(b, step.step_s);
    let throughput_req_per_s = ratio_or_zero(b, f64::from(scenario.output_tokens) * step.step_s);
    let ttft_s = ttft_s(scenario, &step);
    let meets_tpot = step.step_s <= scenario.tpot_target_s;
    let meets_ttft = ttft_s <= scenario.ttft_target_s;
    let goodput_req_per_s = if meets_tpot && meets_ttft { throughput_req_per_s } else { 0.0 };
    BatchPoint {
        batch,
        step,
        ttft_s,
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

/// Whether batch B meets both targets. Step time and TTFT never fall as B grows, so the batches
/// meeting both are exactly 1..=knee.
fn meets_targets(scenario: &Scenario, batch: u32) -> bool {
    let step = step_time(scenario, batch);
    step.step_s <= scenario.tpot_target_s && ttft_s(scenario, &step) <= scenario.ttft_target_s
}

/// Largest whole B in 0..=MAX_BATCH meeting both targets, by bisection over [`meets_targets`].
pub fn knee_batch(scenario: &Scenario) -> u32 {
    if !meets_targets(scenario, 1) {
        return 0;
    }
    let (mut lo, mut hi) = (1_u32, MAX_BATCH);
    if meets_targets(scenario, hi) {
        return hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets_targets(scenario, mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The real-valued batch where step(B) = TPOT target, by bisection on [`step_time_at`]; for a
/// dense model on the ideal roofline this is (target x bandwidth - weights) / kv_per_seq.
pub fn knee_exact(scenario: &Scenario) -> f64 {
    let over = |b: f64| step_time_at(scenario, b).step_s > scenario.tpot_target_s;
    let (mut lo, mut hi) = (0.0_f64, f64::from(MAX_BATCH));
    if over(lo) || !over(hi) {
        return if over(lo) { 0.0 } else { hi };
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if over(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// floor(x) as a batch in 0..=MAX_BATCH (NaN and negatives give 0).
fn whole_batch(x: f64) -> u32 {
    if x >= f64::from(MAX_BATCH) {
        MAX_BATCH
    } else if x >= 0.0 {
        x.floor() as u32
    } else {
        0
    }
}

/// Usable HBM per GPU = hbm_bytes x memory_utilization, in B.
pub fn usable_hbm_bytes(scenario: &Scenario) -> f64 {
    scenario.gpu.hbm_bytes * scenario.memory_utilization
}

/// Weight bytes each GPU holds = weights / TP, in B.
pub fn weight_bytes_per_gpu(scenario: &Scenario) -> f64 {
    weight_bytes(scenario) / f64::from(scenario.tp.max(1))
}

/// pool = floor((usable per GPU - weights / TP) / (kv_per_seq / shards)), in sequences.
pub fn kv_pool_batch(scenario: &Scenario) -> u32 {
    whole_batch(
        (usable_hbm_bytes(scenario) - weight_bytes_per_gpu(scenario))
            / (kv_bytes_per_seq(scenario) / kv_shards(scenario)),
    )
}

/// GPUs whose usable HBM holds the weights: ceil(weights / usable per GPU), at least 1.
pub fn gpus_needed(scenario: &Scenario) -> u32 {
    let n = (weight_bytes(scenario) / usable_hbm_bytes(scenario)).ceil();
    if n.is_finite() && n >= 1.0 {
        n.min(f64::from(MAX_BATCH)) as u32
    } else {
        1
    }
}

/// The scenario's knee, KV pool, the batch a server can run and what limits it.
pub fn analyze(scenario: &Scenario) -> Analysis {
    let knee = knee_batch(scenario);
    let pool = kv_pool_batch(scenario);
    let compute_precision = scenario.weight_precision.compute_peak(&scenario.gpu).1;
    let needed = gpus_needed(scenario);
    Analysis {
        weight_bytes: weight_bytes(scenario),
        kv_bytes_per_token: kv_bytes_per_token(scenario),
        kv_bytes_per_seq: kv_bytes_per_seq(scenario),
        peak_flop_per_s: peak_flop_per_s(scenario),
        compute_precision,
        prefill: prefill_time(scenario),
        knee_exact: knee_exact(scenario),
        knee_batch: knee,
        kv_pool_batch: pool,
        server_batch: knee.min(pool),
        tp_needed: TP_CHOICES.into_iter().find(|&tp| tp >= needed),
        limit: limit(scenario, knee, pool),
    }
}

/// Which constraint caps the batch: weights, one sequence's KV, a target floor, a target or the pool.
fn limit(scenario: &Scenario, knee: u32, pool: u32) -> Limit {
    let weights = weight_bytes_per_gpu(scenario);
    let usable = usable_hbm_bytes(scenario);
    // Written so that a NaN size also reports that the weights do not fit.
    if weights.partial_cmp(&usable).is_none_or(|o| o.is_gt()) {
        let gpus_needed = gpus_needed(scenario);
        return Limit::WeightsDoNotFit {
            weight_bytes: weight_bytes(scenario),
            usable_bytes: usable,
            gpus_needed,
        };
    }
    if pool == 0 {
        let kv = kv_bytes_per_seq(scenario) / kv_shards(scenario);
        return Limit::ContextDoesNotFit { free_bytes: usable - weights, kv_bytes_per_seq: kv };
    }
    if knee == 0 {
        let first = evaluate(scenario, 1);
        return if first.meets_tpot {
            Limit::TtftBelowFloor { floor_s: first.ttft_s }
        } else {
            Limit::TargetBelowFloor { floor_s: first.step.step_s }
        };
    }
    if knee > pool {
        Limit::KvPool
    } else if evaluate(scenario, knee.saturating_add(1)).meets_tpot {
        Limit::Ttft
    } else {
        Limit::Tpot
    }
}
