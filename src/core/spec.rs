//! Speculative decoding's validated settings: who drafts, how many tokens, how often they are
//! accepted. (The formulas that use them live beside the step they change.)

use serde::{Deserialize, Serialize};

use super::presets::ModelSpec;

/// Who proposes the draft tokens a target step verifies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Drafter {
    /// No speculation: one token per sequence per step.
    Off,
    /// A smaller model of the same tokenizer, run for k decode steps of its own before each verify.
    Model(ModelSpec),
    /// A draft head on the target (MTP or EAGLE-style): each draft token costs this fraction of one
    /// target layer's step.
    Head { layer_cost_fraction: f64 },
}

/// Speculative decoding: a drafter, its draft length and the per-token acceptance rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Speculation {
    pub drafter: Drafter,
    /// Draft tokens proposed per sequence per step (k), 1 to 8.
    pub draft_tokens: u32,
    /// Probability that each draft token is accepted, given the ones before it were (alpha), in [0, 0.99].
    pub acceptance: f64,
}

impl Speculation {
    /// Speculation off (the default).
    pub const OFF: Speculation = Speculation { drafter: Drafter::Off, draft_tokens: 4, acceptance: 0.7 };

    /// Whether a drafter is set.
    pub fn is_on(&self) -> bool {
        self.drafter != Drafter::Off
    }
}
