//! The simulator's message protocol between the page and its pool of Web Workers: the closed sets of
//! jobs ([`Job`]) and replies ([`SimReply`]), their postcard bytes ([`crate::protocol::codec`]), and
//! [`respond`], the worker's answer to a job. A request runs in two rounds: [`Job::Seeds`] to every
//! worker (each sweeps a contiguous block of the seeds and replies with its per-seed sweeps,
//! uncombined), then, once the page has combined them in seed order, [`Job::SecondRound`] to every
//! worker (each runs a part of the goodput-dependent rest). What each part runs, and how the parts
//! assemble into exactly the one-thread result, is the model's: [`crate::core::plan`]. Pure and
//! native-testable.

use serde::{Deserialize, Serialize};

use crate::core::plan::{second_round, shard_sweeps, SecondRoundPart, SimPlan};
use crate::core::sim::Sweep;
use crate::protocol::codec::{from_bytes, to_bytes, Numbered};

/// Page -> worker: one job of request `seq`; every reply names `seq`. Every job of a request
/// carries the same [`SimPlan`], derived once on the page (`state::Inputs::sim_plan`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// Sweep shard `shard` of `shards` of the plan's seeds ([`shard_sweeps`]).
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
