//! A synthetic multi-turn workload: sessions start as a Poisson process, every session opens with a
//! system prompt all sessions share, and each later turn sends the whole context so far (the previous
//! prompt and its answer) plus new user tokens, a think time after the previous answer finished.
//!
//! Block hashes: block i of a context (tokens i x B to (i + 1) x B, B the block size) lying wholly
//! inside the system prompt is the shared block `prefix_block_hash(SYSTEM_PREFIX, i)`; every other full
//! block is the session's own `session_block_hash(session, i)` (the readers' hashes, `traffic::blocks`). A context only grows by appending, so turn k + 1's
//! chain begins with turn k's whole context's full blocks. Only full blocks are hashed (a partial
//! last block is never shared, as in vLLM).

use serde::{Deserialize, Serialize};

use super::blocks::{prefix_block_hash, session_block_hash};
use crate::sim::Rng;

/// Multi-turn sessions, every length fixed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionSpec {
    pub sessions: u32,
    /// Turns per session, at least 1.
    pub turns: u32,
    /// Session starts per second (Poisson).
    pub session_rate_per_s: f64,
    /// The system prompt every session's context begins with, in tokens (its full blocks shared).
    pub system_tokens: u32,
    /// The first turn's own tokens after the system prompt.
    pub first_tokens: u32,
    /// Each later turn's new user tokens.
    pub new_tokens: u32,
    /// Every answer's length, in tokens.
    pub output_tokens: u32,
    /// Mean think time between an answer's last token and the next turn's arrival (exponential), in s.
    pub think_s: f64,
    pub seed: u64,
}

/// The id of the shared system prompt as a prefix ([`prefix_block_hash`]'s first argument).
pub const SYSTEM_PREFIX: u32 = 0;

/// Two values mixed into one well-spread u64 (SplitMix64's finalizer over both): a routing key or
/// a seed from an id, never a block's hash (those are [`session_block_hash`]'s and
/// [`prefix_block_hash`]'s, the readers' too).
pub fn mix(owner: u64, index: u32) -> u64 {
    let mut z =
        owner.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(index).wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hashes of the first `blocks` full blocks of a session's context, appended to `out`.
pub fn context_chain(session: u32, system_tokens: u32, block_tokens: u32, blocks: u32, out: &mut Vec<u64>) {
    let b = u64::from(block_tokens.max(1));
    out.extend((0..blocks).map(|i| {
        if (u64::from(i) + 1) * b <= u64::from(system_tokens) {
            prefix_block_hash(SYSTEM_PREFIX, i)
        } else {
            session_block_hash(session, i)
        }
    }));
}

impl SessionSpec {
    pub fn turns(&self) -> u32 {
        self.turns.max(1)
    }

    /// Each session's start, in s: Poisson at `session_rate_per_s` from t = 0 (the first at 0).
    pub fn starts_s(&self) -> Vec<f64> {
        let mut rng = Rng::new(self.seed);
        let rate = if self.session_rate_per_s > 0.0 { self.session_rate_per_s } else { 1.0 };
        let mut t_s = 0.0;
        (0..self.sessions)
            .map(|i| {
                if i > 0 {
                    t_s += rng.exponential() / rate;
                }
                t_s
            })
            .collect()
    }

    /// The think time before turn `turn` (1..turns) of `session`, in s: exponential with mean
    /// `think_s`, drawn from its own stream so it does not depend on the order of the run's events.
    pub fn think_before_s(&self, session: u32, turn: u32) -> f64 {
        if self.think_s.is_nan() || self.think_s <= 0.0 || !self.think_s.is_finite() {
            return 0.0;
        }
        let mut rng = Rng::new(mix(self.seed ^ 0x7417_4C5E, session) ^ u64::from(turn));
        self.think_s * rng.exponential()
    }

    /// Turn 0's prompt: the system prompt and the first turn's tokens, at least 1 token.
    pub fn first_prompt_tokens(&self) -> u32 {
        self.system_tokens.saturating_add(self.first_tokens).max(1)
    }

    /// The next turn's prompt: the previous prompt, its answer and the new tokens.
    pub fn next_prompt_tokens(&self, prompt_tokens: u32) -> u32 {
        prompt_tokens.saturating_add(self.output_tokens.max(1)).saturating_add(self.new_tokens)
    }
}
