//! Runs of steps that each give the whole chunk budget to the prompt at the front of the prefill
//! queue: while that prompt has more left than the budget, consecutive steps have the same decodes
//! and the same prompt, so the engine steps them in a tight loop until something can change the
//! batch (the prompt's last chunk, a decode's last token, an arrival that could be admitted, KV
//! growth that needs a preemption, the step bound). Each step is counted as [`Engine::run_step`]
//! counts it and priced on [`crate::core::sim::StepLines`] (the per-operator step as a sum of its
//! parts, equal up to rounding; with speculation, the step itself); what the loop saves is
//! gathering the step from the queue, the checks between steps that cannot fire (see
//! [`super::decode_run`] for why admission cannot, the prompt's chunks only adding KV) and most of
//! the pricing.

use super::{finish_entry, Engine};
use crate::core::sim::cost::StepWork;

impl Engine<'_> {
    /// Whether the next step gives the whole budget to the front prompt and leaves it unfinished.
    pub(super) fn front_outlasts_budget(&mut self) -> bool {
        let budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        budget > 0 && self.prefilling.front_mut().is_some_and(|p| p.total - p.done > budget)
    }

    /// Steps while the front prompt outlasts the budget (it must at the call), until the next event
    /// that could change the batch; returns after the step that meets it.
    pub(super) fn run_prefill_steps(&mut self, max_steps: u64) {
        let budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        let due = self.finishing.peek().map_or(u64::MAX, |e| finish_entry(e.0).0);
        let step_end = due.min(max_steps);
        let below_cap = (self.n_dec as usize + self.prefilling.len()) < self.server.max_concurrency as usize;
        let admit_on_arrival = self.next_waiting().is_none() && below_cap;
        let Some(&mut front) = self.prefilling.front_mut() else { return };
        let (mut done, mut flop_done) = (front.done, front.flop_done);
        loop {
            let flop_next = self.cost.prompt_attention_flop(done + budget);
            let work = StepWork {
                decode_tokens: self.n_dec,
                prefill_tokens: budget,
                prefill_attention_flop: flop_next - flop_done,
                kv_tokens: self.held_dec,
                prefill_kv_tokens: self.prefill_done,
            };
            let dt_s = self.price(&work);
            self.account_step(dt_s);
            done += budget;
            flop_done = flop_next;
            self.prefill_done += f64::from(budget);
            let arrival = admit_on_arrival && self.next_queued < self.arrived;
            let grow = self.kv_in_use() + self.kv_growth() > self.server.kv_pool_tokens;
            if self.step >= step_end || arrival || grow || front.total - done <= budget {
                break;
            }
        }
        if let Some(p) = self.prefilling.front_mut() {
            (p.done, p.flop_done, p.flop_next) = (done, flop_done, flop_done);
        }
        self.finish_due();
    }
}
