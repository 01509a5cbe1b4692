//! Speculative decoding's keys: `spec` (off, draft, head), `draft` (a model preset id), `k` (draft
//! tokens, 1 to 8), `accept` (acceptance per token, 0 to 0.99) and `headcost` (a head's cost in
//! target layers), validated with a notice for each bad value; and their write-back.

use super::fields::{quoted, InputField, NumberField};
use super::{Notice, RawQuery};
use crate::core::presets::{model_by_id, ModelSpec, MODELS};
use crate::core::spec::{Drafter, Speculation};

/// `spec=` values, in the control's order.
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
    match drafter {
        Drafter::Off => "off",
        Drafter::Model(_) => "draft",
        Drafter::Head { .. } => "head",
    }
}

/// The drafter for a `spec=` id, keeping `current`'s settings where it is of that kind.
pub fn drafter_for_mode(id: &str, current: &Drafter) -> Drafter {
    match (id, current) {
        ("draft", Drafter::Model(_)) | ("head", Drafter::Head { .. }) => *current,
        ("draft", _) => Drafter::Model(default_draft()),
        ("head", _) => Drafter::Head { layer_cost_fraction: DEFAULT_HEAD_COST },
        _ => Drafter::Off,
    }
}

/// Validates the speculation keys (k and accept are read even while off, so a link keeps them).
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> Speculation {
    let d = Speculation::OFF;
    let draft_tokens = DRAFT_TOKENS.read(raw.get("k"), f64::from(d.draft_tokens), notices) as u32;
    let acceptance = ACCEPTANCE.read(raw.get("accept"), d.acceptance, notices);
    let drafter = match read_mode(raw, notices) {
        "draft" => Drafter::Model(read_draft(raw, notices)),
        "head" => Drafter::Head {
            layer_cost_fraction: HEAD_COST.read(raw.get("headcost"), DEFAULT_HEAD_COST, notices),
        },
        _ => Drafter::Off,
    };
    Speculation { drafter, draft_tokens, acceptance }
}

/// `spec=`: one of [`MODES`] (case-insensitive), else off with a notice.
fn read_mode(raw: &RawQuery, notices: &mut Vec<Notice>) -> &'static str {
    let Some(text) = raw.get("spec") else { return "off" };
    let lower = text.trim().to_ascii_lowercase();
    MODES.iter().copied().find(|m| *m == lower).unwrap_or_else(|| {
        let message = format!("spec={} is not one of off, draft, head; using off.", quoted(text));
        notices.push(Notice { key: "spec", message });
        "off"
    })
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
        Drafter::Model(m) => vec![("spec", "draft".to_string()), ("draft", m.id.to_string())],
        Drafter::Head { layer_cost_fraction } => vec![("spec", "head".to_string())]
            .into_iter()
            .chain([("headcost", HEAD_COST.write(layer_cost_fraction))])
            .collect(),
    };
    pairs.push(("k", DRAFT_TOKENS.write(f64::from(s.draft_tokens))));
    pairs.push(("accept", ACCEPTANCE.write(s.acceptance)));
    pairs
}
