//! One replica with continuous batching, stepped until every request has left: admission under a
//! concurrency cap and the KV pool, chunked prefill, decode, and preemption by recompute.
//!
//! Decodes are tracked in aggregate (how many run, how many KV tokens they hold) with a calendar of
//! finishing steps ([`finish`]), so a step costs O(1) plus its prefill chunks and the events it ends; a request
//! costs O(log n). That is what lets a full sweep run between two frames.
//!
//! Steps are priced on [`StepLines`] (the per-operator step as the sum of its parts: an intercept
//! by the step's tokens, the decodes' held KV times one slope, the prompts' attention; equal to
//! [`StepCost::step_s`] up to rounding), and stretches where the batch cannot change run in loops
//! of their own: decode-only steps ([`decode_run`]) and steps that give the whole budget to the
//! front prompt ([`prefill_run`]).
//!
//! With speculative decoding ([`draws`]) each decode step keeps 1 + the leading accepted drafts of
//! each sequence (each accepted with probability alpha, at most k + 1), drawn at random: when a
//! decode (re)starts the stepper draws how many steps its remaining tokens take, so the finishing heap
//! still works, and its KV grows by remaining / steps tokens per step (the aggregate growth is kept
//! on start, finish and preemption).
//!
//! The requests' lifecycle (arrivals, closed load's refill, admission's verdict and push, the
//! prompts' budgeted chunks, departures and the trace's records) is [`lifecycle`]'s, which the DP
//! ranks share. A replica of DP > 1 data-parallel ranks runs in [`ranks`] instead (each rank its
//! own batch, pool and queue, every step paced by the slowest rank); DP = 1 never reaches it.

use std::collections::VecDeque;

use super::cost::{GemmMemo, StepCost, StepLines};
use super::workload::Request;

/// One replica's scheduler knobs for one run (the stepper's; vLLM's names in parentheses).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplicaConfig {
    /// Token budget of one step: decodes first, then prompt chunks (vLLM's max_num_batched_tokens).
    pub chunk_tokens: u32,
    /// Most sequences running at once, prefilling or decoding (vLLM's max_num_seqs), at least 1.
    pub max_concurrency: u32,
    /// KV tokens the pool holds (per GPU, in held-token units).
    pub kv_pool_tokens: f64,
    /// The idealized limit: prompts cost nothing and give their first token on admission.
    pub prefill_free: bool,
    /// A decode token whose step takes at most this long counts as on time, in s.
    pub tpot_target_s: f64,
}

/// How load is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// Requests arrive at their own times whatever the server does (a queue can form).
    Open,
    /// `concurrency` clients each send their next request when the last one finishes.
    Closed { concurrency: u32 },
}

/// What one run measured, per request (indexed like the requests) and in total.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Arrival time of each request, in s (closed loop: when its client sent it).
    pub arrival_s: Vec<f64>,
    /// Arrival to first token, in s; infinite for a request that was never served.
    pub ttft_s: Vec<f64>,
    /// (finish - first token) / (output - 1), in s; 0 for one-token outputs, infinite if unserved.
    pub tpot_s: Vec<f64>,
    /// Arrival to departure (last token, or refusal), in s.
    pub latency_s: Vec<f64>,
    /// Time of the last departure, in s.
    pub duration_s: f64,
    /// Integral of requests in the system (queued or running) over time, in request-s.
    pub in_system_integral_s: f64,
    /// Integral of the decode batch over time, in sequence-s.
    pub batch_integral_s: f64,
    pub steps: u64,
    pub preemptions: u32,
    /// Requests refused because alone they outgrow the KV pool.
    pub rejected: u32,
    pub decode_tokens: u64,
    /// Decode tokens whose step met the TPOT target.
    pub decode_tokens_on_time: u64,
    /// Most KV tokens ever held or reserved at once (never above the pool).
    pub kv_tokens_peak: f64,
    /// Largest decode batch of any step.
    pub batch_peak: u32,
    /// Sum over steps of the decodes in the step (sequence-steps): decode_tokens / this is the
    /// mean tokens kept per sequence per step (1 without speculation, about E with it).
    pub decode_seq_steps: u64,
}

/// A decoding sequence's bookkeeping, by request id.
#[derive(Clone, Copy, Debug, Default)]
struct Seq {
    /// Tokens generated so far when its decode (re)started, the first token included.
    generated: u32,
    /// KV tokens held when its decode (re)started.
    held0: u32,
    start_step: u64,
    /// Tokens kept per step until it finishes: remaining / steps drawn (1 without speculation).
    rate: f64,
    /// Bumped on preemption and on finishing: calendar and order entries of an older epoch are stale.
    epoch: u32,
}

/// The replica's state while a run is stepped.
struct Stepper<'a> {
    /// Arrivals, clock and records ([`lifecycle`]).
    life: lifecycle::Lifecycle<'a>,
    server: ReplicaConfig,
    cost: StepCost,
    /// The mixed steps' GEMM groups by token count.
    gemm_memo: GemmMemo,
    /// Steps as lines in the held KV (None with speculation): what runs of steps are priced on.
    lines: Option<StepLines>,
    next_queued: usize,
    preempted: VecDeque<(u32, u32)>,
    prompts: lifecycle::Prompts,
    seqs: Vec<Seq>,
    /// Decodes by the step of their last token.
    finishing: finish::Finishing,
    /// Decodes in the order they (re)started, latest last: preemption takes from the back.
    order: Vec<(u32, u32)>,
    n_dec: u32,
    /// KV tokens the decodes read: their whole contexts, a shared prefix's cached tokens included.
    held_dec: f64,
    /// The decodes' cached prefix tokens (in held_dec, but held once by the replica, not the pool).
    cached_dec: f64,
    /// Speculation's draws and its aggregates (None when off).
    spec: Option<draws::SpecState>,
}

/// Runs `reqs` (sorted by arrival for open load) through one replica until all have left; a
/// replica of DP > 1 data-parallel ranks runs them as its ranks ([`run_ranks`]).
pub fn run(reqs: &[Request], server: ReplicaConfig, cost: StepCost, load: Load) -> Trace {
    if cost.dp_ranks() > 1 {
        return run_ranks(reqs, server, cost, load, cost.dp_ranks(), |_| {}).trace;
    }
    let mut stepper = Stepper {
        life: lifecycle::Lifecycle::new(reqs, load),
        server: ReplicaConfig { max_concurrency: server.max_concurrency.max(1), ..server },
        cost,
        gemm_memo: GemmMemo::default(),
        lines: StepLines::new(&cost),
        next_queued: 0,
        preempted: VecDeque::new(),
        prompts: lifecycle::Prompts::new(),
        seqs: vec![Seq::default(); reqs.len()],
        finishing: finish::Finishing::new(reqs.iter().map(|r| u64::from(r.output_tokens)).max().unwrap_or(0)),
        order: Vec::new(),
        n_dec: 0,
        held_dec: 0.0,
        cached_dec: 0.0,
        spec: cost.spec.map(draws::SpecState::new),
    };
    stepper.drive();
    stepper.life.trace
}

impl Stepper<'_> {
    /// Steps until every request has departed (or a safety bound on steps is reached).
    fn drive(&mut self) {
        let max_steps = self.life.max_steps();
        self.life.release_initial();
        while self.life.running() && self.life.step < max_steps {
            self.admit();
            if self.n_dec == 0 && self.prompts.queue.is_empty() {
                let waiting = self.next_queued < self.life.arrived;
                if !self.life.idle_until_next_arrival(waiting) {
                    break;
                }
                continue;
            }
            self.make_room_to_grow();
            if self.prompts.queue.is_empty() && self.n_dec > 0 {
                self.run_decode_steps(max_steps);
            } else if self.front_outlasts_budget() {
                self.run_prefill_steps(max_steps);
            } else {
                self.run_step();
            }
        }
        self.life.trace.duration_s = self.life.clock_s;
        self.finish_spec_counts();
    }

    /// KV tokens held by decodes (less their cached prefixes) plus reserved for prefills.
    fn kv_in_use(&self) -> f64 {
        self.held_dec - self.cached_dec + self.prompts.reserved
    }

    /// Records the most KV tokens held or reserved so far.
    #[inline]
    fn note_kv_peak(&mut self) {
        let kv_tokens = self.kv_in_use();
        self.life.note_kv_peak(kv_tokens);
    }
}

mod admission;
mod decode_run;
mod draws;
mod fifo;
mod finish;
mod lifecycle;
mod prefill_run;
mod ranks;
mod step;

pub use ranks::{run_ranks, RankStep, RanksRun};
