//! The prefix cache's sentences under the batch table: which TTFT the table shows (a hit's, a
//! miss's, their mean) and which the target checks, and the KV pool with the shared copy held once.

use super::{ms, percent_trimmed, size, thousands};
use crate::core::prefill::ttft_split;
use crate::core::prefix::PrefixCache;
use crate::core::roofline::{
    draft_kv_bytes_per_seq_held, draft_memory, kv_bytes_per_seq_held, kv_pool_batch, prefix_shared_kv_bytes,
    step_time, usable_hbm_bytes, weight_bytes_per_gpu, Analysis,
};
use crate::core::scenario::Scenario;

/// "Prefix cache: 1,024 shared tokens, 50% hit. At batch 64 a hit's TTFT is … ms and a miss's …
/// ms; the TTFT column is their mean, …", or None without a prefix cache.
pub fn prefix_ttft_note(scenario: &Scenario, analysis: &Analysis) -> Option<String> {
    let p = scenario.prefix;
    if !p.active() {
        return None;
    }
    let batch = analysis.server_batch.max(1);
    let t = ttft_split(scenario, step_time(scenario, batch).step_s);
    let checks = if p.hit_rate >= 1.0 {
        "Meets TTFT checks the hit, since every request hits"
    } else {
        "Meets TTFT checks the miss, since some requests miss"
    };
    Some(format!(
        "Prefix cache: {} shared tokens, {} hit. At batch {} a hit prefills {} tokens, TTFT {} ms; a miss \
         prefills {}, TTFT {} ms. The TTFT column is the mean, {} × hit + {} × miss = {} ms (a mean over \
         requests, not a percentile); {checks}.",
        thousands(f64::from(p.cached_tokens(scenario.prompt_tokens()))),
        percent_trimmed(p.hit_rate),
        thousands(f64::from(batch)),
        thousands(f64::from(scenario.prompt_tokens() - p.cached_tokens(scenario.prompt_tokens()))),
        ms(t.hit_s),
        thousands(f64::from(scenario.prompt_tokens())),
        ms(t.miss_s),
        percent_trimmed(p.hit_rate),
        percent_trimmed(1.0 - p.hit_rate),
        ms(t.mean_s),
    ))
}

/// "KV pool: 313 sequences = (55.94 GB free − 134 MB shared prefix) / 179 MB held per sequence
/// (208 without the cache); …", or None without a prefix cache.
pub fn prefix_pool_note(scenario: &Scenario, analysis: &Analysis) -> Option<String> {
    let p = scenario.prefix;
    if !p.active() {
        return None;
    }
    let cached = p.cached_tokens(scenario.prompt_tokens());
    // With a drafter, its weights leave the free bytes and its KV joins what a sequence holds (both 0
    // without one), so the sentence's numbers give the pool the table shows.
    let free = usable_hbm_bytes(scenario)
        - weight_bytes_per_gpu(scenario)
        - draft_memory(scenario).weight_bytes_per_gpu;
    let held = kv_bytes_per_seq_held(scenario) + draft_kv_bytes_per_seq_held(scenario);
    let without = kv_pool_batch(&Scenario { prefix: PrefixCache::NONE, ..*scenario });
    Some(format!(
        "KV pool: {} sequences = ({} free − {} shared prefix, held once) / {} a sequence holds on average \
         ({} − {} × {} = {} tokens); {} without the cache. Each decode step still reads every sequence's \
         {} tokens of context.",
        thousands(f64::from(analysis.kv_pool_batch)),
        size(free),
        size(prefix_shared_kv_bytes(scenario)),
        size(held),
        thousands(f64::from(scenario.context_tokens)),
        percent_trimmed(p.hit_rate),
        thousands(f64::from(cached)),
        thousands(p.private_tokens_mean(scenario.context_tokens, scenario.prompt_tokens())),
        thousands(f64::from(without)),
        thousands(f64::from(scenario.context_tokens)),
    ))
}
