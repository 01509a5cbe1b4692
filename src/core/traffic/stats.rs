//! A trace's statistics ([`TraceStats`]: counts, duration and rate, length percentiles,
//! inter-arrival spread, the reuse an infinite prefix cache would find) and its content hash
//! ([`content_hash`]), which a link names when the trace is too large to carry.

use super::blocks::Fnv1a;
use super::RequestTrace;
use crate::sim::nearest_rank;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for block hashes (already well mixed, or Mooncake's small consecutive ids): one
/// multiply by the 64-bit golden ratio and a fold of the high half into the low, several times
/// faster than the default SipHash on the millions of blocks of a long trace.
#[derive(Default)]
struct BlockHasher(u64);

impl Hasher for BlockHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }
}

/// A set of block hashes.
type BlockSet = HashSet<u64, BuildHasherDefault<BlockHasher>>;

/// Mean and nearest-rank percentiles of a length, in tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthStats {
    pub mean: f64,
    /// The nearest-rank percentiles: the p-th is the sorted value at rank ⌈p/100 · n⌉ (1-based).
    pub p50: u32,
    pub p90: u32,
    pub p99: u32,
    pub max: u32,
}

/// What a trace holds, as the trace panel shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceStats {
    pub requests: u32,
    /// Distinct session ids (0 when the trace names none).
    pub sessions: u32,
    /// The last arrival (the first is at 0 s), in s.
    pub duration_s: f64,
    /// Mean arrival rate: the gaps' count over their sum, (requests − 1) / duration; `None` when
    /// every request arrives at once.
    pub rate_req_per_s: Option<f64>,
    pub prompt_tokens: LengthStats,
    pub output_tokens: LengthStats,
    /// The gaps between consecutive arrivals: mean (s) and coefficient of variation (population
    /// standard deviation over the mean; 1 for Poisson arrivals, 0 with fewer than two requests or
    /// no gap).
    pub inter_arrival_mean_s: f64,
    pub inter_arrival_cv: f64,
    /// The share of all prompt tokens that lie in blocks whose hash an earlier request already had:
    /// the hit rate of an infinite prefix cache. A block counts `block_tokens` tokens, but never
    /// more than the prompt has left from the block's start.
    pub reuse_ceiling: f64,
}

/// The nearest-rank `q` quantile of `sorted` (ascending, non-empty): [`nearest_rank`]'s value.
fn percentile(sorted: &[u32], q: f64) -> u32 {
    sorted[nearest_rank(q, sorted.len()) - 1]
}

fn length_stats(mut values: Vec<u32>) -> LengthStats {
    if values.is_empty() {
        return LengthStats { mean: 0.0, p50: 0, p90: 0, p99: 0, max: 0 };
    }
    values.sort_unstable();
    let mean = values.iter().map(|v| f64::from(*v)).sum::<f64>() / values.len() as f64;
    LengthStats {
        mean,
        p50: percentile(&values, 0.5),
        p90: percentile(&values, 0.9),
        p99: percentile(&values, 0.99),
        max: values[values.len() - 1],
    }
}

/// Mean and coefficient of variation of the gaps between consecutive arrivals.
fn inter_arrival(trace: &RequestTrace) -> (f64, f64) {
    let gaps: Vec<f64> = trace.requests.windows(2).map(|w| w[1].arrival_s - w[0].arrival_s).collect();
    if gaps.is_empty() {
        return (0.0, 0.0);
    }
    let n = gaps.len() as f64;
    let mean = gaps.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return (0.0, 0.0);
    }
    let variance = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n;
    (mean, variance.sqrt() / mean)
}

/// The share of prompt tokens in blocks an earlier request had ([`TraceStats::reuse_ceiling`]).
pub fn reuse_ceiling(trace: &RequestTrace) -> f64 {
    let mut seen = BlockSet::default();
    let (mut reused, mut total) = (0u64, 0u64);
    let block = u64::from(trace.block_tokens);
    for (i, r) in trace.requests.iter().enumerate() {
        let prompt = u64::from(r.prompt_tokens);
        total += prompt;
        let blocks = trace.request_blocks(i);
        for (j, hash) in blocks.iter().enumerate() {
            if seen.contains(hash) {
                reused += block.min(prompt.saturating_sub(j as u64 * block));
            }
        }
        seen.extend(blocks.iter().copied());
    }
    if total == 0 {
        0.0
    } else {
        reused as f64 / total as f64
    }
}

impl TraceStats {
    /// The statistics of `trace`.
    pub fn of(trace: &RequestTrace) -> TraceStats {
        let requests = trace.requests.len() as u32;
        let sessions: HashSet<u32> = trace.requests.iter().filter_map(|r| r.session).collect();
        let duration_s = trace.requests.last().map_or(0.0, |r| r.arrival_s);
        let rate_req_per_s = (duration_s > 0.0).then(|| f64::from(requests.saturating_sub(1)) / duration_s);
        let (inter_arrival_mean_s, inter_arrival_cv) = inter_arrival(trace);
        TraceStats {
            requests,
            sessions: sessions.len() as u32,
            duration_s,
            rate_req_per_s,
            prompt_tokens: length_stats(trace.requests.iter().map(|r| r.prompt_tokens).collect()),
            output_tokens: length_stats(trace.requests.iter().map(|r| r.output_tokens).collect()),
            inter_arrival_mean_s,
            inter_arrival_cv,
            reuse_ceiling: reuse_ceiling(trace),
        }
    }
}

/// An arrival as whole microseconds (the readers' resolution), as [`content_hash`] hashes it.
pub fn arrival_us(arrival_s: f64) -> u64 {
    (arrival_s * 1e6).round().max(0.0) as u64
}

/// FNV-1a 64 ([`Fnv1a`]) over the trace's normalized content, every integer little-endian: the
/// block size (4 bytes) and the request count (8 bytes); then for each request in order its arrival
/// in whole µs ([`arrival_us`], 8 bytes), prompt and output tokens (4 bytes each), its session (the
/// byte 0, or the byte 1 and the id's 4 bytes), its block count (4 bytes) and each block hash (8
/// bytes). The format the trace was read from is not hashed: the same requests read from two
/// formats are the same trace.
pub fn content_hash(trace: &RequestTrace) -> u64 {
    let mut h = Fnv1a::default().u32(trace.block_tokens).u64(trace.requests.len() as u64);
    for (i, r) in trace.requests.iter().enumerate() {
        h = h.u64(arrival_us(r.arrival_s)).u32(r.prompt_tokens).u32(r.output_tokens);
        h = match r.session {
            None => h.bytes(&[0]),
            Some(s) => h.bytes(&[1]).u32(s),
        };
        let blocks = trace.request_blocks(i);
        h = h.u32(blocks.len() as u32);
        for b in blocks {
            h = h.u64(*b);
        }
    }
    h.0
}
