//! A trace's requests as every reader normalizes them: [`RequestTrace`] (its invariants in its
//! doc) and [`TraceRequest`]. A leaf: the simulator replays it without naming the fleet.

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

impl TraceRequest {
    /// A request with no session and no block hashes (a trace that reuses nothing).
    pub fn unhashed(arrival_s: f64, prompt_tokens: u32, output_tokens: u32) -> TraceRequest {
        TraceRequest {
            arrival_s,
            prompt_tokens,
            output_tokens,
            session: None,
            blocks_start: 0,
            blocks_len: 0,
        }
    }
}

impl RequestTrace {
    /// A plain trace of `requests` without block hashes (16-token blocks, none used), as given:
    /// the caller keeps the invariants (sorted arrivals from 0 s, lengths of at least 1 token).
    pub fn unhashed(requests: Vec<TraceRequest>) -> RequestTrace {
        RequestTrace { format: TraceFormat::Plain, block_tokens: 16, requests, blocks: Vec::new() }
    }

    /// The block hashes of request `i`'s prompt, leading block first (empty when out of range).
    pub fn request_blocks(&self, i: usize) -> &[u64] {
        let Some(r) = self.requests.get(i) else { return &[] };
        let start = r.blocks_start as usize;
        self.blocks.get(start..start + r.blocks_len as usize).unwrap_or(&[])
    }

    /// The rate the trace was recorded at: (requests - 1) / (last arrival - first), in requests/s;
    /// None for one request or when every request arrives at once.
    pub fn recorded_rate_req_per_s(&self) -> Option<f64> {
        let last_s = self.requests.last()?.arrival_s;
        let first_s = self.requests.first()?.arrival_s;
        let span_s = last_s - first_s;
        (self.requests.len() > 1 && span_s.is_finite() && span_s > 0.0)
            .then(|| (self.requests.len() - 1) as f64 / span_s)
    }
}
