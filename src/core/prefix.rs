//! Prefix caching's validated settings: one prompt prefix shared by every request (a system prompt)
//! and the share of requests that find it cached. (The formulas live where prefill and the pool do.)

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
}
