//! A sweep's result: one point per load level (the median over seeds), each level's band over the
//! seeds, and goodput with how it relates to the rates swept. The types only; `sweep.rs` runs a
//! sweep and `seeds.rs` combines one per seed.

use serde::{Deserialize, Serialize};

use super::stats::{Attainment, RatePoint};

/// One level's attainment across seeds: the lowest and highest share of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeedBand {
    /// Requests meeting the targets: (min, max) over seeds.
    pub requests: (Attainment, Attainment),
    /// Tokens meeting the targets: (min, max) over seeds.
    pub tokens: (Attainment, Attainment),
    /// Seeds whose run at this level was overloaded.
    pub overloaded_seeds: u32,
}

/// How the goodput figure relates to the rates swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GoodputBound {
    /// Attainment crosses the target between two swept rates; goodput is that crossing.
    Exact,
    /// Every rate swept met the target: goodput is at least the highest.
    AtLeast,
    /// Even the lowest rate swept missed the target.
    BelowLowest,
}

/// A full sweep: one point per grid level (the median over seeds), and goodput.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    pub points: Vec<RatePoint>,
    /// Highest rate with attainment at or above the target and no overload, in requests/s (0 if
    /// none): the median over seeds of each seed's goodput.
    pub goodput_req_per_s: f64,
    /// The lowest and highest of the seeds' goodputs, in requests/s.
    pub goodput_range_req_per_s: (f64, f64),
    /// Each seed's goodput, in seed order, in requests/s.
    pub seed_goodputs_req_per_s: Vec<f64>,
    /// Per level (like `points`): attainment's min and max over seeds.
    pub bands: Vec<SeedBand>,
    /// Seeds swept per level.
    pub seeds: u32,
    /// The run at the goodput rate, if any rate met the target (the median seed's).
    pub at_goodput: Option<RatePoint>,
    pub bound: GoodputBound,
    /// Requests simulated in all, refinement included.
    pub requests_simulated: u64,
    /// KV tokens the pool holds.
    pub kv_pool_tokens: f64,
}
