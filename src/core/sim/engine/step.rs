//! One engine step: gather the decodes and prompt chunks, time them on the roofline, then advance
//! the clock and hand out first tokens and finishes.

use super::{Engine, Load, Seq};
use crate::sim::cost::StepWork;

impl Engine<'_> {
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
        let in_system = (self.arrived - self.departed) as f64;
        self.clock_s += dt_s;
        self.step += 1;
        self.trace.steps += 1;
        self.trace.in_system_integral_s += in_system * dt_s;
        self.trace.batch_integral_s += f64::from(self.n_dec) * dt_s;
        self.trace.batch_peak = self.trace.batch_peak.max(self.n_dec);
        if self.load == Load::Open {
            self.release_until(self.clock_s);
        }
        self.trace.decode_seq_steps += u64::from(self.n_dec);
        if self.spec.is_some() {
            self.count_spec_tokens(dt_s);
        } else {
            self.trace.decode_tokens += u64::from(self.n_dec);
            if dt_s <= self.server.tpot_target_s {
                self.trace.decode_tokens_on_time += u64::from(self.n_dec);
            }
        }
        self.held_dec += self.kv_growth();
        self.note_kv_peak();
    }

    /// The step's work and how many prompt chunks (from the front of the prefill queue) it takes.
    /// A chunk's attention FLOPs are [`StepCost::chunk_attention_flop`]'s difference, its start
    /// remembered from the step before (`flop_done`) and its end kept for the next (`flop_next`).
    fn gather_work(&mut self) -> (StepWork, usize) {
        let mut budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        let mut work = StepWork {
            decode_tokens: self.n_dec,
            kv_tokens: self.held_dec,
            prefill_kv_tokens: self.prefill_done,
            ..StepWork::default()
        };
        let mut chunks = 0;
        for p in self.prefilling.live_mut() {
            if budget == 0 {
                break;
            }
            let chunk = (p.total - p.done).min(budget);
            budget -= chunk;
            work.prefill_tokens += chunk;
            p.flop_next = self.cost.prompt_attention_flop(p.done + chunk);
            work.prefill_attention_flop += p.flop_next - p.flop_done;
            chunks += 1;
        }
        (work, chunks)
    }

    /// Moves the first `chunks` prefills on by the budget they were given; finished prompts emit
    /// their first (or next, after a preemption) token and start decoding.
    fn advance_prefills(&mut self, chunks: usize) {
        let mut budget = self.server.chunk_tokens.saturating_sub(self.n_dec);
        for _ in 0..chunks {
            let Some(p) = self.prefilling.front_mut() else { return };
            let chunk = (p.total - p.done).min(budget);
            budget -= chunk;
            p.done += chunk;
            p.flop_done = p.flop_next;
            self.prefill_done += f64::from(chunk);
            if p.done < p.total {
                return;
            }
            let p = *p;
            self.prefilling.pop_front();
            self.prefill_done -= f64::from(p.total);
            self.prefill_reserved -= f64::from(p.total - self.reqs[p.id as usize].cached_tokens);
            self.held_dec += f64::from(p.total);
            let generated = p.total - self.reqs[p.id as usize].prompt_tokens;
            self.start_decode(p.id, generated, p.total);
        }
    }

    /// Starts (or resumes) a decode after its prompt: the token just produced is number
    /// `generated + 1`; the rest come one per step, the last at step start + remaining.
    #[inline]
    pub(super) fn start_decode(&mut self, id: u32, generated: u32, held_tokens: u32) {
        let r = self.reqs[id as usize];
        let i = id as usize;
        if generated == 0 {
            self.trace.ttft_s[i] = self.clock_s - self.trace.arrival_s[i];
        }
        let generated = generated + 1;
        let remaining = r.output_tokens.saturating_sub(generated);
        let epoch = self.seqs[i].epoch;
        if remaining == 0 {
            self.held_dec -= f64::from(held_tokens);
            self.depart_served(id);
            return;
        }
        let (steps, rate) = self.draw_steps(remaining);
        self.seqs[i] = Seq { generated, held0: held_tokens, start_step: self.step, rate, epoch };
        self.n_dec += 1;
        self.cached_dec += f64::from(r.cached_tokens);
        self.finishing.push(self.step + steps, id, epoch);
        self.order.push((id, epoch));
        if self.order.len() > 4 * self.n_dec as usize + 64 {
            let seqs = &self.seqs;
            self.order.retain(|&(id, epoch)| seqs[id as usize].epoch == epoch);
        }
    }

    /// Retires every decode whose last token came out of this step.
    #[inline(always)]
    pub(super) fn finish_due(&mut self) {
        if self.finishing.may_be_due(self.step) {
            self.retire_due();
        }
    }

    #[inline(never)]
    fn retire_due(&mut self) {
        while let Some((id, epoch)) = self.finishing.pop_due(self.step) {
            if self.seqs[id as usize].epoch != epoch {
                continue;
            }
            self.remove_decode(id);
            self.depart_served(id);
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
