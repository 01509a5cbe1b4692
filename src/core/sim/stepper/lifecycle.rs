//! One request lifecycle, owned by the single stepper and by a replica of DP ranks alike: arrivals
//! (open load's own times, closed load's clients each sending the next on a departure), the clock
//! and the step count, the trace's records (first token, departure served or refused, each step's
//! integrals, the KV peak), and the prompt queue: admission's verdict and push, the chunks a step's
//! budget gives and their advance. What differs stays with its owner: how decodes are tracked (the
//! stepper in aggregate with a calendar and runs of steps, a rank one by one) and which waiting
//! request is next (the stepper's arrivals in order, a rank's dispatched queue).

use super::fifo::Fifo;
use super::{Load, Trace};
use crate::sim::cost::{StepCost, StepWork};
use crate::sim::workload::Request;

/// A sequence that is prefilling: `done` of `total` tokens (prompt plus tokens to recompute); a
/// prefix-cache hit starts with its cached tokens done.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prefilling {
    pub(super) id: u32,
    pub(super) done: u32,
    pub(super) total: u32,
    /// Causal attention FLOPs of its first `done` tokens ([`StepCost::prompt_attention_flop`]), so a
    /// chunk's FLOPs cost one evaluation per step instead of two.
    pub(super) flop_done: f64,
    /// The same at the end of the chunk the current step gives it (set while gathering the step).
    pub(super) flop_next: f64,
}

/// The requests' arrivals, clock and records while a run is stepped.
pub(super) struct Lifecycle<'a> {
    pub(super) reqs: &'a [Request],
    pub(super) load: Load,
    pub(super) clock_s: f64,
    pub(super) step: u64,
    /// Requests released (open load: arrived by the clock; closed load: sent by their clients).
    pub(super) arrived: usize,
    pub(super) departed: usize,
    pub(super) trace: Trace,
}

impl<'a> Lifecycle<'a> {
    /// Nothing released yet; the trace's per-request times unserved (infinite).
    pub(super) fn new(reqs: &'a [Request], load: Load) -> Lifecycle<'a> {
        let n = reqs.len();
        let trace = Trace {
            arrival_s: reqs.iter().map(|r| r.arrival_s).collect(),
            ttft_s: vec![f64::INFINITY; n],
            tpot_s: vec![f64::INFINITY; n],
            latency_s: vec![f64::INFINITY; n],
            ..Trace::default()
        };
        Lifecycle { reqs, load, clock_s: 0.0, step: 0, arrived: 0, departed: 0, trace }
    }

    /// A safety bound on steps: 64 per token of every request, and some.
    pub(super) fn max_steps(&self) -> u64 {
        let total_tokens: f64 =
            self.reqs.iter().map(|r| f64::from(r.prompt_tokens) + f64::from(r.output_tokens)).sum();
        (64.0 * total_tokens + 1024.0).min(1e12) as u64
    }

    /// Whether a request is still to leave.
    #[inline]
    pub(super) fn running(&self) -> bool {
        self.departed < self.reqs.len()
    }

    /// Open load: the arrivals at t = 0. Closed load: each client's first request.
    pub(super) fn release_initial(&mut self) {
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
    pub(super) fn release_until(&mut self, t_s: f64) {
        while self.arrived < self.reqs.len() && self.trace.arrival_s[self.arrived] <= t_s {
            self.trace.in_system_integral_s += t_s - self.trace.arrival_s[self.arrived];
            self.arrived += 1;
        }
    }

    /// Open load: when the next request arrives, in s (infinite when none will, or closed load).
    #[inline]
    pub(super) fn next_arrival_s(&self) -> f64 {
        match self.load {
            Load::Open if self.arrived < self.reqs.len() => self.trace.arrival_s[self.arrived],
            _ => f64::INFINITY,
        }
    }

    /// Nothing runs and nobody released is `waiting`: jump to the next arrival. False when none
    /// will come.
    pub(super) fn idle_until_next_arrival(&mut self, waiting: bool) -> bool {
        if self.load != Load::Open || self.arrived >= self.reqs.len() || waiting {
            return false;
        }
        self.clock_s = self.clock_s.max(self.trace.arrival_s[self.arrived]);
        self.release_until(self.clock_s);
        true
    }

    /// A step of `dt_s` ran with `n_dec` decodes: the clock, the step, the integrals, the batch's
    /// peak and the arrivals during it (its tokens are the owner's to count).
    #[inline]
    pub(super) fn account_step(&mut self, dt_s: f64, n_dec: u32) {
        let in_system = (self.arrived - self.departed) as f64;
        self.clock_s += dt_s;
        self.step += 1;
        self.trace.steps += 1;
        self.trace.in_system_integral_s += in_system * dt_s;
        self.trace.batch_integral_s += f64::from(n_dec) * dt_s;
        self.trace.batch_peak = self.trace.batch_peak.max(n_dec);
        if self.load == Load::Open {
            self.release_until(self.clock_s);
        }
        self.trace.decode_seq_steps += u64::from(n_dec);
    }

    /// Records `kv_tokens` held or reserved if the most so far.
    #[inline]
    pub(super) fn note_kv_peak(&mut self, kv_tokens: f64) {
        // A compare rather than f64::max: the KV counts are never NaN, and this runs every step.
        if kv_tokens > self.trace.kv_tokens_peak {
            self.trace.kv_tokens_peak = kv_tokens;
        }
    }

    /// A prompt (or its recompute) is done; a request that had generated nothing gets its first token.
    #[inline]
    pub(super) fn first_token(&mut self, id: u32, generated: u32) {
        if generated == 0 {
            let i = id as usize;
            self.trace.ttft_s[i] = self.clock_s - self.trace.arrival_s[i];
        }
    }

    /// A request's last token: latency and mean TPOT, then (closed load) its client's next request.
    pub(super) fn depart_served(&mut self, id: u32) {
        let i = id as usize;
        let out = self.reqs[i].output_tokens;
        let first_token_s = self.trace.arrival_s[i] + self.trace.ttft_s[i];
        self.trace.latency_s[i] = self.clock_s - self.trace.arrival_s[i];
        self.trace.tpot_s[i] =
            if out > 1 { (self.clock_s - first_token_s) / f64::from(out - 1) } else { 0.0 };
        self.depart();
    }

    /// A request refused because alone it outgrows the KV pool: it never gets a token.
    pub(super) fn depart_unserved(&mut self, id: u32) {
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

/// What admission does with the request at the head of a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Alone it outgrows the pool: it never gets a token.
    Refuse,
    /// It fits the pool alone but not beside what is held now: the queue waits.
    Wait,
    Admit,
}

/// KV tokens `req` holds on admission after generating `generated` (its prompt and those tokens,
/// less its cached prefix, which the replica holds once).
#[inline]
pub(super) fn own_tokens(req: &Request, generated: u32) -> f64 {
    f64::from(req.prompt_tokens.saturating_add(generated) - req.cached_tokens)
}

/// Admission's verdict on `req` (having generated `generated`) with `kv_in_use` of `pool` KV tokens taken.
#[inline]
pub(super) fn verdict(req: &Request, generated: u32, kv_in_use: f64, pool: f64) -> Verdict {
    if f64::from(req.prompt_tokens - req.cached_tokens) + f64::from(req.output_tokens) > pool {
        Verdict::Refuse
    } else if kv_in_use + own_tokens(req, generated) > pool {
        Verdict::Wait
    } else {
        Verdict::Admit
    }
}

/// The prompts being prefilled, first in first out, with the KV they reserve and have done.
pub(super) struct Prompts {
    pub(super) queue: Fifo<Prefilling>,
    /// KV tokens reserved for the prompts' whole contexts (less cached prefixes).
    pub(super) reserved: f64,
    /// Tokens done (cached or computed) by the prompts: their earlier KV.
    pub(super) done: f64,
}

impl Prompts {
    pub(super) fn new() -> Prompts {
        Prompts { queue: Fifo::new(), reserved: 0.0, done: 0.0 }
    }

    /// Admits request `id` (having generated `generated`) to prefill: it reserves its own KV and
    /// starts with its cached prefix done.
    pub(super) fn push(&mut self, id: u32, req: &Request, generated: u32, cost: &StepCost) {
        let cached = req.cached_tokens;
        self.reserved += own_tokens(req, generated);
        self.done += f64::from(cached);
        let flop_done = cost.prompt_attention_flop(cached);
        let total = req.prompt_tokens.saturating_add(generated);
        self.queue.push_back(Prefilling { id, done: cached, total, flop_done, flop_next: flop_done });
    }

    /// Adds to `work` the chunks the step's `budget` gives the prompts from the front; how many.
    /// A chunk's attention FLOPs are [`StepCost::chunk_attention_flop`]'s difference, its start
    /// remembered from the step before (`flop_done`) and its end kept for the next (`flop_next`).
    #[inline]
    pub(super) fn gather(&mut self, mut budget: u32, cost: &StepCost, work: &mut StepWork) -> usize {
        let mut chunks = 0;
        for p in self.queue.live_mut() {
            if budget == 0 {
                break;
            }
            let chunk = (p.total - p.done).min(budget);
            budget -= chunk;
            work.prefill_tokens += chunk;
            p.flop_next = cost.prompt_attention_flop(p.done + chunk);
            work.prefill_attention_flop += p.flop_next - p.flop_done;
            chunks += 1;
        }
        chunks
    }

    /// Moves the front prompt on by its chunk of `budget` (taken off it); a prompt it finishes
    /// leaves the queue and its reservation, as (id, tokens generated before, tokens it holds).
    /// None when the front is unfinished (or the queue empty): no prompt behind it got a chunk.
    #[inline]
    pub(super) fn advance_front(&mut self, budget: &mut u32, reqs: &[Request]) -> Option<(u32, u32, u32)> {
        let p = self.queue.front_mut()?;
        let chunk = (p.total - p.done).min(*budget);
        *budget -= chunk;
        p.done += chunk;
        p.flop_done = p.flop_next;
        self.done += f64::from(chunk);
        if p.done < p.total {
            return None;
        }
        let p = *p;
        self.queue.pop_front();
        let req = reqs[p.id as usize];
        self.done -= f64::from(p.total);
        self.reserved -= f64::from(p.total - req.cached_tokens);
        Some((p.id, p.total - req.prompt_tokens, p.total))
    }
}
