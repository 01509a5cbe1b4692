//! The seed's arithmetic: bytes a decode step reads, step time, the knee, the KV pool and goodput.
//!
//! A decode step reads the weights once plus every running sequence's KV cache, and every sequence
//! in the batch waits for that same step, so TPOT is a property of the batch. All functions here are
//! total: they return numbers or a [`Limit`] that says why no batch can run, never a panic.

use serde::{Deserialize, Serialize};

use super::presets::{GpuSpec, ModelSpec};

/// The largest batch the model ever considers; bounds every search and cast.
pub const MAX_BATCH: u32 = 1 << 20;

/// Bytes per element for weights or KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Precision {
    /// bfloat16: 2 bytes.
    Bf16,
    /// 8-bit float: 1 byte.
    Fp8,
}

impl Precision {
    /// Every precision, in control order.
    pub const ALL: [Precision; 2] = [Precision::Bf16, Precision::Fp8];

    /// Bytes one element occupies (BF16 2 B, FP8 1 B).
    pub fn bytes_per_element(self) -> f64 {
        match self {
            Precision::Bf16 => 2.0,
            Precision::Fp8 => 1.0,
        }
    }

    /// The URL id (`bf16`, `fp8`).
    pub fn id(self) -> &'static str {
        match self {
            Precision::Bf16 => "bf16",
            Precision::Fp8 => "fp8",
        }
    }

    /// The display label (`BF16`, `FP8`).
    pub fn label(self) -> &'static str {
        match self {
            Precision::Bf16 => "BF16",
            Precision::Fp8 => "FP8",
        }
    }

    /// The precision with this URL id, if any.
    pub fn from_id(id: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// One validated what-if: a model on a GPU with its precisions, lengths and latency target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Scenario {
    pub model: ModelSpec,
    pub gpu: GpuSpec,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
    /// Tokens of KV every running sequence holds (the seed's simplification: all at this length).
    pub context_tokens: u32,
    /// Tokens each request generates.
    pub output_tokens: u32,
    /// Time-per-output-token objective, in seconds.
    pub tpot_target_s: f64,
    /// Share of HBM the server may use for weights plus KV (0.9 by default, as vLLM).
    pub memory_utilization: f64,
}

/// Which roofline term sets a step's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    Memory,
    Compute,
}

/// The time of one decode step and its two roofline terms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    /// (weight_bytes + B x kv_bytes_per_seq) / hbm_bandwidth_bytes_per_s, in s.
    pub memory_s: f64,
    /// 2 x params x B / peak_flop_per_s, in s.
    pub compute_s: f64,
    /// max(memory_s, compute_s), in s.
    pub step_s: f64,
    pub bound: Bound,
}

/// Everything the page shows about one batch size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchPoint {
    pub batch: u32,
    pub step: StepTime,
    /// B / step_s, in tokens/s.
    pub tokens_per_s: f64,
    /// B / (output_tokens x step_s), in requests/s (Little's law).
    pub throughput_req_per_s: f64,
    /// step_s <= tpot_target_s.
    pub meets_tpot: bool,
    /// throughput when the batch meets TPOT, else 0, in requests/s.
    pub goodput_req_per_s: f64,
}

/// What caps the batch a server can run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Limit {
    /// The TPOT target: the knee is at or below the KV pool.
    Tpot,
    /// The KV pool: it fills before the TPOT target is reached.
    KvPool,
    /// Even a batch of one misses the target; `floor_s` is its step time.
    TargetBelowFloor { floor_s: f64 },
    /// The weights alone exceed the usable HBM.
    WeightsDoNotFit { weight_bytes: f64, usable_bytes: f64 },
    /// The weights fit but not even one sequence's KV does.
    ContextDoesNotFit { free_bytes: f64, kv_bytes_per_seq: f64 },
}

/// The scenario's headline facts: sizes, the knee, the KV pool and which of them binds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub weight_bytes: f64,
    pub kv_bytes_per_token: f64,
    pub kv_bytes_per_seq: f64,
    pub peak_flop_per_s: f64,
    /// The memory-side knee before rounding: (target x bandwidth - weights) / kv_bytes_per_seq.
    pub knee_memory_exact: f64,
    /// The compute-side knee before rounding: target x peak / (2 x params).
    pub knee_compute_exact: f64,
    /// Largest whole batch meeting TPOT; 0 when none does.
    pub knee_batch: u32,
    /// Sequences the KV pool holds; 0 when none fits.
    pub kv_pool_batch: u32,
    /// min(knee, pool): the batch a server can run inside the target.
    pub server_batch: u32,
    pub limit: Limit,
}

/// weight_bytes = params x bytes per weight, in B.
pub fn weight_bytes(s: &Scenario) -> f64 {
    s.model.params * s.weight_precision.bytes_per_element()
}

/// kv_bytes_per_token = 2 (K and V) x layers x kv_heads x head_dim x bytes per element, in B.
pub fn kv_bytes_per_token(s: &Scenario) -> f64 {
    super::model::kv_elements_per_token(&s.model) * s.kv_precision.bytes_per_element()
}

/// kv_bytes_per_seq = context_tokens x kv_bytes_per_token, in B.
pub fn kv_bytes_per_seq(s: &Scenario) -> f64 {
    f64::from(s.context_tokens) * kv_bytes_per_token(s)
}

/// The dense tensor peak for the weight precision, in FLOP/s (BF16 where the GPU lacks FP8).
pub fn peak_flop_per_s(s: &Scenario) -> f64 {
    match s.weight_precision {
        Precision::Bf16 => s.gpu.bf16_flop_per_s,
        Precision::Fp8 => s.gpu.fp8_flop_per_s.unwrap_or(s.gpu.bf16_flop_per_s),
    }
}

/// step(B) = max((weights + B x kv_per_seq) / bandwidth, 2 x params x B / peak), in s.
pub fn step_time(s: &Scenario, batch: u32) -> StepTime {
    let b = f64::from(batch);
    let memory_s = (weight_bytes(s) + b * kv_bytes_per_seq(s)) / s.gpu.hbm_bandwidth_bytes_per_s;
    let compute_s = 2.0 * s.model.params * b / peak_flop_per_s(s);
    let bound = if compute_s > memory_s { Bound::Compute } else { Bound::Memory };
    StepTime { memory_s, compute_s, step_s: memory_s.max(compute_s), bound }
}

/// One batch size evaluated: tokens/s = B / step, requests/s = B / (output x step), goodput.
pub fn evaluate(s: &Scenario, batch: u32) -> BatchPoint {
    let step = step_time(s, batch);
    let b = f64::from(batch);
    let tokens_per_s = ratio_or_zero(b, step.step_s);
    let throughput_req_per_s = ratio_or_zero(b, f64::from(s.output_tokens) * step.step_s);
    let meets_tpot = step.step_s <= s.tpot_target_s;
    let goodput_req_per_s = if meets_tpot { throughput_req_per_s } else { 0.0 };
    BatchPoint { batch, step, tokens_per_s, throughput_req_per_s, meets_tpot, goodput_req_per_s }
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

/// Largest whole B with step(B) <= target, from the closed form
/// B = min((target x bandwidth - weights) / kv_per_seq, target x peak / (2 x params)), then settled
/// against [`step_time`] so floating-point rounding cannot make the knee and the table disagree.
pub fn knee_batch(s: &Scenario) -> u32 {
    let (memory, compute) = knee_limits_exact(s);
    let mut batch = whole_batch(memory.min(compute));
    let meets = |b: u32| step_time(s, b).step_s <= s.tpot_target_s;
    for _ in 0..4 {
        if batch > 0 && !meets(batch) {
            batch -= 1;
        } else if batch < MAX_BATCH && meets(batch + 1) {
            batch += 1;
        } else {
            break;
        }
    }
    batch
}

/// The knee's two closed-form limits before rounding: (memory, compute), in sequences.
fn knee_limits_exact(s: &Scenario) -> (f64, f64) {
    let bandwidth = s.gpu.hbm_bandwidth_bytes_per_s;
    let memory = (s.tpot_target_s * bandwidth - weight_bytes(s)) / kv_bytes_per_seq(s);
    let compute = s.tpot_target_s * peak_flop_per_s(s) / (2.0 * s.model.params);
    (memory, compute)
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

/// Usable HBM = hbm_bytes x memory_utilization, in B.
pub fn usable_hbm_bytes(s: &Scenario) -> f64 {
    s.gpu.hbm_bytes * s.memory_utilization
}

/// pool = floor((hbm x utilization - weights) / kv_per_seq), in sequences; 0 when none fits.
pub fn kv_pool_batch(s: &Scenario) -> u32 {
    whole_batch((usable_hbm_bytes(s) - weight_bytes(s)) / kv_bytes_per_seq(s))
}

/// The scenario's knee, KV pool, the batch a server can run and what limits it.
pub fn analyze(s: &Scenario) -> Analysis {
    let (knee_memory_exact, knee_compute_exact) = knee_limits_exact(s);
    let knee = knee_batch(s);
    let pool = kv_pool_batch(s);
    Analysis {
        weight_bytes: weight_bytes(s),
        kv_bytes_per_token: kv_bytes_per_token(s),
        kv_bytes_per_seq: kv_bytes_per_seq(s),
        peak_flop_per_s: peak_flop_per_s(s),
        knee_memory_exact,
        knee_compute_exact,
        knee_batch: knee,
        kv_pool_batch: pool,
        server_batch: knee.min(pool),
        limit: limit(s, knee, pool),
    }
}

/// Which constraint caps the batch: weights, one sequence's KV, the target floor, TPOT or the pool.
fn limit(s: &Scenario, knee: u32, pool: u32) -> Limit {
    let weights = weight_bytes(s);
    let usable = usable_hbm_bytes(s);
    // Written so that a NaN size also reports that the weights do not fit.
    if weights.partial_cmp(&usable).is_none_or(|o| o.is_gt()) {
        return Limit::WeightsDoNotFit { weight_bytes: weights, usable_bytes: usable };
    }
    if pool == 0 {
        let kv = kv_bytes_per_seq(s);
        return Limit::ContextDoesNotFit { free_bytes: usable - weights, kv_bytes_per_seq: kv };
    }
    if knee == 0 {
        return Limit::TargetBelowFloor { floor_s: step_time(s, 1).step_s };
    }
    if knee <= pool {
        Limit::Tpot
    } else {
        Limit::KvPool
    }
}
