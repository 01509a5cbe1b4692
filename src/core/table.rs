//! The batch table as plain rows: which batches the page lists and what it says of each, unformatted.

use serde::{Deserialize, Serialize};

use super::goodput::{evaluate, BatchPoint};
use super::roofline::Analysis;
use super::scenario::Scenario;

/// The batches the worked example's argument walks through, always listed.
pub const LISTED_BATCHES: [u32; 6] = [1, 16, 32, 64, 96, 128];

/// One row of the batch table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchRow {
    pub point: BatchPoint,
    /// This is the reachable knee: the largest batch meeting both targets that the KV pool holds
    /// ([`Analysis::server_batch`]).
    pub is_knee: bool,
    /// This is the largest batch whose KV fits the pool.
    pub is_kv_pool: bool,
    /// The batch's KV fits the pool (a batch past the pool cannot run at all).
    pub fits_kv_pool: bool,
}

/// Rows for the listed batches plus the reachable knee and the KV-pool batch, ascending, without
/// repeats.
pub fn batch_table(scenario: &Scenario, analysis: &Analysis) -> Vec<BatchRow> {
    let mut batches: Vec<u32> = LISTED_BATCHES.to_vec();
    batches.extend([analysis.server_batch, analysis.kv_pool_batch]);
    batches.retain(|&b| b > 0);
    batches.sort_unstable();
    batches.dedup();
    batches.into_iter().map(|b| batch_row(scenario, analysis, b)).collect()
}

/// The row for batch `b`: its point and how it stands against the knee and the KV pool. A batch
/// past the pool cannot run, so it serves no goodput whatever its step time.
pub fn batch_row(scenario: &Scenario, analysis: &Analysis, b: u32) -> BatchRow {
    BatchRow {
        point: runnable(evaluate(scenario, b), analysis.kv_pool_batch),
        is_knee: b == analysis.server_batch,
        is_kv_pool: b == analysis.kv_pool_batch,
        fits_kv_pool: b <= analysis.kv_pool_batch,
    }
}

/// `rows` plus a [`batch_row`] for each batch of `extra` (above 0) not listed yet, in batch order:
/// the table with a hovered or marked batch shown among the others.
pub fn with_batches(
    rows: &[BatchRow],
    scenario: &Scenario,
    analysis: &Analysis,
    extra: &[u32],
) -> Vec<BatchRow> {
    let mut all = rows.to_vec();
    for &b in extra {
        if b > 0 && !all.iter().any(|r| r.point.batch == b) {
            all.push(batch_row(scenario, analysis, b));
        }
    }
    all.sort_by_key(|r| r.point.batch);
    all
}

/// `point`, with no goodput when its batch lies past a KV pool of `pool` sequences: the one place
/// the table and the charts learn that such a batch cannot run.
pub fn runnable(point: BatchPoint, pool: u32) -> BatchPoint {
    if point.batch <= pool {
        point
    } else {
        BatchPoint { goodput_req_per_s: 0.0, goodput_per_gpu_req_per_s: 0.0, ..point }
    }
}
