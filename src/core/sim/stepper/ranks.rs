//! A replica's data-parallel ranks (DP > 1), as DP attention serves them: each rank has its own
//! running batch, its own KV pool (the replica's held-token pool / DP, as
//! [`crate::roofline::kv_pool_held_tokens`] is DP x one rank's), its own concurrency cap (the
//! replica's cap split as evenly as whole sequences allow, at least 1 per rank) and its own queue
//! with chunked prefill on a step budget of the server's / DP (at least 1 token). Both splits are
//! SGLang's under DP attention (its `server_args.py` divides `chunked_prefill_size` by the DP size,
//! and its running-request cap is per DP worker), so the replica's step still carries at most the
//! server's budget, as the analytic step assumes. An arriving request goes to the least-loaded rank: the fewest KV tokens held or
//! reserved plus tokens waiting in its queue (each waiting request's prompt and tokens generated so
//! far, less its cached prefix), ties to the lowest index; it stays there, preempted or not.
//!
//! Every rank steps together, one replica step (the MoE layers need every rank's tokens): the
//! step's time is the slowest rank's, [`StepCost::step_s_ranks`] of all ranks' work and that
//! rank's, the longest over the ranks (the experts and the all-to-all see every rank's tokens, the
//! attention and dense layers one rank's). The requests' lifecycle (arrivals, admission's verdict
//! and push, the prompts' chunks, departures, the trace) is the single stepper's own
//! ([`super::lifecycle`]), one for the replica and a prompt queue per rank; preemption takes the
//! latest-started decode as the stepper does. Decodes are tracked one by one and stepped one step at a time
//! (no runs, no lines), so DP > 1 is slower to simulate than DP = 1, which never comes here.
//! With speculative decoding each decode draws its kept tokens every step (1 + the leading
//! accepted drafts, at most k + 1 and what it has left).

mod step;

use std::collections::VecDeque;

use super::lifecycle::{own_tokens, Lifecycle, Prompts};
use super::{Load, ReplicaConfig, Trace};
use crate::sim::cost::{StepCost, StepWork};
use crate::sim::rng::Rng;
use crate::sim::workload::Request;

/// One replica step as the ranks ran it (what [`run_ranks`] shows its observer).
#[derive(Clone, Copy, Debug)]
pub struct RankStep<'a> {
    /// Each rank's work in the step, by rank.
    pub works: &'a [StepWork],
    /// Every rank's work together.
    pub total: StepWork,
    /// The step's time, the slowest rank's, in s.
    pub dt_s: f64,
    /// The slowest rank (the first of equals).
    pub slowest: usize,
}

/// What a run of ranks measured: the replica's trace and the requests each rank was sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RanksRun {
    pub trace: Trace,
    pub requests_per_rank: Vec<u32>,
}

/// A decoding sequence on a rank.
#[derive(Clone, Copy, Debug)]
struct Decode {
    id: u32,
    /// KV tokens it holds (its whole context, a cached prefix included).
    held: u32,
    /// Tokens generated so far, the first included.
    generated: u32,
    remaining: u32,
    /// Tokens it keeps in the current step (1 without speculation).
    kept: u32,
}

/// One DP rank's batch, pool and queue.
struct Rank {
    cap: usize,
    pool: f64,
    /// Requests waiting, as (id, tokens generated): the preempted at the front.
    waiting: VecDeque<(u32, u32)>,
    /// KV tokens the waiting requests would hold on admission.
    waiting_tokens: f64,
    prompts: Prompts,
    /// Decodes in the order they (re)started, latest last: preemption takes from the back.
    decodes: Vec<Decode>,
    held_dec: f64,
    cached_dec: f64,
    /// KV tokens the decodes add in the current step.
    growth: u32,
    /// Prompt chunks the current step gives.
    chunks: usize,
    requests: u32,
}

impl Rank {
    /// KV tokens held by decodes (less their cached prefixes) plus reserved for prefills.
    fn kv_in_use(&self) -> f64 {
        self.held_dec - self.cached_dec + self.prompts.reserved
    }

    /// The dispatch measure: KV in use plus the waiting requests' tokens.
    fn load(&self) -> f64 {
        self.kv_in_use() + self.waiting_tokens
    }

    fn idle(&self) -> bool {
        self.decodes.is_empty() && self.prompts.queue.is_empty()
    }
}

/// The ranks' state while a run is stepped.
struct Ranks<'a, F> {
    /// Arrivals, clock and records ([`super::lifecycle`]), the replica's.
    life: Lifecycle<'a>,
    server: ReplicaConfig,
    cost: StepCost,
    /// Each rank's step token budget: the server's / DP, at least 1.
    chunk_tokens: u32,
    dispatched: usize,
    ranks: Vec<Rank>,
    works: Vec<StepWork>,
    /// Speculation's (draft tokens, acceptance, draws), None when off.
    spec: Option<(u32, f64, Rng)>,
    observe: F,
}

/// Runs `reqs` (sorted by arrival for open load) through one replica of `dp` DP ranks (see the
/// module) until all have left, showing `observe` every step.
pub fn run_ranks(
    reqs: &[Request],
    server: ReplicaConfig,
    cost: StepCost,
    load: Load,
    dp: u32,
    observe: impl FnMut(&RankStep),
) -> RanksRun {
    let dp = dp.max(1);
    let cap = server.max_concurrency.max(1);
    let rank = |r: u32| Rank {
        cap: (cap / dp + u32::from(r < cap % dp)).max(1) as usize,
        pool: server.kv_pool_tokens / f64::from(dp),
        waiting: VecDeque::new(),
        waiting_tokens: 0.0,
        prompts: Prompts::new(),
        decodes: Vec::new(),
        held_dec: 0.0,
        cached_dec: 0.0,
        growth: 0,
        chunks: 0,
        requests: 0,
    };
    let mut ranks = Ranks {
        life: Lifecycle::new(reqs, load),
        server,
        cost,
        chunk_tokens: (server.chunk_tokens / dp).max(1),
        dispatched: 0,
        ranks: (0..dp).map(rank).collect(),
        works: vec![StepWork::default(); dp as usize],
        spec: cost.spec.map(|s| (s.draft_tokens, s.acceptance, Rng::new(s.seed))),
        observe,
    };
    ranks.drive();
    RanksRun { requests_per_rank: ranks.ranks.iter().map(|r| r.requests).collect(), trace: ranks.life.trace }
}

impl<F: FnMut(&RankStep)> Ranks<'_, F> {
    /// Steps until every request has departed (or the single stepper's bound on steps is reached).
    fn drive(&mut self) {
        let max_steps = self.life.max_steps();
        self.life.release_initial();
        while self.life.running() && self.life.step < max_steps {
            self.dispatch();
            for r in 0..self.ranks.len() {
                self.admit(r);
            }
            if self.ranks.iter().all(Rank::idle) {
                let waiting = self.ranks.iter().any(|r| !r.waiting.is_empty());
                if !self.life.idle_until_next_arrival(waiting) {
                    break;
                }
                continue;
            }
            for r in 0..self.ranks.len() {
                self.draw_growth(r);
                self.make_room_to_grow(r);
            }
            self.run_step();
        }
        self.life.trace.duration_s = self.life.clock_s;
    }

    /// Sends every arrival not yet sent to the least-loaded rank (ties to the lowest index).
    fn dispatch(&mut self) {
        while self.dispatched < self.life.arrived {
            let id = self.dispatched;
            let mut best = 0;
            for (r, rank) in self.ranks.iter().enumerate().skip(1) {
                if rank.load() < self.ranks[best].load() {
                    best = r;
                }
            }
            let req = self.life.reqs[id];
            let rank = &mut self.ranks[best];
            rank.waiting.push_back((id as u32, 0));
            rank.waiting_tokens += own_tokens(&req, 0);
            rank.requests += 1;
            self.dispatched += 1;
        }
    }

    /// Records the most KV tokens held or reserved at once over all ranks.
    fn note_kv_peak(&mut self) {
        let kv_tokens: f64 = self.ranks.iter().map(Rank::kv_in_use).sum();
        self.life.note_kv_peak(kv_tokens);
    }
}
