//! Memory ceilings: usable HBM, the weights each GPU holds, the KV pool's batch (with a shared
//! prefix's copy held once, for the target and a draft model alike) and in held tokens (the
//! simulator's unit), and the GPUs the weights need.

use super::{draft_memory, kv_bytes_per_seq, kv_shards, weight_bytes, MAX_BATCH};
use crate::model::expert_params;
use crate::scenario::Scenario;

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

/// Weight bytes each GPU holds = weights / TP, in B; under expert, data or pipeline parallelism
/// (dense weights / TP + routed experts / (TP x DP)) / PP: dense weights are copied on every DP
/// rank, the experts split over the stage's TP x DP GPUs, the layers over PP stages.
pub fn weight_bytes_per_gpu(scenario: &Scenario) -> f64 {
    let p = scenario.parallel;
    if p.tp_only() {
        return weight_bytes(scenario) / f64::from(p.tp.max(1));
    }
    let bytes = scenario.weight_precision.bytes_per_element();
    let experts = expert_params(&scenario.model) * f64::from(scenario.model.moe.map_or(0, |m| m.experts));
    let dense = (scenario.model.params - experts).max(0.0);
    (dense / f64::from(p.tp.max(1)) + experts / f64::from(p.stage_gpus())) * bytes / f64::from(p.pp.max(1))
}

/// A sequence's KV is split over kv_shards GPUs of its DP rank, and its layers over PP stages:
/// kv_shards x PP.
fn kv_split(scenario: &Scenario) -> f64 {
    kv_shards(scenario) * f64::from(scenario.parallel.pp.max(1))
}

/// DP ranks, each with its own pool of sequences: the replica's pool is DP x one rank's.
fn dp_ranks(scenario: &Scenario) -> f64 {
    f64::from(scenario.parallel.dp.max(1))
}

/// pool = floor([`kv_pool_sequences`]), in sequences (0..=MAX_BATCH).
pub fn kv_pool_batch(scenario: &Scenario) -> u32 {
    whole_batch(kv_pool_sequences(scenario))
}

/// The pool before rounding down: (usable per GPU - weights / TP - shared prefix KV - draft weights
/// per GPU) / (KV a sequence holds + the drafter's KV it holds), in sequences; without a prefix
/// cache or speculation, (usable - weights / TP) / (kv_per_seq / shards). The shared prefix is held
/// once for the target and the draft model alike ([`prefix_shared_kv_bytes`]), so this is
/// [`kv_pool_held_tokens`] / (context - h x C), the simulator's pool in sequences.
pub fn kv_pool_sequences(scenario: &Scenario) -> f64 {
    let draft = draft_memory(scenario);
    let per_rank = (usable_hbm_bytes(scenario)
        - weight_bytes_per_gpu(scenario)
        - prefix_shared_kv_bytes(scenario)
        - draft.weight_bytes_per_gpu)
        / (kv_bytes_per_seq_held(scenario) + draft_kv_bytes_per_seq_held(scenario));
    if scenario.parallel.dp > 1 {
        per_rank * dp_ranks(scenario)
    } else {
        per_rank
    }
}

/// The KV one held token costs per GPU, the target's and the drafter's together: kv_per_seq /
/// context / shards + draft KV per sequence per GPU / context, in B per token (the drafter's term
/// is 0 without a draft model or head: [`draft_memory`]).
pub fn kv_bytes_per_held_token(scenario: &Scenario) -> f64 {
    let context = f64::from(scenario.context_tokens.max(1));
    kv_bytes_per_seq(scenario) / context / kv_split(scenario)
        + draft_memory(scenario).kv_bytes_per_seq_per_gpu / context
}

/// The KV pool in held tokens (the simulator's unit, target and drafter KV per token together):
/// (usable per GPU - weights / TP - draft weights per GPU) / [`kv_bytes_per_held_token`] - the
/// shared prefix's one copy (C = min(P, prompt - 1) tokens while h > 0), in tokens (0 if none).
/// The one formula for the simulator's pool too (`core::sim::sweep::kv_pool_tokens` calls it).
pub fn kv_pool_held_tokens(scenario: &Scenario) -> f64 {
    let free = usable_hbm_bytes(scenario)
        - weight_bytes_per_gpu(scenario)
        - draft_memory(scenario).weight_bytes_per_gpu;
    let per_rank =
        free / kv_bytes_per_held_token(scenario) - scenario.prefix.stored_tokens(scenario.prompt_tokens());
    let tokens = if scenario.parallel.dp > 1 { per_rank * dp_ranks(scenario) } else { per_rank };
    if tokens.is_finite() {
        tokens.max(0.0)
    } else {
        0.0
    }
}

/// The shared prefix's one copy per GPU: C x (the target's KV per token / shards + the drafter's
/// KV per token per GPU) while h > 0 (C = the cached tokens, min(P, prompt - 1):
/// [`crate::prefix::PrefixCache::cached_tokens`]), else 0, in B (KV per token = kv_per_seq /
/// context, so sliding windows are spread evenly). A draft model keeps the prefix's KV once too.
pub fn prefix_shared_kv_bytes(scenario: &Scenario) -> f64 {
    let prefix = &scenario.prefix;
    if !prefix.active() {
        return 0.0;
    }
    let ctx = f64::from(scenario.context_tokens.max(1));
    let stored = prefix.stored_tokens(scenario.prompt_tokens());
    stored / ctx * kv_bytes_per_seq(scenario) / kv_split(scenario)
        + stored / ctx * draft_memory(scenario).kv_bytes_per_seq_per_gpu
}

/// KV one sequence holds privately per GPU, on average: (context - h x C) x KV per
/// token / shards, in B; kv_per_seq / shards without a prefix cache. (Its decode still reads its
/// whole context: [`super::kv_bytes_per_seq`].) The target's KV only: the drafter's is
/// [`draft_kv_bytes_per_seq_held`].
pub fn kv_bytes_per_seq_held(scenario: &Scenario) -> f64 {
    let per_seq = kv_bytes_per_seq(scenario) / kv_split(scenario);
    held_share(scenario, per_seq)
}

/// The drafter's KV one sequence holds privately per GPU, on average: draft KV per sequence per
/// GPU x (context - h x C) / context, in B (the shared prefix's draft KV is in
/// [`prefix_shared_kv_bytes`]); 0 without a drafter.
pub fn draft_kv_bytes_per_seq_held(scenario: &Scenario) -> f64 {
    held_share(scenario, draft_memory(scenario).kv_bytes_per_seq_per_gpu)
}

/// `per_seq` x (context - h x C) / context: the private share of a sequence's KV, in B (`per_seq`
/// itself without a prefix cache).
fn held_share(scenario: &Scenario, per_seq: f64) -> f64 {
    let prefix = &scenario.prefix;
    if !prefix.active() {
        return per_seq;
    }
    let ctx = f64::from(scenario.context_tokens.max(1));
    per_seq * prefix.private_tokens_mean(scenario.context_tokens, scenario.prompt_tokens()) / ctx
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
