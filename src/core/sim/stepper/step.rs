//! One stepper step: gather the decodes and prompt chunks, time them on the roofline, then advance
//! the clock and hand out first tokens and finishes.

use super::{Seq, Stepper};
use crate::sim::cost::StepWork;

impl Stepper<'_> {
    /// Runs one step of every decode plus prompt chunks up to the token budget.
    pub(super) fn run_step(&mut self) {
        let (work, chunks) = self.gather_work();
        let dt_s = self.price(&work);
        self.account_step(dt_s);
        // Prompts finished in this step join the decodes (their budget is recomputed from the same
        // n_dec); then the decodes that wrote their last leave.
        self.advance_prefills(chunks);
        self.finish_due();
    }

    /// A step's time, in s: on the lines ([`crate::sim::StepLines`]), or with speculation the
    /// per-operator step itself (its GEMMs memoised).
    #[inline]
    pub(super) fn price(&mut self, work: &StepWork) -> f64 {
        match self.lines.as_mut() {
            Some(lines) => lines.step_s(&self.cost, work),
            None => self.cost.step_s_memo(work, &mut self.gemm_memo),
        }
    }

    /// A step of `dt_s` ran: the clock, the integrals, the arrivals during it, its decode tokens
    /// (on time or not) and the KV they wrote (one token per decode; with speculation, its rate).
    pub(super) fn account_step(&mut self, dt_s: f64) {
        self.life.account_step(dt_s, self.n_dec);
        if self.spec.is_some() {
            self.count_spec_tokens(dt_s);
        } else {
            self.life.trace.decode_tokens += u64::from(self.n_dec);
            if dt_s <= self.server.tpot_target_s {
                self.life.trace.decode_tokens_on_time += u64::from(self.n_dec);
            }
        }
        self.held_dec += self.kv_growth();
        self.note_kv_peak();
    }

    /// The step's work and how many prompt chunks (from the front of the prefill queue) it takes.
    fn gather_work(&mut self) -> (StepWork, usize) {
        let budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        let mut work = StepWork {
            decode_tokens: self.n_dec,
            kv_tokens: self.held_dec,
            prefill_kv_tokens: self.prompts.done,
            ..StepWork::default()
        };
        let chunks = self.prompts.gather(budget, &self.cost, &mut work);
        (work, chunks)
    }

    /// Moves the first `chunks` prefills on by the budget they were given; finished prompts emit
    /// their first (or next, after a preemption) token and start decoding.
    fn advance_prefills(&mut self, chunks: usize) {
        let mut budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        for _ in 0..chunks {
            let Some((id, generated, total)) = self.prompts.advance_front(&mut budget, self.life.reqs) else {
                return;
            };
            self.held_dec += f64::from(total);
            self.start_decode(id, generated, total);
        }
    }

    /// Starts (or resumes) a decode after its prompt: the token just produced is number
    /// `generated + 1`; the rest come one per step, the last at step start + remaining.
    #[inline]
    pub(super) fn start_decode(&mut self, id: u32, generated: u32, held_tokens: u32) {
        let r = self.life.reqs[id as usize];
        let i = id as usize;
        self.life.first_token(id, generated);
        let generated = generated + 1;
        let remaining = r.output_tokens.saturating_sub(generated);
        let epoch = self.seqs[i].epoch;
        if remaining == 0 {
            self.held_dec -= f64::from(held_tokens);
            self.life.depart_served(id);
            return;
        }
        let (steps, rate) = self.draw_steps(remaining);
        self.seqs[i] = Seq { generated, held0: held_tokens, start_step: self.life.step, rate, epoch };
        self.n_dec += 1;
        self.cached_dec += f64::from(r.cached_tokens);
        self.finishing.push(self.life.step + steps, id, epoch);
        self.order.push((id, epoch));
        if self.order.len() > 4 * self.n_dec as usize + 64 {
            let seqs = &self.seqs;
            self.order.retain(|&(id, epoch)| seqs[id as usize].epoch == epoch);
        }
    }

    /// Retires every decode whose last token came out of this step.
    #[inline(always)]
    pub(super) fn finish_due(&mut self) {
        if self.finishing.may_be_due(self.life.step) {
            self.retire_due();
        }
    }

    #[inline(never)]
    fn retire_due(&mut self) {
        while let Some((id, epoch)) = self.finishing.pop_due(self.life.step) {
            if self.seqs[id as usize].epoch != epoch {
                continue;
            }
            self.remove_decode(id);
            self.life.depart_served(id);
        }
    }
}
