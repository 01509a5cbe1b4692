//! The simulator's message protocol between the page and its Web Worker: a [`Request`] carries the
//! validated inputs, [`Reply`]s carry progress and then the sweep. Pure and native-testable; both
//! directions are postcard bytes ([`crate::codec`]).

use serde::{Deserialize, Serialize};

use crate::codec::{from_bytes, to_bytes};
use crate::core::sim::{chunk_tradeoff, sweep_with_progress, ChunkPoint, Counting, LoadMode, Sweep};
use crate::state::Inputs;

/// What the worker posts, as a string, once its message handler is installed; replies are bytes.
pub const READY: &str = "ready";

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
    /// Requests simulated for the sweep and the trade-off together.
    pub requests_simulated: u64,
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

/// Runs the sweep and the chunk trade-off the inputs describe, reporting progress after each level.
pub fn compute(inputs: &Inputs, progress: impl FnMut(u32, u32)) -> SimResult {
    let scenario = inputs.scenario;
    let c = inputs.sim.config(&scenario);
    let sweep = sweep_with_progress(&c, progress);
    // Half the goodput rate (or clients), so queues stay short and the budget's own effect shows.
    let chunk_level = match (c.load, sweep.at_goodput) {
        (LoadMode::Closed, _) => (f64::from(c.max_concurrency) / 2.0).ceil(),
        (LoadMode::Open, Some(p)) => p.rate_req_per_s / 2.0,
        (LoadMode::Open, None) => c.rate_max_req_per_s / 4.0,
    };
    let chunks = chunk_tradeoff(&c, chunk_level, &CHUNK_BUDGETS);
    let requests_simulated = sweep.requests_simulated + chunks.len() as u64 * u64::from(c.requests.max(1));
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
    }
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
