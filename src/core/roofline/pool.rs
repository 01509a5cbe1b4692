//! Memory ceilings: usable HBM, the weights each GPU holds, the KV pool's batch and the GPUs the
//! weights need.

use super::{draft_memory, kv_bytes_per_seq, kv_shards, weight_bytes, Scenario, MAX_BATCH};

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

/// pool = floor((usable per GPU - weights / TP - draft weights per GPU) / (kv_per_seq / shards
/// + draft KV per sequence per GPU)), in sequences (the draft terms are 0 without speculation).
pub fn kv_pool_batch(scenario: &Scenario) -> u32 {
    let draft = draft_memory(scenario);
    whole_batch(
        (usable_hbm_bytes(scenario) - weight_bytes_per_gpu(scenario) - draft.weight_bytes_per_gpu)
            / (kv_bytes_per_seq(scenario) / kv_shards(scenario) + draft.kv_bytes_per_seq_per_gpu),
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
