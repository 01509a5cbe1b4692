//! Memory ceilings: usable HBM, the weights each GPU holds, the KV pool's batch (with a shared
//! prefix's copy held once) and the GPUs the weights need.

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

/// pool = floor((usable per GPU - weights / TP - shared prefix KV - draft weights per GPU) / (KV a
/// sequence holds + draft KV per sequence per GPU)), in sequences; without a prefix cache or
/// speculation, floor((usable - weights / TP) / (kv_per_seq / shards)). The draft's KV is not
/// prefix-shared here (the simulator's held-token unit shares both: a small difference when both
/// are on).
pub fn kv_pool_batch(scenario: &Scenario) -> u32 {
    let draft = draft_memory(scenario);
    whole_batch(
        (usable_hbm_bytes(scenario)
            - weight_bytes_per_gpu(scenario)
            - prefix_shared_kv_bytes(scenario)
            - draft.weight_bytes_per_gpu)
            / (kv_bytes_per_seq_held(scenario) + draft.kv_bytes_per_seq_per_gpu),
    )
}

/// The shared prefix's one copy per GPU: C x KV per token / shards while h > 0 (C = the cached
/// tokens, min(P, context - 1): [`crate::core::prefix::PrefixCache::cached_tokens`]), else
/// 0, in B (KV per token = kv_per_seq / context, so sliding windows are spread evenly).
pub fn prefix_shared_kv_bytes(scenario: &Scenario) -> f64 {
    let prefix = &scenario.prefix;
    if !prefix.active() {
        return 0.0;
    }
    let ctx = f64::from(scenario.context_tokens.max(1));
    prefix.stored_tokens(scenario.context_tokens) / ctx * kv_bytes_per_seq(scenario) / kv_shards(scenario)
}

/// KV one sequence holds privately per GPU, on average: (context - h x C) x KV per
/// token / shards, in B; kv_per_seq / shards without a prefix cache. (Its decode still reads its
/// whole context: [`super::kv_bytes_per_seq`].)
pub fn kv_bytes_per_seq_held(scenario: &Scenario) -> f64 {
    let per_seq = kv_bytes_per_seq(scenario) / kv_shards(scenario);
    let prefix = &scenario.prefix;
    if !prefix.active() {
        return per_seq;
    }
    let ctx = f64::from(scenario.context_tokens.max(1));
    per_seq * prefix.private_tokens_mean(scenario.context_tokens) / ctx
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
