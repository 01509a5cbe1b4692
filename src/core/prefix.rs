//! Prefix caching: one prompt prefix shared by every request (a system prompt), the share of
//! requests that find it cached, and the one place its token arithmetic lives (the cached tokens
//! of a prompt, the copy the pool stores once, the tokens a sequence holds privately). Prefill and
//! the pool call these ([`crate::prefill`], [`crate::roofline::kv_pool_batch`], the
//! simulator's pool and admissions).
//!
//! The model: one shared prefix of P tokens opens every prompt. A request finds it cached with
//! probability h (a hit): it prefills only its own context - P tokens, whose attention still reads
//! the cached prefix's KV, and holds only those tokens' KV, the prefix's KV being the replica's one
//! shared copy. A miss prefills and holds its whole prompt privately (as if the cached copy had been
//! evicted or the request did not reuse it). Every decode step still reads each sequence's whole
//! context, the shared part included. With speculative decoding, a draft model with its own KV
//! keeps the shared prefix's KV once too: the pool's held-token unit is the target's and the
//! drafter's KV per token together ([`crate::roofline::kv_bytes_per_held_token`]), for the
//! shared copy and for each sequence's private tokens alike.

use serde::{Deserialize, Serialize};

/// One shared prefix and its cache hit rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrefixCache {
    /// Tokens of the shared prefix at the start of every prompt (at most the prompt).
    pub prefix_tokens: u32,
    /// Share of requests whose prefix is already cached, in [0, 1].
    pub hit_rate: f64,
}

impl PrefixCache {
    /// No shared prefix (the default).
    pub const NONE: PrefixCache = PrefixCache { prefix_tokens: 0, hit_rate: 0.0 };

    /// A prefix some request reuses: P > 0 and h > 0. Otherwise nothing changes.
    pub fn active(&self) -> bool {
        self.prefix_tokens > 0 && self.hit_rate > 0.0
    }

    /// Tokens of a `prompt_tokens` prompt a hit finds cached: min(P, prompt - 1), in tokens (0 when
    /// no request reuses the prefix). The prompt's last token is always computed, as vLLM does: its
    /// logits give the first output token.
    pub fn cached_tokens(&self, prompt_tokens: u32) -> u32 {
        if self.active() {
            self.prefix_tokens.min(prompt_tokens.saturating_sub(1))
        } else {
            0
        }
    }

    /// The shared copy the pool stores once per replica for prompts of `prompt_tokens`: the cached
    /// tokens, min(P, prompt - 1), while h > 0, else 0 (a copy nobody reuses is not kept), in tokens.
    pub fn stored_tokens(&self, prompt_tokens: u32) -> f64 {
        f64::from(self.cached_tokens(prompt_tokens))
    }

    /// KV tokens one sequence holds privately on average at a `context_tokens` context of a
    /// `prompt_tokens` prompt: h x (context - C) + (1 - h) x context = context - h x C, C the
    /// stored prefix ([`PrefixCache::stored_tokens`]), in tokens.
    pub fn private_tokens_mean(&self, context_tokens: u32, prompt_tokens: u32) -> f64 {
        f64::from(context_tokens) - self.hit_rate * self.stored_tokens(prompt_tokens)
    }
}
