//! A replica's step: admit from the queue, gather the decodes and the ready prompts' chunks, price
//! the step, then move prompts on (a finished prompt gives its first token and starts decoding) and
//! retire the decodes whose last token came out.

use std::cmp::Reverse;

use super::{Prefill, Replica, Shared};
use crate::sim::StepWork;

/// A step's time on the simulator's step lines (or `StepCost::step_s` when the scenario has none),
/// in s; 0 if not a positive finite number.
fn price(s: &mut Shared, work: &StepWork) -> f64 {
    let dt_s = match s.lines.as_mut() {
        Some(lines) => lines.step_s(s.cost, work),
        None => s.cost.step_s(work),
    };
    if dt_s.is_finite() && dt_s > 0.0 {
        dt_s
    } else {
        0.0
    }
}

impl Replica {
    /// Admits, then runs one step; with nothing to run (every prompt waiting for its copy from the
    /// CPU tier) moves the clock to the first copy's end or `next_arrival_s`, whichever is first.
    /// Then runs the decode-only steps that follow while nothing else can happen before
    /// `horizon_s` ([`Replica::decode_run`]).
    pub fn step(&mut self, s: &mut Shared, next_arrival_s: f64, horizon_s: f64) {
        self.admit(s);
        self.grow_due(s);
        let work = self.gather(s);
        if work.decode_tokens == 0 && work.prefill_tokens == 0 {
            let ready_s = self.prefilling.iter().map(|p| p.ready_s).fold(f64::INFINITY, f64::min);
            let until_s = ready_s.min(next_arrival_s);
            if until_s.is_finite() && until_s > self.clock_s {
                self.clock_s = until_s;
            }
            return;
        }
        self.clock_s += price(s, &work);
        self.step += 1;
        self.held_dec += f64::from(self.n_dec);
        self.advance(s);
        while let Some(&Reverse((due, id, epoch))) = self.finishing.peek() {
            if due > self.step {
                break;
            }
            self.finishing.pop();
            let job = s.jobs[id as usize];
            if job.epoch != epoch {
                continue;
            }
            self.n_dec -= 1;
            self.held_dec -= f64::from(job.prompt_tokens) + f64::from(job.output_tokens - 1);
            self.finish(s, id);
        }
        self.decode_run(s, horizon_s);
    }

    /// Decode-only steps, each priced as [`Replica::step`] would, while nothing else can happen:
    /// no prompt is prefilling, nobody waiting can be admitted (an empty queue or the cap reached),
    /// no decode is due to finish, none is preempted for a block, and the clock is before
    /// `horizon_s` (the next arrival; with sessions, also the other busy replicas' earliest clock,
    /// so the replicas still step in time order). The same steps as one at a time, without the
    /// fleet's loop around each.
    fn decode_run(&mut self, s: &mut Shared, horizon_s: f64) {
        if self.n_dec == 0 || !self.prefilling.is_empty() {
            return;
        }
        if !self.queue.is_empty() && self.running < s.server.max_concurrency {
            return;
        }
        let Some(&Reverse((due, _, _))) = self.finishing.peek() else { return };
        let mut work = StepWork { decode_tokens: self.n_dec, ..StepWork::default() };
        while self.step + 1 < due && self.clock_s < horizon_s {
            let grows = self.growing.peek().is_some_and(|&Reverse((at, _, _))| at <= self.step + 1);
            if grows && self.grow_due(s) {
                return;
            }
            work.kv_tokens = self.held_dec;
            self.clock_s += price(s, &work);
            self.step += 1;
            self.held_dec += f64::from(self.n_dec);
        }
    }

    /// Admits queued requests (the preempted first), first come first served, while the cap and
    /// the pool allow: each reserves the blocks of the tokens it prefills (its prompt, and the
    /// tokens it had generated when preempted) less its GPU hits.
    fn admit(&mut self, s: &mut Shared) {
        let b = s.server.block_tokens;
        while self.running < s.server.max_concurrency {
            let Some(&id) = self.queue.front() else { return };
            let job = s.jobs[id as usize];
            let context_tokens = u64::from(job.prompt_tokens) + u64::from(job.output_tokens);
            if context_tokens.div_ceil(u64::from(b)) > s.server.pool_blocks {
                self.queue.pop_front();
                self.refuse(s, id);
                continue;
            }
            let total_tokens = job.prompt_tokens.saturating_add(job.generated);
            let chain = s.prompt_chain(&job);
            let hit = self.cache.lookup(chain);
            let new_blocks = u64::from(total_tokens.div_ceil(b)).saturating_sub(u64::from(hit.gpu_blocks));
            if !self.cache.admit(chain, hit, new_blocks) {
                return;
            }
            self.queue.pop_front();
            self.running += 1;
            let last = job.prompt_tokens.saturating_sub(1);
            let gpu_tokens = hit.gpu_blocks.saturating_mul(b).min(last);
            let hit_tokens = (hit.gpu_blocks + hit.cpu_blocks).saturating_mul(b).min(last);
            let ready_s = self.copy_back(s, hit.cpu_blocks);
            let j = &mut s.jobs[id as usize];
            if job.preemptions == 0 {
                (j.gpu_hit_tokens, j.cpu_hit_tokens) = (gpu_tokens, hit_tokens - gpu_tokens);
            }
            (j.gpu_hit_blocks, j.pinned_blocks, j.private_blocks) =
                (hit.gpu_blocks, hit.gpu_blocks, new_blocks);
            self.prefill_done += f64::from(hit_tokens);
            let flop_done = s.cost.prompt_attention_flop(hit_tokens);
            let (done, total) = (hit_tokens, total_tokens);
            self.prefilling.push(Prefill { id, done, total, ready_s, flop_done, chunk: 0 });
        }
    }

    /// Queues the copy of `blocks` CPU hits on the link; when it ends, in s (now without any).
    fn copy_back(&mut self, s: &Shared, blocks: u32) -> f64 {
        if blocks == 0 {
            return self.clock_s;
        }
        let transfer_s = f64::from(blocks) * s.server.transfer_s_per_block;
        let ready_s = self.clock_s.max(self.link_free_s) + transfer_s;
        self.link_free_s = ready_s;
        self.transfer_s_total += transfer_s;
        self.transferred_blocks += u64::from(blocks);
        ready_s
    }

    /// The step's work: every decode, then chunks for the ready prompts in order within the budget.
    fn gather(&mut self, s: &Shared) -> StepWork {
        let mut budget = s.server.chunk_tokens.saturating_sub(self.n_dec);
        let mut work = StepWork {
            decode_tokens: self.n_dec,
            kv_tokens: self.held_dec,
            prefill_kv_tokens: self.prefill_done,
            ..StepWork::default()
        };
        for p in self.prefilling.iter_mut() {
            p.chunk = 0;
            if budget == 0 || p.ready_s > self.clock_s {
                continue;
            }
            p.chunk = (p.total - p.done).min(budget);
            budget -= p.chunk;
            work.prefill_tokens += p.chunk;
            work.prefill_attention_flop += s.cost.prompt_attention_flop(p.done + p.chunk) - p.flop_done;
        }
        work
    }

    /// Moves every chunked prompt on; finished prompts leave the prefill list.
    fn advance(&mut self, s: &mut Shared) {
        let mut i = 0;
        while i < self.prefilling.len() {
            let p = &mut self.prefilling[i];
            if p.chunk > 0 {
                p.done += p.chunk;
                p.flop_done = s.cost.prompt_attention_flop(p.done);
                self.prefill_done += f64::from(p.chunk);
            }
            if p.done < p.total {
                i += 1;
                continue;
            }
            let p = self.prefilling.remove(i);
            self.prefill_done -= f64::from(p.total);
            self.prompt_done(s, p.id);
        }
    }

    /// A prompt's last chunk ran: its computed blocks join the cache, its first token is out, and it
    /// decodes the rest (or leaves, with a one-token answer).
    fn prompt_done(&mut self, s: &mut Shared, id: u32) {
        let job = s.jobs[id as usize];
        for &hash in &s.prompt_chain(&job)[job.gpu_hit_blocks as usize..] {
            self.cache.register(hash);
        }
        let j = &mut s.jobs[id as usize];
        j.private_blocks = j.private_blocks.saturating_sub(u64::from(job.prompt_blocks - job.gpu_hit_blocks));
        j.pinned_blocks = job.prompt_blocks;
        if job.generated == 0 {
            j.ttft_s = self.clock_s - job.arrival_s;
        }
        self.start_decode(s, id);
    }

    /// A request's last token: its answer's full blocks join the cache (sessions), its blocks are
    /// let go, and it leaves.
    pub(super) fn finish(&mut self, s: &mut Shared, id: u32) {
        let job = s.jobs[id as usize];
        let chain = s.context_chain(&job);
        for &hash in &chain[job.prompt_blocks as usize..] {
            self.cache.register(hash);
        }
        self.cache.unpin(chain);
        let registered = u64::from(job.context_blocks - job.prompt_blocks);
        self.cache.release(job.private_blocks.saturating_sub(registered));
        let j = &mut s.jobs[id as usize];
        j.private_blocks = 0;
        j.finish_s = self.clock_s;
        // Its order and growth entries go stale.
        j.epoch = job.epoch.wrapping_add(1);
        self.running -= 1;
        self.leave(s, id);
    }

    /// A request whose context alone outgrows the pool: refused, it never gets a token.
    fn refuse(&mut self, s: &mut Shared, id: u32) {
        let j = &mut s.jobs[id as usize];
        j.refused = true;
        j.finish_s = self.clock_s;
        self.leave(s, id);
    }

    fn leave(&mut self, s: &mut Shared, id: u32) {
        self.in_system -= 1;
        s.finished.push(id);
    }
}
