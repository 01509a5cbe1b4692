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
//! attention and dense layers one rank's). Admission and preemption on each rank are the single
//! engine's ([`super::admission`]); decodes are tracked one by one and stepped one step at a time
//! (no runs, no lines), so DP > 1 is slower to simulate than DP = 1, which never comes here.
//! With speculative decoding each decode draws its kept tokens every step (1 + the leading
//! accepted drafts, at most k + 1 and what it has left).

mod step;

use std::collections::VecDeque;

use super::{Load, Prefilling, Server, Trace};
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
#[derive(Clone, Debug, Default)]
struct Rank {
    cap: usize,
    pool: f64,
    /// Requests waiting, as (id, tokens generated): the preempted at the front.
    waiting: VecDeque<(u32, u32)>,
    /// KV tokens the waiting requests would hold on admission.
    waiting_tokens: f64,
    prefilling: VecDeque<Prefilling>,
    prefill_reserved: f64,
    prefill_done: f64,
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
        self.held_dec - self.cached_dec + self.prefill_reserved
    }

    /// The dispatch measure: KV in use plus the waiting requests' tokens.
    fn load(&self) -> f64 {
        self.kv_in_use() + self.waiting_tokens
    }

    fn idle(&self) -> bool {
        self.decodes.is_empty() && self.prefilling.is_empty()
    }
}

/// The ranks' state while a run is stepped.
struct Ranks<'a, F> {
    reqs: &'a [Request],
    server: Server,
    cost: StepCost,
    load: Load,
    /// Each rank's step token budget: the server's / DP, at least 1.
    chunk_tokens: u32,
    clock_s: f64,
    step: u64,
    arrived: usize,
    departed: usize,
    dispatched: usize,
    ranks: Vec<Rank>,
    works: Vec<StepWork>,
    /// Speculation's (draft tokens, acceptance, draws), None when off.
    spec: Option<(u32, f64, Rng)>,
    trace: Trace,
    observe: F,
}

/// Runs `reqs` (sorted by arrival for open load) through one replica of `dp` DP ranks (see the
/// module) until all have left, showing `observe` every step.
pub fn run_ranks(
    reqs: &[Request],
    server: Server,
    cost: StepCost,
    load: Load,
    dp: u32,
    observe: impl FnMut(&RankStep),
) -> RanksRun {
    let n = reqs.len();
    let dp = dp.max(1);
    let cap = server.max_concurrency.max(1);
    let rank = |r: u32| Rank {
        cap: (cap / dp + u32::from(r < cap % dp)).max(1) as usize,
        pool: server.kv_pool_tokens / f64::from(dp),
        ..Rank::default()
    };
    let mut ranks = Ranks {
        reqs,
        server,
        cost,
        load,
        chunk_tokens: (server.chunk_tokens / dp).max(1),
        clock_s: 0.0,
        step: 0,
        arrived: 0,
        departed: 0,
        dispatched: 0,
        ranks: (0..dp).map(rank).collect(),
        works: vec![StepWork::default(); dp as usize],
        spec: cost.spec.map(|s| (s.draft_tokens, s.acceptance, Rng::new(s.seed))),
        trace: Trace {
            arrival_s: reqs.iter().map(|r| r.arrival_s).collect(),
            ttft_s: vec![f64::INFINITY; n],
            tpot_s: vec![f64::INFINITY; n],
            latency_s: vec![f64::INFINITY; n],
            ..Trace::default()
        },
        observe,
    };
    ranks.drive();
    RanksRun { requests_per_rank: ranks.ranks.iter().map(|r| r.requests).collect(), trace: ranks.trace }
}

impl<F: FnMut(&RankStep)> Ranks<'_, F> {
    /// Steps until every request has departed (or the single engine's bound on steps is reached).
    fn drive(&mut self) {
        let total_tokens: f64 =
            self.reqs.iter().map(|r| f64::from(r.prompt_tokens) + f64::from(r.output_tokens)).sum();
        let max_steps = (64.0 * total_tokens + 1024.0).min(1e12) as u64;
        self.release_initial();
        while self.departed < self.reqs.len() && self.step < max_steps {
            self.dispatch();
            for r in 0..self.ranks.len() {
                self.admit(r);
            }
            if self.ranks.iter().all(Rank::idle) {
                if !self.idle_until_next_arrival() {
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
        self.trace.duration_s = self.clock_s;
    }

    /// Sends every arrival not yet sent to the least-loaded rank (ties to the lowest index).
    fn dispatch(&mut self) {
        while self.dispatched < self.arrived {
            let id = self.dispatched;
            let mut best = 0;
            for (r, rank) in self.ranks.iter().enumerate().skip(1) {
                if rank.load() < self.ranks[best].load() {
                    best = r;
                }
            }
            let req = self.reqs[id];
            let rank = &mut self.ranks[best];
            rank.waiting.push_back((id as u32, 0));
            rank.waiting_tokens += f64::from(req.prompt_tokens - req.cached_tokens);
            rank.requests += 1;
            self.dispatched += 1;
        }
    }

    /// Open load: the arrivals at t = 0. Closed load: each client's first request.
    fn release_initial(&mut self) {
        match self.load {
            Load::Open => self.release_until(0.0),
            Load::Closed { concurrency } => {
                let c = (concurrency.max(1) as usize).min(self.reqs.len());
                for id in 0..c {
                    self.trace.arrival_s[id] = 0.0;
                }
                self.arrived = c;
            }
        }
    }

    /// Open load: counts arrivals up to `t_s` in; each adds its time in the system before `t_s`.
    fn release_until(&mut self, t_s: f64) {
        while self.arrived < self.reqs.len() && self.trace.arrival_s[self.arrived] <= t_s {
            self.trace.in_system_integral_s += t_s - self.trace.arrival_s[self.arrived];
            self.arrived += 1;
        }
    }

    /// Nothing runs on any rank: jump to the next arrival. False when none will come.
    fn idle_until_next_arrival(&mut self) -> bool {
        let waiting = self.ranks.iter().any(|r| !r.waiting.is_empty());
        if self.load != Load::Open || self.arrived >= self.reqs.len() || waiting {
            return false;
        }
        self.clock_s = self.clock_s.max(self.trace.arrival_s[self.arrived]);
        self.release_until(self.clock_s);
        true
    }

    /// Records the most KV tokens held or reserved at once over all ranks.
    fn note_kv_peak(&mut self) {
        let kv_tokens: f64 = self.ranks.iter().map(Rank::kv_in_use).sum();
        if kv_tokens > self.trace.kv_tokens_peak {
            self.trace.kv_tokens_peak = kv_tokens;
        }
    }

    /// A request's last token: latency and mean TPOT, then (closed load) its client's next request.
    fn depart_served(&mut self, id: u32) {
        let i = id as usize;
        let out = self.reqs[i].output_tokens;
        let first_token_s = self.trace.arrival_s[i] + self.trace.ttft_s[i];
        self.trace.latency_s[i] = self.clock_s - self.trace.arrival_s[i];
        self.trace.tpot_s[i] =
            if out > 1 { (self.clock_s - first_token_s) / f64::from(out - 1) } else { 0.0 };
        self.depart();
    }

    /// A request refused because alone it outgrows its rank's KV pool: it never gets a token.
    fn depart_unserved(&mut self, id: u32) {
        let i = id as usize;
        self.trace.latency_s[i] = self.clock_s - self.trace.arrival_s[i];
        self.trace.rejected += 1;
        self.depart();
    }

    fn depart(&mut self) {
        self.departed += 1;
        if let Load::Closed { .. } = self.load {
            if self.arrived < self.reqs.len() {
                self.trace.arrival_s[self.arrived] = self.clock_s;
                self.arrived += 1;
            }
        }
    }
}
