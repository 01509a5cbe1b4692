//! What a finished request is: the [`SimResult`] the page draws, and the [`PlacementSim`] beside it
//! (put together in one place, [`super::assemble`]).

use serde::{Deserialize, Serialize};

use crate::placement::{Disaggregated, Split};
use crate::sim::{ChunkPoint, Counting, LoadMode, RatePoint, Sweep};
use crate::traffic::FleetRow;

/// What the page needs to draw a finished sweep, as it was configured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimResult {
    pub sweep: Sweep,
    /// The same load run at each of [`CHUNK_BUDGETS`](super::CHUNK_BUDGETS).
    pub chunks: Vec<ChunkPoint>,
    /// The load the chunk trade-off ran at: half the goodput rate (open) or half the cap in clients
    /// (closed).
    pub chunk_level: f64,
    pub attainment_target: f64,
    pub counting: Counting,
    pub load: LoadMode,
    /// The concurrency cap in force.
    pub cap: u32,
    pub rate_max_req_per_s: f64,
    /// Requests simulated for the sweep, the trade-off and the placement's sweep together.
    pub requests_simulated: u64,
    /// The disaggregated sweep beside it: only with `place=disagg` and open load.
    pub placement: Option<PlacementSim>,
    /// The plan's trace replayed at its recorded rate (open load with a trace only).
    pub recorded: Option<RatePoint>,
    /// Requests each load level simulated (the trace's, with one).
    pub requests_per_level: u32,
    /// The fleet comparison: every routing policy, without and with the offload tier (`fleet=1`).
    pub fleet: Option<Vec<FleetRow>>,
}

/// The disaggregated split simulated on the same requests, and what reads it per GPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementSim {
    pub split: Split,
    /// Most sequences one decode instance runs.
    pub decode_cap: u32,
    /// x x TP_p + y x TP_d.
    pub gpus: u32,
    /// GPUs of one colocated replica (its TP).
    pub colocated_gpus: u32,
    /// The split swept over system rates (not per GPU).
    pub sweep: Sweep,
    /// The placement panel's analytic numbers for the same split, beside the simulated ones.
    pub analytic: Disaggregated,
}

impl PlacementSim {
    /// Simulated goodput per GPU of the colocated replica and of the split, in requests/s per GPU.
    pub fn goodputs_per_gpu(&self, colocated: &Sweep) -> (f64, f64) {
        (
            colocated.goodput_req_per_s / f64::from(self.colocated_gpus.max(1)),
            self.sweep.goodput_req_per_s / f64::from(self.gpus.max(1)),
        )
    }
}
