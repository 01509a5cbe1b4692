//! The simulator's message protocol between the page and its Web Worker: a request names a URL
//! state, replies carry progress and then the sweep. Pure and native-testable; encoded with postcard.

use serde::{Deserialize, Serialize};

use crate::core::sim::{chunk_tradeoff, sweep_with_progress, ChunkPoint, Counting, LoadMode, Sweep};
use crate::state::{from_query, Inputs};

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

/// A request as posted: the sequence number, a tab, then the query string.
pub fn encode_request(seq: u32, query: &str) -> String {
    format!("{seq}\t{query}")
}

/// Splits a posted request; a malformed one is request 0 of the default state.
pub fn decode_request(text: &str) -> (u32, &str) {
    let (seq, query) = text.split_once('\t').unwrap_or(("0", ""));
    (seq.parse().unwrap_or(0), query)
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

/// Answers one posted request: `post` receives each encoded progress reply, then the result.
pub fn respond(request: &str, mut post: impl FnMut(Vec<u8>)) {
    let (seq, query) = decode_request(request);
    let (inputs, _) = from_query(query);
    let result = compute(&inputs, |done, total| post(encode(&Reply::Progress { seq, done, total })));
    post(encode(&Reply::Done { seq, result: Box::new(result) }));
}

/// A reply as bytes (empty if it could not be encoded, which decodes to `None`).
pub fn encode(reply: &Reply) -> Vec<u8> {
    postcard::to_allocvec(reply).unwrap_or_default()
}

pub fn decode(bytes: &[u8]) -> Option<Reply> {
    postcard::from_bytes(bytes).ok()
}
