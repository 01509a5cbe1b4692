//! The open-loop serving simulator: one replica with continuous batching (or a disaggregated split
//! of prefill and decode instances), stepped on the same roofline as the analytic view, swept over
//! request rates to read SLO attainment and goodput.
//!
//! Pure and deterministic: the same config (seed included) gives the same sweep, bit for bit.

mod cost;
mod disagg;
mod rng;
mod seeds;
mod stats;
mod steady;
mod stepper;
mod sweep;
mod sweep_result;
mod workload;

pub use cost::{StepCost, StepLines, StepWork};
pub use disagg::{simulate_disaggregated, sweep_disaggregated, DisaggConfig};
pub use rng::Rng;
pub use seeds::{band, combine, median, median_point, shard_seeds, spread};
pub use stats::{nearest_rank, percentiles, summarize, summarize_after, Attainment, Percentiles, RatePoint};
pub use steady::{
    overloaded, served_below_offered, ttft_rising, ttft_thirds, warmup_requests, window_counts, MIN_MEASURED,
    OVERLOAD_SDS, TTFT_RISE_RATIO, TTFT_RISE_SHARE,
};
pub use stepper::{run, run_ranks, Load, RankStep, RanksRun, ReplicaConfig, Trace};
pub use sweep::{
    auto_rate_max, chunk_tradeoff, combine_seed_sweeps, kv_pool_tokens, seed_count, seed_sweeps, simulate,
    sweep, sweep_levels, sweep_with_progress, ChunkPoint,
};
pub use sweep_result::{GoodputBound, SeedBand, Sweep};
pub use workload::{draw_prefix_hits, requests, trace_requests, Arrivals, LengthDist, Lengths, Request};

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::placement::Percentile;
use super::scenario::Scenario;
use super::traffic::trace::RequestTrace;
use super::url_id::UrlId;

/// Open or closed load, as a benchmark would offer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoadMode {
    /// Arrivals at their own pace, swept over request rates: queues form past capacity.
    Open,
    /// A fixed number of clients, each waiting for its answer: swept over client counts.
    Closed,
}

/// What attainment counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Counting {
    /// Requests meeting both targets (DistServe).
    Requests,
    /// Tokens produced within their own target: the mistake that hides slow requests.
    Tokens,
}

impl UrlId for LoadMode {
    const VARIANTS: &'static [LoadMode] = &[LoadMode::Open, LoadMode::Closed];

    fn url_id(self) -> &'static str {
        match self {
            LoadMode::Open => "open",
            LoadMode::Closed => "closed",
        }
    }
}

impl UrlId for Counting {
    const VARIANTS: &'static [Counting] = &[Counting::Requests, Counting::Tokens];

    fn url_id(self) -> &'static str {
        match self {
            Counting::Requests => "requests",
            Counting::Tokens => "tokens",
        }
    }
}

/// Everything one sweep needs, validated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Model, GPU, precisions, mean lengths, targets and calibration.
    pub scenario: Scenario,
    pub arrivals: Arrivals,
    pub lengths: Lengths,
    /// Requests per simulated load level.
    pub requests: u32,
    pub seed: u64,
    /// Seeds per level (`seed`, `seed + 1`, ...), at least 1.
    pub seeds: u32,
    /// Step token budget for decodes plus prompt chunks.
    pub chunk_tokens: u32,
    /// Most sequences running at once.
    pub max_concurrency: u32,
    pub load: LoadMode,
    pub counting: Counting,
    /// Share of requests (or tokens) that must meet both targets, in (0, 1].
    pub attainment_target: f64,
    /// Highest rate swept, in requests/s.
    pub rate_max_req_per_s: f64,
    /// Load levels on the sweep's grid.
    pub rate_points: u32,
    /// The idealized limit: prompts cost nothing.
    pub prefill_free: bool,
    /// A recorded trace to replay instead of drawn requests: its arrivals (scaled in time to each
    /// swept rate) and its lengths; `arrivals`, `lengths`, `requests` and `seeds` are then unused.
    pub trace: Option<Arc<RequestTrace>>,
}

impl SimConfig {
    /// The analytic steady state's reading of this run: its attainment target over its lengths'
    /// spread, so the analytic numbers and the sweep count the same share of the same requests.
    pub fn percentile(&self) -> Percentile {
        Percentile { share: self.attainment_target, length_cv: self.lengths.cv() }
    }

    /// Requests each load level simulates: the trace's, else `requests` (at least 1).
    pub fn requests_per_level(&self) -> u32 {
        self.trace.as_ref().map_or(self.requests.max(1), |t| (t.requests.len() as u32).max(1))
    }
}
