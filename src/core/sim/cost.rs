//! One mixed step's time for the simulator: the work the stepper gathered, priced by the same
//! per-operator step as the analytic view ([`StepRoofline::terms`]), its coefficients gathered once
//! per scenario. With speculative decoding a step is the drafter's k proposals for the decoding
//! sequences plus one step verifying k + 1 tokens per decode beside the prompt chunks, priced as
//! [`crate::roofline::spec_step`] prices it (the drafter's own prefill is not counted).

mod lines;

use crate::model::PromptAttention;
use crate::roofline::{draft_scenario, GroupCost, StepMix, StepRoofline, StepTerms};
use crate::scenario::Scenario;
use crate::spec::Drafter;
pub use lines::{StepLines, DECODE_LINE_KV_TOKENS};

/// A scenario's step pricing, in base units.
#[derive(Clone, Copy, Debug)]
pub struct StepCost {
    roofline: StepRoofline,
    prompt: PromptAttention,
    /// Speculative decoding's drafter and draw, if on.
    pub(super) spec: Option<SpecCost>,
}

/// How the drafter is priced and how accepted tokens are drawn.
#[derive(Clone, Copy, Debug)]
pub(super) struct SpecCost {
    /// Draft tokens per sequence per step (k).
    pub draft_tokens: u32,
    /// Acceptance per draft token (alpha).
    pub acceptance: f64,
    /// Seed of the accepted-token draws.
    pub seed: u64,
    drafter: DraftCost,
}

#[derive(Clone, Copy, Debug)]
enum DraftCost {
    /// The draft model's step coefficients.
    Model(StepRoofline),
    /// A head: fraction of one layer, and the target's layers.
    Head { fraction: f64, layers: f64 },
}

/// Values by a step's token count, each priced on first use and kept: a run prices the same few
/// hundred counts tens of thousands of times (counts past [`ByCount::COUNT_MAX`] are priced each
/// time). The GEMM groups ([`GemmMemo`]) and the step lines' intercepts are kept this way.
#[derive(Clone, Debug)]
pub struct ByCount<T> {
    by_count: Vec<Option<T>>,
}

impl<T> Default for ByCount<T> {
    fn default() -> ByCount<T> {
        ByCount { by_count: Vec::new() }
    }
}

impl<T: Copy> ByCount<T> {
    const COUNT_MAX: u64 = 1 << 16;

    #[inline]
    fn get(&mut self, count: u64, price: impl FnOnce() -> T) -> T {
        match self.by_count.get(count as usize) {
            Some(&Some(value)) => value,
            _ => self.price(count, price),
        }
    }

    #[cold]
    #[inline(never)]
    fn price(&mut self, count: u64, price: impl FnOnce() -> T) -> T {
        let value = price();
        if count < Self::COUNT_MAX {
            let i = count as usize;
            if i >= self.by_count.len() {
                self.by_count.resize(i + 1, None);
            }
            self.by_count[i] = Some(value);
        }
        value
    }
}

/// The GEMM group by a step's token count (steps priced whole, with speculation).
pub type GemmMemo = ByCount<GroupCost>;

/// The accepted-token draws' seed when the sweep gives none.
const DRAW_SEED: u64 = 0x5EC0_DEC0;

/// What one step does: decode tokens, prefill tokens (with their attention) and the KV they read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepWork {
    /// Sequences decoding one token each.
    pub decode_tokens: u32,
    /// Prompt tokens prefilled in this step.
    pub prefill_tokens: u32,
    /// Causal attention FLOPs of those prefill chunks, in FLOP.
    pub prefill_attention_flop: f64,
    /// Tokens of KV the decoding sequences hold (read by their attention), in tokens.
    pub kv_tokens: f64,
    /// Tokens of KV the prefilling prompts hold from earlier chunks (read by theirs), in tokens.
    pub prefill_kv_tokens: f64,
}

impl StepCost {
    pub fn new(scenario: &Scenario) -> StepCost {
        let sp = scenario.speculation;
        let drafter = match sp.drafter {
            Drafter::Off => None,
            Drafter::Model(_) => draft_scenario(scenario).map(|d| DraftCost::Model(StepRoofline::new(&d))),
            Drafter::Head { layer_cost_fraction } => Some(DraftCost::Head {
                fraction: layer_cost_fraction,
                layers: f64::from(scenario.model.layers.max(1)),
            }),
        };
        let spec = drafter.map(|drafter| SpecCost {
            draft_tokens: sp.draft_tokens,
            acceptance: sp.acceptance,
            seed: DRAW_SEED,
            drafter,
        });
        StepCost {
            roofline: StepRoofline::new(scenario),
            prompt: PromptAttention::new(&scenario.model),
            spec,
        }
    }

    /// The same pricing with the accepted-token draws seeded by `seed`.
    pub fn seeded(self, seed: u64) -> StepCost {
        StepCost { spec: self.spec.map(|s| SpecCost { seed: seed ^ DRAW_SEED, ..s }), ..self }
    }

    /// The drafter's k proposals for the step's decodes, in s: k x the draft model's decode step, or
    /// k x f x (the target's decode step - overhead) / layers for a head; 0 without decodes or
    /// speculation.
    fn draft_s(&self, work: &StepWork) -> f64 {
        let Some(spec) = self.spec.filter(|_| work.decode_tokens > 0) else { return 0.0 };
        let mix = StepMix {
            decode_seqs: f64::from(work.decode_tokens),
            decode_kv_tokens: work.kv_tokens,
            ..StepMix::default()
        };
        let k = f64::from(spec.draft_tokens);
        match spec.drafter {
            DraftCost::Model(draft) => k * draft.terms(&mix).step_s,
            DraftCost::Head { fraction, layers } => {
                let target = self.roofline.terms(&mix);
                k * fraction * (target.step_s - target.fixed_s) / layers
            }
        }
    }

    /// The prefill attention group's time (the prompts' earlier KV read, their chunks' attention
    /// FLOPs), in s: the longer of compute and memory as [`GroupCost::bound`] picks it, which is
    /// [`GroupCost::time_s`] for any numbers but NaN, without its NaN handling on the hottest path.
    #[inline]
    pub fn prefill_attention_s(&self, prefill_kv_tokens: f64, prefill_attention_flop: f64) -> f64 {
        let g = self.roofline.prefill_attention(prefill_kv_tokens, prefill_attention_flop);
        if g.compute_s > g.memory_s {
            g.compute_s
        } else {
            g.memory_s
        }
    }

    /// The step's per-operator terms (GEMMs for all its tokens, decode and prefill attention).
    #[inline]
    pub fn terms(&self, work: &StepWork) -> StepTerms {
        self.roofline.terms(&self.mix(work))
    }

    #[inline]
    fn mix(&self, work: &StepWork) -> StepMix {
        StepMix {
            decode_seqs: f64::from(work.decode_tokens),
            decode_kv_tokens: work.kv_tokens,
            prefill_tokens: f64::from(work.prefill_tokens),
            prefill_kv_tokens: work.prefill_kv_tokens,
            prefill_attention_flop: work.prefill_attention_flop,
            verify_draft_tokens: self.spec.map_or(0.0, |s| f64::from(s.draft_tokens)),
        }
    }

    /// [`StepCost::step_s`] with the GEMM group looked up in `memo` by the step's token count (priced
    /// there on first use), to the bit; priced whole under expert, data or pipeline parallelism.
    #[inline]
    pub fn step_s_memo(&self, work: &StepWork, memo: &mut GemmMemo) -> f64 {
        if !self.roofline.tp_only() {
            return self.step_s(work);
        }
        let k = self.spec.map_or(0, |s| s.draft_tokens);
        let tokens = f64::from(work.decode_tokens) * (1.0 + f64::from(k)) + f64::from(work.prefill_tokens);
        let count = u64::from(work.decode_tokens) * u64::from(k + 1) + u64::from(work.prefill_tokens);
        let gemm = memo.get(count, || self.roofline.gemm(tokens));
        self.with_draft(self.roofline.terms_with_gemm(gemm, tokens, &self.mix(work)).step_s, work)
    }

    /// A decode-only step of `decode_tokens` sequences as a line in the KV they hold: step time =
    /// intercept_s + slope_s_per_token x held KV tokens, in (s, s per token).
    ///
    /// Exact in real arithmetic: with the decodes fixed every term of [`StepCost::step_s`] is affine
    /// in the held KV (the GEMMs and all-reduces are fixed; decode attention is held x max(bytes
    /// per token / bw, FLOPs per token / peak), the same bound at any held KV; the drafter's steps
    /// the same). The line is read off step_s at 0 and at [`DECODE_LINE_KV_TOKENS`] held tokens; in
    /// floating point it matches step_s to about 1e-13 relative (`tests/it/sim_decode_line.rs`).
    pub fn decode_line(&self, decode_tokens: u32) -> (f64, f64) {
        let at = |kv_tokens: f64| self.step_s(&StepWork { decode_tokens, kv_tokens, ..StepWork::default() });
        let intercept_s = at(0.0);
        (intercept_s, (at(DECODE_LINE_KV_TOKENS) - intercept_s) / DECODE_LINE_KV_TOKENS)
    }

    /// The step's time, in s: [`StepRoofline::terms`]' total (plus the drafter's time with
    /// speculation). With B decodes holding B x context KV tokens this is step(B) exactly (with
    /// speculation, draft + verify of [`crate::roofline::spec_step`]).
    #[inline]
    pub fn step_s(&self, work: &StepWork) -> f64 {
        self.with_draft(self.terms(work).step_s, work)
    }

    /// A target step's time plus, with speculation, the drafter's proposals for its decodes, in s.
    #[inline]
    fn with_draft(&self, step_s: f64, work: &StepWork) -> f64 {
        if self.spec.is_some() {
            step_s + self.draft_s(work)
        } else {
            step_s
        }
    }

    /// Data-parallel ranks of the replica ([`StepRoofline::dp_ranks`]): the stepper runs that many.
    pub fn dp_ranks(&self) -> u32 {
        self.roofline.dp_ranks()
    }

    /// One replica step of DP ranks as paced by `rank`, in s: [`StepRoofline::terms_ranks`] of every
    /// rank's work together (`total`) and `rank`'s, plus the drafter's proposals for `rank`'s
    /// decodes priced the same way. The engine takes the longest over the ranks.
    pub fn step_s_ranks(&self, total: &StepWork, rank: &StepWork) -> f64 {
        let step_s = self.roofline.terms_ranks(&self.mix(total), &self.mix(rank)).step_s;
        let Some(spec) = self.spec.filter(|_| rank.decode_tokens > 0) else { return step_s };
        let decodes = |w: &StepWork| StepMix {
            decode_seqs: f64::from(w.decode_tokens),
            decode_kv_tokens: w.kv_tokens,
            ..StepMix::default()
        };
        let (all, own) = (decodes(total), decodes(rank));
        let k = f64::from(spec.draft_tokens);
        step_s
            + match spec.drafter {
                DraftCost::Model(draft) => k * draft.terms_ranks(&all, &own).step_s,
                DraftCost::Head { fraction, layers } => {
                    let target = self.roofline.terms_ranks(&all, &own);
                    k * fraction * (target.step_s - target.fixed_s) / layers
                }
            }
    }

    /// One whole prompt of `prompt_tokens` as a step of its own (no decodes, no earlier KV), in s:
    /// [`crate::prefill::prefill_time`] of a scenario at that context, to the bit.
    pub fn prefill_s(&self, prompt_tokens: u32) -> f64 {
        let work = StepWork {
            prefill_tokens: prompt_tokens,
            prefill_attention_flop: self.chunk_attention_flop(0, prompt_tokens),
            ..StepWork::default()
        };
        self.step_s(&work)
    }

    /// Causal attention FLOPs for prefilling prompt tokens `done..done + chunk`, in FLOP:
    /// prompt_attention_flop(done + chunk) - prompt_attention_flop(done).
    pub fn chunk_attention_flop(&self, done: u32, chunk: u32) -> f64 {
        self.prompt_attention_flop(done.saturating_add(chunk)) - self.prompt_attention_flop(done)
    }

    /// Causal attention FLOPs of a prompt's first `tokens` tokens
    /// ([`crate::model::prefill_attention_flop`] of the model), in FLOP.
    #[inline]
    pub fn prompt_attention_flop(&self, tokens: u32) -> f64 {
        self.prompt.flop(tokens)
    }
}
