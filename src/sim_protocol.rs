//! The simulator's message protocol between the page and its Web Worker: a [`Request`] carries the
//! validated inputs, [`Reply`]s carry progress and then the sweep. Pure and native-testable; both
//! directions are postcard bytes ([`crate::codec`]).

use serde::{Deserialize, Serialize};

use crate::codec::{from_bytes, to_bytes};
use crate::core::placement::{disaggregated, Disaggregated, PlacementMode, Split};
use crate::core::sim::{
    chunk_tradeoff, sweep_disaggregated, sweep_levels, sweep_with_progress, ChunkPoint, Counting,
    DisaggConfig, LoadMode, SimConfig, Sweep,
};
use crate::state::Inputs;

/// Step budgets the chunked-prefill trade-off compares, in tokens.
pub const CHUNK_BUDGETS: [u32; 7] = [128, 256, 512, 1024, 2048, 4096, 8192];

/// What the page needs to draw a finished sweep, as it was configured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimResult {
    pub sweep: Sweep,
    /// The same load run at each of [`CHUNK_BUDGETS`].
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

/// A worker's reply to request `seq`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    Progress { seq: u32, done: u32, total: u32 },
    Done { seq: u32, result: Box<SimResult> },
}

/// Page -> worker: sweep the state `inputs` describes; every reply names `seq`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub seq: u32,
    pub inputs: Inputs,
}

/// A request as posted.
pub fn encode_request(request: &Request) -> Vec<u8> {
    to_bytes(request)
}

/// A posted request; bytes that are not one are request 0 of the default state.
pub fn decode_request(bytes: &[u8]) -> Request {
    from_bytes(bytes).unwrap_or(Request { seq: 0, inputs: Inputs::default() })
}

/// Runs the sweep and the chunk trade-off the inputs describe (and, disaggregated under open load,
/// the split's sweep), reporting progress after each level.
pub fn compute(inputs: &Inputs, mut progress: impl FnMut(u32, u32)) -> SimResult {
    let scenario = inputs.scenario;
    let c = inputs.sim.config(&scenario);
    let place = (inputs.placement.mode == PlacementMode::Disaggregated && c.load == LoadMode::Open)
        .then(|| DisaggConfig::new(&c, &inputs.placement.split, inputs.sim.cap));
    let own = sweep_levels(&c);
    let extra =
        place.map_or(0, |d| sweep_levels(&SimConfig { rate_max_req_per_s: d.rate_max_req_per_s, ..c }));
    let sweep = sweep_with_progress(&c, |done, _| progress(done, own + extra));
    let placement = place.and_then(|d| placement_sim(&c, &d, |done, _| progress(own + done, own + extra)));
    // Half the goodput rate (or clients), so queues stay short and the budget's own effect shows.
    let chunk_level = match (c.load, sweep.at_goodput) {
        (LoadMode::Closed, _) => (f64::from(c.max_concurrency) / 2.0).ceil(),
        (LoadMode::Open, Some(p)) => p.rate_req_per_s / 2.0,
        (LoadMode::Open, None) => c.rate_max_req_per_s / 4.0,
    };
    let chunks = chunk_tradeoff(&c, chunk_level, &CHUNK_BUDGETS);
    let requests_simulated = sweep.requests_simulated
        + chunks.len() as u64 * u64::from(c.requests.max(1))
        + placement.as_ref().map_or(0, |p| p.sweep.requests_simulated);
    SimResult {
        chunks,
        requests_simulated,
        sweep,
        chunk_level,
        attainment_target: c.attainment_target,
        counting: c.counting,
        load: c.load,
        cap: c.max_concurrency,
        rate_max_req_per_s: c.rate_max_req_per_s,
        placement,
    }
}

/// The split's sweep and its per-GPU reading.
fn placement_sim(c: &SimConfig, d: &DisaggConfig, progress: impl FnMut(u32, u32)) -> Option<PlacementSim> {
    Some(PlacementSim {
        split: d.split,
        decode_cap: d.decode_cap,
        gpus: d.gpus(),
        colocated_gpus: c.scenario.tp.max(1),
        sweep: sweep_disaggregated(c, d, progress)?,
        analytic: disaggregated(&c.scenario, &d.split),
    })
}

/// Answers one request: `post` receives each encoded progress reply, then the result.
pub fn respond(request: &Request, mut post: impl FnMut(Vec<u8>)) {
    let Request { seq, inputs } = *request;
    let result = compute(&inputs, |done, total| post(encode(&Reply::Progress { seq, done, total })));
    post(encode(&Reply::Done { seq, result: Box::new(result) }));
}

/// A reply as bytes (empty if it could not be encoded, which decodes to `None`).
pub fn encode(reply: &Reply) -> Vec<u8> {
    to_bytes(reply)
}

pub fn decode(bytes: &[u8]) -> Option<Reply> {
    from_bytes(bytes)
}
