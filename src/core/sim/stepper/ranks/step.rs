//! One replica step of DP ranks: admission and preemption per rank (the single stepper's rules), the
//! ranks' work gathered and priced by the slowest rank, then the clock, tokens, prompt chunks and
//! finishes per rank.

use super::{Decode, RankStep, Ranks};
use crate::sim::cost::StepWork;
use crate::sim::stepper::lifecycle::{own_tokens, verdict, Verdict};

impl<F: FnMut(&RankStep)> Ranks<'_, F> {
    /// Admits rank `r`'s waiting requests (preempted first, then arrivals in order) while its cap
    /// and its pool allow; a request that could never fit its rank's pool alone is refused.
    pub(super) fn admit(&mut self, r: usize) {
        loop {
            let rank = &mut self.ranks[r];
            if rank.decodes.len() + rank.prompts.queue.len() >= rank.cap {
                return;
            }
            let Some(&(id, generated)) = rank.waiting.front() else { return };
            let req = self.life.reqs[id as usize];
            let verdict = verdict(&req, generated, rank.kv_in_use(), rank.pool);
            if verdict == Verdict::Wait {
                return;
            }
            rank.waiting.pop_front();
            rank.waiting_tokens -= own_tokens(&req, generated);
            if verdict == Verdict::Refuse {
                self.life.depart_unserved(id);
                continue;
            }
            if self.server.prefill_free {
                self.start_decode(r, id, generated, req.prompt_tokens.saturating_add(generated));
            } else {
                rank.prompts.push(id, &req, generated, &self.cost);
            }
            self.note_kv_peak();
        }
    }

    /// The tokens each of rank `r`'s decodes keeps this step: 1, or with speculation 1 + the leading
    /// accepted drafts (each with probability alpha, at most k + 1), at most what it has left.
    pub(super) fn draw_growth(&mut self, r: usize) {
        let rank = &mut self.ranks[r];
        rank.growth = 0;
        for d in rank.decodes.iter_mut() {
            let mut kept = 1;
            if let Some((k, alpha, rng)) = self.spec.as_mut() {
                while kept <= *k && rng.unit() <= *alpha {
                    kept += 1;
                }
            }
            d.kept = kept.min(d.remaining);
            rank.growth += d.kept;
        }
    }

    /// Preempts rank `r`'s latest-admitted decodes until the step's KV growth fits its pool.
    pub(super) fn make_room_to_grow(&mut self, r: usize) {
        let rank = &mut self.ranks[r];
        while rank.kv_in_use() + f64::from(rank.growth) > rank.pool {
            let Some(d) = rank.decodes.pop() else { return };
            let req = self.life.reqs[d.id as usize];
            rank.held_dec -= f64::from(d.held);
            rank.cached_dec -= f64::from(req.cached_tokens);
            rank.growth -= d.kept;
            rank.waiting.push_front((d.id, d.generated));
            rank.waiting_tokens += f64::from(req.prompt_tokens + d.generated - req.cached_tokens);
            self.life.trace.preemptions += 1;
        }
    }

    /// One step of every rank: gathered, priced by the slowest rank, counted, then advanced.
    pub(super) fn run_step(&mut self) {
        let mut total = StepWork::default();
        for r in 0..self.ranks.len() {
            let work = self.gather_work(r);
            total.decode_tokens += work.decode_tokens;
            total.prefill_tokens += work.prefill_tokens;
            total.prefill_attention_flop += work.prefill_attention_flop;
            total.kv_tokens += work.kv_tokens;
            total.prefill_kv_tokens += work.prefill_kv_tokens;
            self.works[r] = work;
        }
        // A rank's step grows with its own work (the experts' and the all-to-all's part is every
        // rank's, `total`), so an idle rank is never slower than a busy one: only busy ranks are
        // priced, the first rank when all are idle. Exact, and a 512-rank replica with six requests
        // prices at most six ranks a step.
        let busy = |w: &StepWork| w.decode_tokens > 0 || w.prefill_tokens > 0;
        let any_busy = self.works.iter().any(busy);
        let (mut dt_s, mut slowest) = (f64::NEG_INFINITY, 0);
        for (r, work) in self.works.iter().enumerate() {
            if any_busy && !busy(work) {
                continue;
            }
            let step_s = self.cost.step_s_ranks(&total, work);
            if step_s > dt_s {
                (dt_s, slowest) = (step_s, r);
            }
            if !any_busy {
                break;
            }
        }
        (self.observe)(&RankStep { works: &self.works, total, dt_s, slowest });
        self.account_step(dt_s, total.decode_tokens);
        for r in 0..self.ranks.len() {
            self.advance(r);
        }
        self.note_kv_peak();
    }

    /// Rank `r`'s work: its decodes, then prompt chunks from the front of its queue up to its
    /// budget (its step budget less its decodes), as the single stepper's.
    fn gather_work(&mut self, r: usize) -> StepWork {
        let rank = &mut self.ranks[r];
        let n_dec = rank.decodes.len() as u32;
        let mut work = StepWork {
            decode_tokens: n_dec,
            kv_tokens: rank.held_dec,
            prefill_kv_tokens: rank.prompts.done,
            ..StepWork::default()
        };
        rank.chunks = rank.prompts.gather(self.chunk_tokens.saturating_sub(n_dec), &self.cost, &mut work);
        work
    }

    /// A step of `dt_s` ran with `n_dec` decodes over all ranks: the clock, the integrals, the
    /// arrivals during it, its decode tokens (on time or not).
    fn account_step(&mut self, dt_s: f64, n_dec: u32) {
        self.life.account_step(dt_s, n_dec);
        let tokens: u32 = self.ranks.iter().map(|r| r.growth).sum();
        self.life.trace.decode_tokens += u64::from(tokens);
        let on_time = if self.spec.is_some() {
            n_dec > 0 && dt_s * f64::from(n_dec) / f64::from(tokens) <= self.server.tpot_target_s
        } else {
            dt_s <= self.server.tpot_target_s
        };
        if on_time {
            self.life.trace.decode_tokens_on_time += u64::from(tokens);
        }
    }

    /// Rank `r` after the step: its decodes write their kept tokens, its prompt chunks advance
    /// (finished prompts start decoding), and the decodes that wrote their last token leave.
    fn advance(&mut self, r: usize) {
        let rank = &mut self.ranks[r];
        for d in rank.decodes.iter_mut() {
            (d.held, d.generated, d.remaining) =
                (d.held + d.kept, d.generated + d.kept, d.remaining - d.kept);
        }
        rank.held_dec += f64::from(rank.growth);
        let stepped = rank.decodes.len();
        self.advance_prefills(r);
        let rank = &mut self.ranks[r];
        if rank.decodes[..stepped].iter().all(|d| d.remaining > 0) {
            return;
        }
        let done: Vec<Decode> =
            rank.decodes[..stepped].iter().filter(|d| d.remaining == 0).copied().collect();
        rank.decodes.retain(|d| d.remaining > 0);
        for d in done {
            let rank = &mut self.ranks[r];
            rank.held_dec -= f64::from(d.held);
            rank.cached_dec -= f64::from(self.life.reqs[d.id as usize].cached_tokens);
            self.life.depart_served(d.id);
        }
    }

    /// Moves rank `r`'s first prompt chunks on by the budget they were given; finished prompts
    /// emit their first (or next, after a preemption) token and start decoding.
    fn advance_prefills(&mut self, r: usize) {
        let rank = &mut self.ranks[r];
        let mut budget = self.chunk_tokens.saturating_sub(rank.decodes.len() as u32);
        for _ in 0..rank.chunks {
            let prompts = &mut self.ranks[r].prompts;
            let Some((id, generated, total)) = prompts.advance_front(&mut budget, self.life.reqs) else {
                return;
            };
            self.start_decode(r, id, generated, total);
        }
    }

    /// Starts (or resumes) a decode on rank `r` holding `held` KV tokens: the token just produced
    /// is number `generated + 1`; one that was the last leaves at once.
    fn start_decode(&mut self, r: usize, id: u32, generated: u32, held: u32) {
        let req = self.life.reqs[id as usize];
        self.life.first_token(id, generated);
        let generated = generated + 1;
        let remaining = req.output_tokens.saturating_sub(generated);
        if remaining == 0 {
            self.life.depart_served(id);
            return;
        }
        let rank = &mut self.ranks[r];
        rank.held_dec += f64::from(held);
        rank.cached_dec += f64::from(req.cached_tokens);
        rank.decodes.push(Decode { id, held, generated, remaining, kept: 0 });
    }
}
