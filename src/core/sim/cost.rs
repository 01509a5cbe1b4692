//! One mixed step's time for the simulator: the work the engine gathered, priced by the same
//! per-operator step as the analytic view ([`StepRoofline::terms`]), its coefficients gathered once
//! per scenario.

use crate::core::model::prefill_attention_flop;
use crate::core::presets::ModelSpec;
use crate::core::roofline::{Scenario, StepMix, StepRoofline, StepTerms};

/// A scenario's step pricing, in base units.
#[derive(Clone, Copy, Debug)]
pub struct StepCost {
    roofline: StepRoofline,
    model: ModelSpec,
}

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
        StepCost { roofline: StepRoofline::new(scenario), model: scenario.model }
    }

    /// The step's per-operator terms (GEMMs for all its tokens, decode and prefill attention).
    #[inline]
    pub fn terms(&self, work: &StepWork) -> StepTerms {
        self.roofline.terms(&StepMix {
            decode_seqs: f64::from(work.decode_tokens),
            decode_kv_tokens: work.kv_tokens,
            prefill_tokens: f64::from(work.prefill_tokens),
            prefill_kv_tokens: work.prefill_kv_tokens,
            prefill_attention_flop: work.prefill_attention_flop,
            ..StepMix::default()
        })
    }

    /// The step's time, in s: [`StepRoofline::terms`]' total. With B decodes holding B x context KV
    /// tokens this is step(B) exactly.
    #[inline]
    pub fn step_s(&self, work: &StepWork) -> f64 {
        self.terms(work).step_s
    }

    /// One whole prompt of `prompt_tokens` as a step of its own (no decodes, no earlier KV), in s:
    /// [`crate::core::prefill::prefill_time`] of a scenario at that context, to the bit.
    pub fn prefill_s(&self, prompt_tokens: u32) -> f64 {
        let work = StepWork {
            prefill_tokens: prompt_tokens,
            prefill_attention_flop: self.chunk_attention_flop(0, prompt_tokens),
            ..StepWork::default()
        };
        self.step_s(&work)
    }

    /// Causal attention FLOPs for prefilling prompt tokens `done..done + chunk`, in FLOP.
    pub fn chunk_attention_flop(&self, done: u32, chunk: u32) -> f64 {
        let m = &self.model;
        prefill_attention_flop(m, done.saturating_add(chunk)) - prefill_attention_flop(m, done)
    }
}
