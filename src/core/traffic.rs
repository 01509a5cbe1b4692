//! Recorded and multi-turn traffic: a trace's requests as the readers normalize them (arrival,
//! lengths, session, prefix blocks), and what is built on them: the trace's statistics, block
//! hashes for sessions, the KV block cache with its offload tier, routing across replicas and the
//! fleet run that replays them.
//!
//! Every trace format reads into one [`RequestTrace`]: requests sorted by arrival, the first at
//! t = 0, each with the hashes of its prompt's full blocks of [`RequestTrace::block_tokens`] tokens
//! (the Mooncake trace's `hash_ids`, or synthesized: a session's context grows append-only, so its
//! block i is the same block in every later turn). Two requests share a prefix block exactly when
//! their hash chains agree up to it.

pub mod blocks;
pub mod stats;

use serde::{Deserialize, Serialize};

/// The file format a trace was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceFormat {
    /// Mooncake's published JSON lines: `timestamp` (ms), `input_length`, `output_length`,
    /// `hash_ids` (512-token blocks).
    Mooncake,
    /// The Azure LLM inference trace CSV: `TIMESTAMP`, `ContextTokens`, `GeneratedTokens`.
    Azure,
    /// BurstGPT's CSV: `Timestamp` (s), `Request tokens`, `Response tokens`.
    BurstGpt,
    /// A plain CSV or JSON lines of arrival time, prompt and output tokens, optionally a session id
    /// and a prefix or block hashes.
    Plain,
}

/// One recorded request, normalized.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRequest {
    /// Arrival from the trace's first request, in s.
    pub arrival_s: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// The session (conversation) it belongs to, if the trace names one.
    pub session: Option<u32>,
    /// Its prompt's block hashes are `RequestTrace::blocks[blocks_start..blocks_start + blocks_len]`.
    pub blocks_start: u32,
    pub blocks_len: u32,
}

/// A whole trace, validated: at least one request, sorted by arrival, the first at 0 s, every
/// length at least 1 token, every block range inside `blocks`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestTrace {
    pub format: TraceFormat,
    /// Tokens per prefix block (512 for Mooncake).
    pub block_tokens: u32,
    pub requests: Vec<TraceRequest>,
    /// Every request's block hashes, back to back.
    pub blocks: Vec<u64>,
}

impl RequestTrace {
    /// The block hashes of request `i`'s prompt, leading block first (empty when out of range).
    pub fn request_blocks(&self, i: usize) -> &[u64] {
        let Some(r) = self.requests.get(i) else { return &[] };
        let start = r.blocks_start as usize;
        self.blocks.get(start..start + r.blocks_len as usize).unwrap_or(&[])
    }
}
