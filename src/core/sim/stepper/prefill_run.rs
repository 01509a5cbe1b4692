//! Runs of steps that each give the whole chunk budget to the prompt at the front of the prefill
//! queue: while that prompt has more left than the budget, consecutive steps have the same decodes
//! and the same prompt, so the stepper steps them in a tight loop until something can change the
//! batch (the prompt's last chunk, a decode's last token, an arrival that could be admitted, KV
//! growth that needs a preemption, the step bound). Each step is counted as [`Engine::run_step`]
//! counts it; sums are gathered over the run as [`super::decode_run`] gathers them, so a trace
//! matches stepping one step at a time up to rounding (the clock to the bit). Without speculation
//! a step is priced on its line ([`crate::sim::StepLines::line`], fixed for the run: the
//! step's token count does not change) plus the prompt's attention; with speculation, the step
//! itself. What the loop saves is gathering the step from the queue, the checks between steps that
//! cannot fire (see [`super::decode_run`] for why admission cannot, the prompt's chunks only adding
//! KV) and most of the pricing.

use super::decode_run::Sums;
use super::Stepper;
use crate::sim::cost::StepWork;

impl Stepper<'_> {
    /// Whether the next step gives the whole budget to the front prompt and leaves it unfinished.
    pub(super) fn front_outlasts_budget(&mut self) -> bool {
        let budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        budget > 0 && self.prompts.queue.front_mut().is_some_and(|p| p.total - p.done > budget)
    }

    /// Steps while the front prompt outlasts the budget (it must at the call), until the next event
    /// that could change the batch; returns after the step that meets it.
    pub(super) fn run_prefill_steps(&mut self, max_steps: u64) {
        let budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        let Some(&mut front) = self.prompts.queue.front_mut() else { return };
        let (mut done, mut flop_done) = (front.done, front.flop_done);
        let due = self.finishing.next_due_after(self.life.step).unwrap_or(u64::MAX);
        let below_cap =
            (self.n_dec as usize + self.prompts.queue.len()) < self.server.max_concurrency as usize;
        let admit_on_arrival = self.next_waiting().is_none() && below_cap;
        let growth = self.kv_growth();
        // kv_in_use() + growth > pool, as a bound on the decodes' held KV (the reservation is fixed).
        let held_max = self.server.kv_pool_tokens + self.cached_dec - self.prompts.reserved - growth;
        let steps_max = due.min(max_steps) - self.life.step;
        let line = self.lines.as_mut().map(|l| l.line(&self.cost, self.n_dec + budget));
        let target_s = self.server.tpot_target_s;
        let mut in_system = (self.life.arrived - self.life.departed) as f64;
        let mut next_arrival_s = self.life.next_arrival_s();
        let mut sums = Sums::default();
        loop {
            let flop_next = self.cost.prompt_attention_flop(done + budget);
            let dt_s = match line {
                Some((intercept_s, slope_s_per_token)) => {
                    intercept_s
                        + slope_s_per_token * self.held_dec
                        + self.cost.prefill_attention_s(self.prompts.done, flop_next - flop_done)
                }
                None => self.price_front(budget, flop_next - flop_done),
            };
            self.life.clock_s += dt_s;
            sums.add(dt_s, in_system, target_s);
            if line.is_none() {
                self.count_spec_tokens(dt_s);
            }
            self.held_dec += growth;
            (done, flop_done) = (done + budget, flop_next);
            self.prompts.done += f64::from(budget);
            if self.life.clock_s >= next_arrival_s {
                self.life.release_until(self.life.clock_s);
                in_system = (self.life.arrived - self.life.departed) as f64;
                next_arrival_s = self.life.next_arrival_s();
                if admit_on_arrival && self.next_queued < self.life.arrived {
                    break;
                }
            }
            if sums.steps >= steps_max || self.held_dec > held_max || front.total - done <= budget {
                break;
            }
        }
        if let Some(p) = self.prompts.queue.front_mut() {
            (p.done, p.flop_done, p.flop_next) = (done, flop_done, flop_done);
        }
        self.write_back(&sums);
        self.finish_due();
    }

    /// The whole step (speculation: no lines) of the decodes and `budget` tokens of the front prompt.
    fn price_front(&mut self, budget: u32, prefill_attention_flop: f64) -> f64 {
        let work = StepWork {
            decode_tokens: self.n_dec,
            prefill_tokens: budget,
            prefill_attention_flop,
            kv_tokens: self.held_dec,
            prefill_kv_tokens: self.prompts.done,
        };
        self.price(&work)
    }
}
