//! Speculative decoding in the stepper: the seeded draws of accepted tokens, the aggregate KV growth
//! they give, and the token counts they make.

use super::{Seq, Stepper};
use crate::sim::cost::SpecCost;
use crate::sim::rng::Rng;

/// The draws' generator and the aggregates speculation keeps.
#[derive(Clone, Debug)]
pub(super) struct SpecState {
    draft_tokens: u32,
    acceptance: f64,
    rng: Rng,
    /// Sum of the decoding sequences' rates: KV tokens the decodes add per step.
    growth: f64,
    /// Tokens decoded, and those whose step's time per token met the TPOT target (real-valued).
    tokens: f64,
    tokens_on_time: f64,
}

impl SpecState {
    pub(super) fn new(c: SpecCost) -> SpecState {
        SpecState {
            draft_tokens: c.draft_tokens,
            acceptance: c.acceptance,
            rng: Rng::new(c.seed),
            growth: 0.0,
            tokens: 0.0,
            tokens_on_time: 0.0,
        }
    }

    /// Tokens one sequence keeps in one step: 1 + the leading drafts accepted, each with
    /// probability alpha, at most k + 1.
    fn draw_tokens(&mut self) -> u32 {
        let mut tokens = 1;
        while tokens <= self.draft_tokens && self.rng.unit() <= self.acceptance {
            tokens += 1;
        }
        tokens
    }
}

impl Stepper<'_> {
    /// Steps `remaining` tokens take and the tokens kept per step (remaining / steps); without
    /// speculation (remaining, 1). With it, draws each step's tokens until they cover `remaining`.
    pub(super) fn draw_steps(&mut self, remaining: u32) -> (u64, f64) {
        let Some(spec) = self.spec.as_mut() else { return (u64::from(remaining), 1.0) };
        let (mut kept, mut steps) = (0_u32, 0_u64);
        while kept < remaining {
            kept += spec.draw_tokens();
            steps += 1;
        }
        let rate = f64::from(remaining) / steps as f64;
        spec.growth += rate;
        (steps, rate)
    }

    /// KV tokens the decodes add in one step: n_dec, or the sum of their rates with speculation.
    pub(super) fn kv_growth(&self) -> f64 {
        self.spec.as_ref().map_or(f64::from(self.n_dec), |s| s.growth)
    }

    /// [`Engine::remove_decode`] with speculation: `decoded` steps at the sequence's rate come out of
    /// the held KV; returns the whole tokens generated.
    pub(super) fn remove_spec_decode(&mut self, id: u32, seq: Seq, decoded: u32) -> u32 {
        let tokens = f64::from(decoded) * seq.rate;
        self.held_dec -= f64::from(seq.held0) + tokens;
        self.n_dec -= 1;
        self.seqs[id as usize].epoch = seq.epoch.wrapping_add(1);
        if let Some(spec) = self.spec.as_mut() {
            spec.growth = if self.n_dec == 0 { 0.0 } else { (spec.growth - seq.rate).max(0.0) };
        }
        seq.generated + tokens.round() as u32
    }

    /// Counts one step's tokens: the decodes' rates; on time when the step's time per token
    /// (dt x decodes / tokens) meets the TPOT target.
    pub(super) fn count_spec_tokens(&mut self, dt_s: f64) {
        let (n, target) = (f64::from(self.n_dec), self.server.tpot_target_s);
        let Some(spec) = self.spec.as_mut() else { return };
        spec.tokens += spec.growth;
        if n > 0.0 && dt_s * n / spec.growth <= target {
            spec.tokens_on_time += spec.growth;
        }
    }

    /// Writes speculation's real-valued token counts into the trace, rounded.
    pub(super) fn finish_spec_counts(&mut self) {
        if let Some(spec) = &self.spec {
            self.life.trace.decode_tokens = spec.tokens.round() as u64;
            self.life.trace.decode_tokens_on_time = spec.tokens_on_time.round() as u64;
        }
    }
}
