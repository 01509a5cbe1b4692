//! The simulator's steps without speculation as lines in the decodes' held KV ([`StepLines`]): an
//! intercept per step token count, priced once and kept, one slope, and the prompt chunks'
//! attention as priced.

use super::{ByCount, StepCost, StepWork};

/// Mixed steps without speculation as lines: step time = intercept(T) + slope x held decode KV +
/// the prefill attention group's time, where T = decodes + prompt tokens. Exact in real arithmetic:
/// step_s is the sum of its groups' times plus the all-reduces and the overhead; with nothing held
/// and no prompt attention only the GEMMs(T), the all-reduces(T) and the overhead remain (the
/// intercept, by T); decode attention is held x one slope for every step ([`StepCost::decode_line`]);
/// the prefill group is added as priced. Matches step_s to about 1e-13 relative
/// (`tests/it/sim_decode_line.rs`). With speculation the drafter's time depends on the decodes, not
/// on T alone, so there are no lines ([`StepLines::new`] is None); nor under expert, data or
/// pipeline parallelism, whose step depends on how its tokens split into decodes and prompt chunks.
#[derive(Clone, Debug)]
pub struct StepLines {
    slope_s_per_token: f64,
    /// Intercepts by T, in s.
    intercept_by_tokens_s: ByCount<f64>,
}

impl StepLines {
    pub fn new(cost: &StepCost) -> Option<StepLines> {
        if cost.spec.is_some() || !cost.roofline.tp_only() {
            return None;
        }
        Some(StepLines {
            slope_s_per_token: cost.decode_line(1).1,
            intercept_by_tokens_s: ByCount::default(),
        })
    }

    /// [`StepCost::step_s`] of `work` as the line's sum (see the type).
    #[inline]
    pub fn step_s(&mut self, cost: &StepCost, work: &StepWork) -> f64 {
        let tokens = work.decode_tokens.saturating_add(work.prefill_tokens);
        let intercept_s = self.intercept_s(cost, tokens);
        intercept_s
            + self.slope_s_per_token * work.kv_tokens
            + cost.prefill_attention_s(work.prefill_kv_tokens, work.prefill_attention_flop)
    }

    /// A step of `tokens` tokens as (intercept_s, slope_s_per_token): its time is intercept_s +
    /// slope_s_per_token x the decodes' held KV + [`StepCost::prefill_attention_s`], as
    /// [`StepLines::step_s`] sums it (in that order, to the bit); for a decode-only step of
    /// `tokens` sequences, [`StepCost::decode_line`] with its intercept looked up by T.
    #[inline]
    pub fn line(&mut self, cost: &StepCost, tokens: u32) -> (f64, f64) {
        (self.intercept_s(cost, tokens), self.slope_s_per_token)
    }

    #[inline]
    fn intercept_s(&mut self, cost: &StepCost, tokens: u32) -> f64 {
        let price = || cost.step_s(&StepWork { prefill_tokens: tokens, ..StepWork::default() });
        self.intercept_by_tokens_s.get(u64::from(tokens), price)
    }
}

/// Held KV tokens at which [`StepCost::decode_line`] reads its slope: large, so the slope's
/// rounding is far below the step's (a 2^30-token step is hours long, the intercept milliseconds).
pub const DECODE_LINE_KV_TOKENS: f64 = 1_073_741_824.0;
