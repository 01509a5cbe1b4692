//! The simulator's message protocol between the page and its pool of Web Workers, and the one place
//! a [`SimResult`] is assembled. A request runs in two rounds: [`Job::Seeds`] to every worker (each
//! sweeps a contiguous block of the seeds and replies with its per-seed sweeps, uncombined), then,
//! once the page has combined them in seed order, [`Job::SecondRound`] to every worker (each runs a block of
//! the step budgets at half the combined goodput; one runs the disaggregated sweep, see [`second_round`]).
//! The parts assemble into exactly what [`compute`] returns on one thread. Pure and native-testable;
//! both directions are postcard bytes ([`crate::protocol::codec`]).

mod second_round;

pub use second_round::{join_second_round, second_round, second_round_parts_for, SecondRoundPart};

use serde::{Deserialize, Serialize};

use crate::core::placement::{Disaggregated, Split};
use crate::core::plan::SimPlan;
use crate::core::sim::{
    combine_seed_sweeps, seed_count, seed_sweeps, shard_seeds, sweep_levels, sweep_with_progress, ChunkPoint,
    Counting, DisaggConfig, LoadMode, RatePoint, SimConfig, Sweep,
};
use crate::core::traffic::FleetRow;
use crate::protocol::codec::{from_bytes, to_bytes, Numbered};

/// Step budgets the chunked-prefill trade-off compares, in tokens.
pub const CHUNK_BUDGETS: [u32; 7] = [128, 256, 512, 1024, 2048, 4096, 8192];
/// The most workers one sweep's seeds (and its second round's budgets) are split over.
pub const SHARDS_MAX: u8 = 4;

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

/// Page -> worker: one job of request `seq`; every reply names `seq`. Every job of a request
/// carries the same [`SimPlan`], derived once on the page (`state::Inputs::sim_plan`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// Sweep shard `shard` of `shards` of the plan's seeds ([`shard_seeds`]).
    Seeds { seq: u32, plan: SimPlan, shard: u8, shards: u8 },
    /// Part `part` of `parts` of the goodput-dependent rest ([`second_round`]): a block of the step
    /// budgets at `chunk_level`, or the disaggregated sweep when the plan has one.
    SecondRound { seq: u32, plan: SimPlan, chunk_level: f64, part: u8, parts: u8 },
}

/// Which job a progress reply counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    Seeds(u8),
    SecondRound(u8),
}

/// A worker's reply to a job of request `seq`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SimReply {
    /// `done` of the part's `total` load levels are run.
    Progress { seq: u32, part: Part, done: u32, total: u32 },
    /// The shard's per-seed sweeps, in seed order, not combined.
    SeedSweeps { seq: u32, shard: u8, sweeps: Vec<Sweep> },
    /// Second-round part `part`'s budgets, in budget order, and the split's sweep if it ran it.
    SecondRound { seq: u32, part: u8, ran: SecondRoundPart },
}

impl Job {
    /// The request this job belongs to.
    pub fn seq(&self) -> u32 {
        match self {
            Job::Seeds { seq, .. } | Job::SecondRound { seq, .. } => *seq,
        }
    }
}

impl SimReply {
    /// The request this answers.
    pub fn seq(&self) -> u32 {
        match self {
            SimReply::Progress { seq, .. }
            | SimReply::SeedSweeps { seq, .. }
            | SimReply::SecondRound { seq, .. } => *seq,
        }
    }
}

/// The first round of request `seq`: one [`Job::Seeds`] per shard, in shard order.
pub fn seed_jobs(seq: u32, plan: &SimPlan, shards: u8) -> Vec<Job> {
    (0..shards).map(|shard| Job::Seeds { seq, plan: plan.clone(), shard, shards }).collect()
}

/// The second round of request `seq`, at `chunk_level`: one [`Job::SecondRound`] per part, in part order.
pub fn second_round_jobs(seq: u32, plan: &SimPlan, chunk_level: f64, parts: u8) -> Vec<Job> {
    (0..parts).map(|part| Job::SecondRound { seq, plan: plan.clone(), chunk_level, part, parts }).collect()
}

impl Numbered for Job {
    fn seq(&self) -> u32 {
        Job::seq(self)
    }
}

impl Numbered for SimReply {
    fn seq(&self) -> u32 {
        SimReply::seq(self)
    }
}

/// A job as posted.
pub fn encode_job(job: &Job) -> Vec<u8> {
    to_bytes(job)
}

/// A posted job, if the bytes are one.
pub fn decode_job(bytes: &[u8]) -> Option<Job> {
    from_bytes(bytes)
}

/// Load levels a request runs at most: every seed's sweep plus the disaggregated sweep's.
pub fn levels_total(plan: &SimPlan) -> u32 {
    let c = &plan.config;
    let split_levels =
        |d: DisaggConfig| sweep_levels(&SimConfig { rate_max_req_per_s: d.rate_max_req_per_s, ..c.clone() });
    sweep_levels(c) + plan.placement.map_or(0, split_levels)
}

/// Shards a request is split over with `workers` workers: min(workers, seeds, [`SHARDS_MAX`]), at least 1.
pub fn shards_for(plan: &SimPlan, workers: usize) -> u8 {
    let seeds = seed_count(&plan.config) as usize;
    workers.min(seeds).min(usize::from(SHARDS_MAX)).max(1) as u8
}

/// Runs the sweep and the chunk trade-off the plan describes (and, if it has one, the split's
/// sweep) on this thread, reporting progress after each level: what the shards'
/// [`combine_shards`] and the [`second_round`]'s parts ([`join_second_round`]) assemble to.
pub fn compute(plan: &SimPlan, mut progress: impl FnMut(u32, u32)) -> SimResult {
    let (own, all) = (sweep_levels(&plan.config), levels_total(plan));
    let sweep = sweep_with_progress(&plan.config, |done, _| progress(done, all));
    let level = chunk_level(plan, &sweep);
    let whole = second_round(plan, level, 0, 1, |done, _| progress(own + done, all));
    assemble(plan, sweep, level, whole)
}

/// The per-seed sweeps of shard `shard` of `shards`.
pub fn shard_sweeps(plan: &SimPlan, shard: u8, shards: u8, progress: impl FnMut(u32, u32)) -> Vec<Sweep> {
    let c = &plan.config;
    seed_sweeps(c, shard_seeds(seed_count(c), u32::from(shard), u32::from(shards)), progress)
}

/// Every shard's per-seed sweeps, in shard order, combined into the sweep shown.
pub fn combine_shards(plan: &SimPlan, shards: Vec<Vec<Sweep>>) -> Sweep {
    combine_seed_sweeps(&plan.config, shards.into_iter().flatten().collect())
}

/// The load the chunk trade-off runs at: half the goodput rate (open; a quarter of the top rate
/// without one) or half the cap in clients (closed), so queues stay short and the budget shows.
pub fn chunk_level(plan: &SimPlan, sweep: &Sweep) -> f64 {
    let c = &plan.config;
    match (c.load, sweep.at_goodput) {
        (LoadMode::Closed, _) => (f64::from(c.max_concurrency) / 2.0).ceil(),
        (LoadMode::Open, Some(p)) => p.rate_req_per_s / 2.0,
        (LoadMode::Open, None) => c.rate_max_req_per_s / 4.0,
    }
}

/// The one place a [`SimResult`] is put together from its parts.
pub fn assemble(plan: &SimPlan, sweep: Sweep, chunk_level: f64, second: SecondRoundPart) -> SimResult {
    let SecondRoundPart { chunks, placement, recorded, fleet } = second;
    let c = &plan.config;
    let replays = chunks.len() as u64 + u64::from(recorded.is_some());
    let requests_simulated = sweep.requests_simulated
        + replays * u64::from(c.requests_per_level())
        + placement.as_ref().map_or(0, |p| p.sweep.requests_simulated)
        + fleet.iter().flatten().map(|row| u64::from(row.report.requests)).sum::<u64>();
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
        recorded,
        requests_per_level: c.requests_per_level(),
        fleet,
    }
}

/// Answers one job: `post` receives each encoded progress reply (paced by [`paced`] on the clock
/// `now_ms`), then the job's result.
pub fn respond(job: &Job, now_ms: impl FnMut() -> f64, mut post: impl FnMut(Vec<u8>)) {
    let (seq, part) = match *job {
        Job::Seeds { seq, shard, .. } => (seq, Part::Seeds(shard)),
        Job::SecondRound { seq, part, .. } => (seq, Part::SecondRound(part)),
    };
    let mut tick = paced(now_ms, |done, total| post(encode(&SimReply::Progress { seq, part, done, total })));
    let reply = match job {
        &Job::Seeds { ref plan, shard, shards, .. } => {
            SimReply::SeedSweeps { seq, shard, sweeps: shard_sweeps(plan, shard, shards, &mut tick) }
        }
        &Job::SecondRound { ref plan, chunk_level, part, parts, .. } => {
            SimReply::SecondRound { seq, part, ran: second_round(plan, chunk_level, part, parts, &mut tick) }
        }
    };
    drop(tick);
    post(encode(&reply));
}

/// Progress replies one job posts at most, besides the one that reaches its total: each costs the
/// page a message on the main thread, while the workers hold every core.
pub const PROGRESS_POSTS_MAX: u32 = 16;

/// A job's progress replies are at least this far apart (besides the one that reaches its total),
/// in ms of the worker's clock: a default sweep's job lasts about 50-100 ms, so it posts one or two.
pub const PROGRESS_EVERY_MS: f64 = 50.0;

/// `post(done, total)` only when `done` has moved on by ⌈total / [`PROGRESS_POSTS_MAX`]⌉ levels
/// and `now_ms()` by [`PROGRESS_EVERY_MS`] since the last post (or the job's start), or `done`
/// reached `total`.
fn paced(mut now_ms: impl FnMut() -> f64, mut post: impl FnMut(u32, u32)) -> impl FnMut(u32, u32) {
    let (mut posted, mut posted_ms) = (0, now_ms());
    move |done, total| {
        if done >= total {
            return post(done, total);
        }
        if done >= posted + total.div_ceil(PROGRESS_POSTS_MAX).max(1) {
            let now = now_ms();
            if now - posted_ms >= PROGRESS_EVERY_MS {
                (posted, posted_ms) = (done, now);
                post(done, total);
            }
        }
    }
}

/// A reply as bytes (empty if it could not be encoded, which decodes to `None`).
pub fn encode(reply: &SimReply) -> Vec<u8> {
    to_bytes(reply)
}

pub fn decode(bytes: &[u8]) -> Option<SimReply> {
    from_bytes(bytes)
}
