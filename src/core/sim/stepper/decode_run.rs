//! Runs of decode-only steps. While nothing prefills, consecutive steps differ only in the KV their
//! decodes read, and a step's time is a line in that KV ([`crate::sim::StepCost::decode_line`],
//! read off the per-operator step once per run), so the stepper steps them in a tight loop on a few
//! locals until something can change the batch: a decode's last token, an arrival that could be
//! admitted, KV growth that needs a preemption, or the step bound. Each step is counted as
//! [`Engine::run_step`] counts it (clock, integrals, tokens on time, KV); sums are gathered over
//! the run, so a trace matches stepping one step at a time up to rounding.
//!
//! Why nothing else can happen inside a run: admission stops at the concurrency cap, at an empty
//! queue, or at a head of the queue the pool cannot take. The cap and the head do not change without
//! a departure, and a decode-only step only adds KV, so a blocked head stays blocked; only with an
//! empty queue below the cap can an arrival start a prefill. Closed load sends a request only on a
//! departure.

use super::Stepper;

/// What a run adds up before it is written back.
#[derive(Default)]
pub(super) struct Sums {
    pub(super) steps: u64,
    dt_s: f64,
    in_system_s: f64,
    steps_on_time: u64,
}

impl Sums {
    /// One step of `dt_s` with `in_system` requests in the system; on time if within `target_s`.
    #[inline]
    pub(super) fn add(&mut self, dt_s: f64, in_system: f64, target_s: f64) {
        self.steps += 1;
        self.dt_s += dt_s;
        self.in_system_s += in_system * dt_s;
        self.steps_on_time += u64::from(dt_s <= target_s);
    }
}

impl Stepper<'_> {
    /// Decode-only steps (nothing prefilling, at least one decode) until the next event that could
    /// change the batch (see the module); returns after the step that meets it.
    pub(super) fn run_decode_steps(&mut self, max_steps: u64) {
        let (intercept_s, slope_s_per_token) = match self.lines.as_mut() {
            Some(lines) => lines.line(&self.cost, self.n_dec),
            None => self.cost.decode_line(self.n_dec),
        };
        let due = self.finishing.next_due_after(self.life.step).unwrap_or(u64::MAX);
        let step_end = due.min(max_steps);
        let admit_on_arrival =
            self.next_waiting().is_none() && (self.n_dec as usize) < self.server.max_concurrency as usize;
        let growth = self.kv_growth();
        // kv_in_use() + growth > pool, as a bound on the decodes' held KV.
        let held_max = self.server.kv_pool_tokens + self.cached_dec - self.prompts.reserved - growth;
        let (spec, target_s) = (self.spec.is_some(), self.server.tpot_target_s);
        let mut in_system = (self.life.arrived - self.life.departed) as f64;
        let mut next_arrival_s = self.life.next_arrival_s();
        let mut sums = Sums::default();
        loop {
            let dt_s = intercept_s + slope_s_per_token * self.held_dec;
            self.life.clock_s += dt_s;
            sums.add(dt_s, in_system, target_s);
            if spec {
                self.count_spec_tokens(dt_s);
            }
            self.held_dec += growth;
            if self.life.clock_s >= next_arrival_s {
                self.life.release_until(self.life.clock_s);
                in_system = (self.life.arrived - self.life.departed) as f64;
                next_arrival_s = self.life.next_arrival_s();
                if admit_on_arrival {
                    break;
                }
            }
            if self.life.step + sums.steps >= step_end || self.held_dec > held_max {
                break;
            }
        }
        self.write_back(&sums);
        self.finish_due();
    }

    /// A run's sums into the step count and the trace (tokens without speculation, which counts
    /// its own per step).
    pub(super) fn write_back(&mut self, sums: &Sums) {
        let n = u64::from(self.n_dec);
        self.life.step += sums.steps;
        self.life.trace.steps += sums.steps;
        self.life.trace.in_system_integral_s += sums.in_system_s;
        self.life.trace.batch_integral_s += f64::from(self.n_dec) * sums.dt_s;
        self.life.trace.batch_peak = self.life.trace.batch_peak.max(self.n_dec);
        self.life.trace.decode_seq_steps += n * sums.steps;
        if self.spec.is_none() {
            self.life.trace.decode_tokens += n * sums.steps;
            self.life.trace.decode_tokens_on_time += n * sums.steps_on_time;
        }
        self.note_kv_peak();
    }
}
