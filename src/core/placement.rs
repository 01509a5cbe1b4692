//! Where prefill runs: colocated with decode on one replica (chunked or unchunked), or
//! disaggregated onto x prefill instances and y decode instances; each placement's highest rate
//! inside both targets, per GPU, from the same step cost, so all are compared on the same targets.
//!
//! Analytic and steady-state: Poisson arrivals, every running sequence at the scenario's context,
//! prompts of [`Scenario::prompt_tokens`]; TTFT and TPOT read at the page's attainment target
//! ([`percentile`]: M/G/1 prompt queues, the spread of prompt steps and batch inside an answer).
//! Which placement wins is the model's finding for the scenario, not a tuning target.

pub mod colocated;
mod disaggregated;
pub mod percentile;
mod probe;
pub mod queue;

use serde::{Deserialize, Serialize};

use crate::scenario::Scenario;
use crate::url_id::UrlId;
pub use colocated::chunked_best;
use colocated::{best_rate, unchunked_probe};
pub use disaggregated::{
    beats, beats_per_gpu, best_split, combine, decode_parallel, decode_side, decode_side_of, decode_spread,
    disaggregated, kv_transfer_s, prefill_side, prefill_side_of, sides, split_rates, DecodeSide, PrefillSide,
};
pub use percentile::Percentile;

/// Instances per side offered by the placement control.
pub const INSTANCES_MAX: u32 = 8;
/// GPUs per side (instances x TP) the best-split search considers, as the configuration search did
/// before parallelism (`core::search::split::SideBound::TP_ONLY`).
pub const GPUS_PER_SIDE_MAX: u32 = 8;

/// Where prefill runs (the placement control): with decode on every replica, or on instances of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlacementMode {
    #[default]
    Colocated,
    Disaggregated,
}

impl UrlId for PlacementMode {
    const VARIANTS: &'static [PlacementMode] = &[PlacementMode::Colocated, PlacementMode::Disaggregated];

    fn url_id(self) -> &'static str {
        match self {
            PlacementMode::Colocated => "colo",
            PlacementMode::Disaggregated => "disagg",
        }
    }
}

/// What stops a placement's rate from rising further.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Binds {
    /// Nothing at this rate (an operating point inside every target).
    Nothing,
    Tpot,
    Ttft,
    KvPool,
    /// The decodes and the prompts' tokens no longer fit the step token budget.
    StepBudget,
    /// The load exceeds what the GPUs can do at all (the steady state runs away).
    Capacity,
    /// Disaggregated: the prefill instances cap the system's rate.
    PrefillSide,
    /// Disaggregated: the decode instances cap the system's rate.
    DecodeSide,
}

/// A colocated replica's steady state at one rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Operating {
    pub rate_req_per_s: f64,
    /// Sequences decoding on average (Little's law), in sequences.
    pub batch: f64,
    /// TPOT at the attainment target's percentile; `None` where the steady state runs away (the
    /// load exceeds what the GPUs can do), in s.
    pub tpot_s: Option<f64>,
    /// TTFT at the attainment target's percentile; `None` where the prompt queue grows without
    /// bound, in s.
    pub ttft_s: Option<f64>,
    /// The mean TPOT, in s.
    pub tpot_mean_s: Option<f64>,
    /// The mean TTFT, in s.
    pub ttft_mean_s: Option<f64>,
    /// The first target or limit this point misses ([`Binds::Nothing`] if none).
    pub binds: Binds,
}

impl Operating {
    fn overloaded(binds: Binds) -> Operating {
        Operating {
            rate_req_per_s: 0.0,
            batch: 0.0,
            tpot_s: None,
            ttft_s: None,
            tpot_mean_s: None,
            ttft_mean_s: None,
            binds,
        }
    }
}

/// The disaggregated split: x prefill instances of TP_p GPUs, y decode instances of TP_d GPUs,
/// and the bandwidth the KV of each prompt crosses from one to the other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Split {
    pub prefill_instances: u32,
    pub prefill_tp: u32,
    pub decode_instances: u32,
    pub decode_tp: u32,
    /// The KV transfer's bandwidth, in B/s; `None`: the GPU's interconnect (per direction).
    pub link_bytes_per_s: Option<f64>,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            prefill_instances: 1,
            prefill_tp: 1,
            decode_instances: 1,
            decode_tp: 1,
            link_bytes_per_s: None,
        }
    }
}

/// A disaggregated system's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disaggregated {
    /// One prompt's prefill on a prefill instance, in s.
    pub prefill_s: f64,
    /// One prompt's KV (the whole sequence, all heads) over the link, in s.
    pub transfer_s: f64,
    /// One prefill instance's highest rate with TTFT's p-quantile inside the target, in requests/s.
    pub prefill_rate_req_per_s: f64,
    /// The batch a decode instance runs: the largest within its KV pool whose TPOT p-quantile meets
    /// the target (no prefill in its steps).
    pub decode_batch: u32,
    /// One decode instance's rate at that batch: B / (output x step(B)), in requests/s.
    pub decode_rate_req_per_s: f64,
    /// The TPOT p-quantile a decode instance gives at that batch; `None` when no batch fits, in s.
    pub decode_tpot_s: Option<f64>,
    /// TTFT's p-quantile at the system's rate, each prefill instance taking rate / x; `None` when
    /// its queue grows without bound, in s.
    pub ttft_s: Option<f64>,
    /// The mean TTFT there, in s.
    pub ttft_mean_s: Option<f64>,
    /// min(x x prefill rate, y x decode rate), in requests/s.
    pub rate_req_per_s: f64,
    /// x x TP_p + y x TP_d.
    pub gpus: u32,
    pub goodput_per_gpu_req_per_s: f64,
    /// [`Binds::PrefillSide`] or [`Binds::DecodeSide`].
    pub binds: Binds,
    /// The x : y that balances the sides: decode rate / prefill rate prefill instances per decode
    /// instance (0 when a side serves nothing).
    pub balanced_prefill_per_decode: f64,
}

/// The three placements side by side on one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The colocated replica with chunked prefill at its highest rate inside the targets.
    pub chunked: Operating,
    /// The same replica with whole-prompt prefill steps (DistServe's baseline).
    pub unchunked: Operating,
    pub disaggregated: Disaggregated,
    /// The split with the most goodput per GPU up to 8 GPUs a side, on the same link ([`best_split`]).
    pub best_split: Option<(Split, Disaggregated)>,
    /// GPUs of one colocated replica (its TP).
    pub colocated_gpus: u32,
}

impl Comparison {
    /// Goodput per GPU of a colocated operating point, in requests/s per GPU.
    pub fn per_gpu(&self, point: &Operating) -> f64 {
        point.rate_req_per_s / f64::from(self.colocated_gpus.max(1))
    }
}

/// Colocated (chunked at `chunk_tokens`, and unchunked) against `split`, on `scenario`'s targets
/// at `percentile`.
pub fn compare(scenario: &Scenario, chunk_tokens: u32, split: &Split, percentile: &Percentile) -> Comparison {
    Comparison {
        chunked: chunked_best(scenario, chunk_tokens, percentile),
        unchunked: best_rate(scenario, |r, probe| unchunked_probe(scenario, r, probe, percentile)),
        disaggregated: disaggregated(scenario, split, percentile),
        best_split: best_split(scenario, split.link_bytes_per_s, percentile),
        colocated_gpus: scenario.parallel.gpus(),
    }
}
