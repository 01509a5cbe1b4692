//! The scenario's headline facts: sizes, the knee, the KV pool, and which constraint caps the batch.

use super::{
    gpus_needed, knee_batch, knee_exact, kv_bytes_per_seq, kv_bytes_per_token, kv_pool_batch, kv_shards,
    peak_flop_per_s, usable_hbm_bytes, weight_bytes, weight_bytes_per_gpu, Precision, TP_CHOICES,
};
use crate::goodput::evaluate;
use crate::prefill::{target_prefill, Prefill};
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};

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
        prefill: target_prefill(scenario),
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
