//! Speculative decoding's keys: `spec` (off, draft, head), `draft` (a model preset id), `k` (draft
//! tokens, 1 to 8), `accept` (acceptance per token, 0 to 0.99) and `headcost` (a head's cost in
//! target layers), validated with a notice for each bad value; and their write-back.

use super::fields::{quoted, InputField, NumberField};
use super::read::{self, UrlId};
use super::{Notice, RawQuery};
use crate::core::presets::{model_by_id, ModelSpec, MODELS};
use crate::core::spec::{Drafter, Speculation};

/// `spec=`: which drafter speculates, if any (the drafter's own settings live beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecMode {
    Off,
    /// A draft model (`draft=`).
    Draft,
    /// Draft heads on the target (`headcost=`).
    Head,
}

impl SpecMode {
    /// The mode `drafter` speculates in.
    pub fn of(drafter: &Drafter) -> SpecMode {
        match drafter {
            Drafter::Off => SpecMode::Off,
            Drafter::Model(_) => SpecMode::Draft,
            Drafter::Head { .. } => SpecMode::Head,
        }
    }
}

impl UrlId for SpecMode {
    const VARIANTS: &'static [SpecMode] = &[SpecMode::Off, SpecMode::Draft, SpecMode::Head];

    fn url_id(self) -> &'static str {
        match self {
            SpecMode::Off => "off",
            SpecMode::Draft => "draft",
            SpecMode::Head => "head",
        }
    }
}

/// `spec=` values, in the control's ([`UrlId`]) order (tests/it/url_flags.rs holds them equal).
pub const MODES: [&str; 3] = ["off", "draft", "head"];
/// The draft model a `spec=draft` link without `draft=` uses.
pub const DEFAULT_DRAFT_ID: &str = "llama-3.2-1b";
/// A head's cost per draft token when `headcost=` is absent: one target layer (an EAGLE-style head
/// is one decoder layer; DeepSeek-V3's MTP module is one layer too).
pub const DEFAULT_HEAD_COST: f64 = 1.0;

/// Draft tokens per step (k).
pub const DRAFT_TOKENS: NumberField = NumberField::new("k", "Draft tokens (k)", "tokens", (1.0, 8.0)).whole();
/// Acceptance rate per draft token (alpha), a fraction.
pub const ACCEPTANCE: NumberField = NumberField::new("accept", "Acceptance per token (α)", "", (0.0, 0.99));
/// A draft head's cost per draft token, in target layers.
pub const HEAD_COST: NumberField = NumberField::new("headcost", "Head cost", "layers", (0.05, 4.0));

/// [`DRAFT_TOKENS`] in the scenario.
pub const DRAFT_TOKENS_INPUT: InputField = DRAFT_TOKENS.bound(
    |i| f64::from(i.scenario.speculation.draft_tokens),
    |i, v| i.scenario.speculation.draft_tokens = v as u32,
);
/// [`ACCEPTANCE`] in the scenario.
pub const ACCEPTANCE_INPUT: InputField =
    ACCEPTANCE.bound(|i| i.scenario.speculation.acceptance, |i, v| i.scenario.speculation.acceptance = v);
/// [`HEAD_COST`] in the scenario (shows the default while no head drafts).
pub const HEAD_COST_INPUT: InputField = HEAD_COST.bound(
    |i| match i.scenario.speculation.drafter {
        Drafter::Head { layer_cost_fraction } => layer_cost_fraction,
        _ => DEFAULT_HEAD_COST,
    },
    |i, v| {
        if let Drafter::Head { .. } = i.scenario.speculation.drafter {
            i.scenario.speculation.drafter = Drafter::Head { layer_cost_fraction: v };
        }
    },
);

/// The default draft model preset.
pub fn default_draft() -> ModelSpec {
    model_by_id(DEFAULT_DRAFT_ID).copied().unwrap_or(MODELS[0])
}

/// The `spec=` id of a drafter.
pub fn mode_id(drafter: &Drafter) -> &'static str {
    SpecMode::of(drafter).url_id()
}

/// The drafter for a `spec=` id (an unknown id is off), keeping `current`'s settings where it is
/// of that kind.
pub fn drafter_for_mode(id: &str, current: &Drafter) -> Drafter {
    drafter_in(SpecMode::from_url_id(id).unwrap_or(SpecMode::Off), current)
}

/// The drafter for `mode`, keeping `current`'s settings where it is of that kind.
pub fn drafter_in(mode: SpecMode, current: &Drafter) -> Drafter {
    match (mode, SpecMode::of(current)) {
        (SpecMode::Draft, SpecMode::Draft) | (SpecMode::Head, SpecMode::Head) => *current,
        (SpecMode::Draft, _) => Drafter::Model(default_draft()),
        (SpecMode::Head, _) => Drafter::Head { layer_cost_fraction: DEFAULT_HEAD_COST },
        (SpecMode::Off, _) => Drafter::Off,
    }
}

/// Validates the speculation keys (k and accept are read even while off, so a link keeps them).
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> Speculation {
    let defaults = Speculation::OFF;
    let draft_tokens = read::number(raw, &DRAFT_TOKENS, f64::from(defaults.draft_tokens), notices) as u32;
    let acceptance = read::number(raw, &ACCEPTANCE, defaults.acceptance, notices);
    let drafter = match read::choice(raw, "spec", SpecMode::Off, notices) {
        SpecMode::Draft => Drafter::Model(read_draft(raw, notices)),
        SpecMode::Head => {
            Drafter::Head { layer_cost_fraction: read::number(raw, &HEAD_COST, DEFAULT_HEAD_COST, notices) }
        }
        SpecMode::Off => Drafter::Off,
    };
    Speculation { drafter, draft_tokens, acceptance }
}

/// `draft=`: a model preset id, else [`DEFAULT_DRAFT_ID`] with a notice.
fn read_draft(raw: &RawQuery, notices: &mut Vec<Notice>) -> ModelSpec {
    let default = default_draft();
    let Some(text) = raw.get("draft") else { return default };
    model_by_id(text.trim()).copied().unwrap_or_else(|| {
        let message = format!("Unknown draft model {}; drafting with {}.", quoted(text), default.name);
        notices.push(Notice { key: "draft", message });
        default
    })
}

/// Query pairs in canonical order: none while off; `spec`, the drafter's own key, `k` and `accept`
/// while on.
pub fn pairs(speculation: &Speculation) -> Vec<(&'static str, String)> {
    let s = speculation;
    let mut pairs = match s.drafter {
        Drafter::Off => return Vec::new(),
        Drafter::Model(m) => vec![("spec", mode_id(&s.drafter).to_string()), ("draft", m.id.to_string())],
        Drafter::Head { layer_cost_fraction } => vec![("spec", mode_id(&s.drafter).to_string())]
            .into_iter()
            .chain([("headcost", HEAD_COST.write(layer_cost_fraction))])
            .collect(),
    };
    pairs.push(("k", DRAFT_TOKENS.write(f64::from(s.draft_tokens))));
    pairs.push(("accept", ACCEPTANCE.write(s.acceptance)));
    pairs
}
