//! What the share controls and the embed bar print: the one-line scenario summary, the query of a
//! link that reopens the same state (as a full page or as an embed of one panel) and the iframe
//! snippet, and such a link read back. Pure, so native tests check it.

use crate::core::fit::YourPoint;
use crate::state::measured::{self, with_measured};
use crate::state::view::{Mode, Panel, View};
use crate::state::{from_page_query, page_query, parse_raw, Inputs, Notice};
use crate::view::format::{target_ms, thousands};

/// The sizes the embed code offers, in CSS pixels (width, height).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EmbedSize {
    /// A chart beside text in a wiki page or blog post.
    #[default]
    Medium,
    /// A wider chart across a page.
    Large,
    /// A narrow column, or a phone.
    Narrow,
}

impl EmbedSize {
    pub const ALL: [EmbedSize; 3] = [EmbedSize::Medium, EmbedSize::Large, EmbedSize::Narrow];

    pub fn id(self) -> &'static str {
        match self {
            EmbedSize::Medium => "600x400",
            EmbedSize::Large => "800x500",
            EmbedSize::Narrow => "360x480",
        }
    }

    /// (width, height) in CSS pixels.
    pub fn pixels(self) -> (u32, u32) {
        match self {
            EmbedSize::Medium => (600, 400),
            EmbedSize::Large => (800, 500),
            EmbedSize::Narrow => (360, 480),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            EmbedSize::Medium => "600 × 400",
            EmbedSize::Large => "800 × 500",
            EmbedSize::Narrow => "360 × 480 (narrow column)",
        }
    }
}

/// The scenario in one line: model, GPUs, weight precision, context, KV precision and TPOT target
/// (`Llama 3.1 8B · H100 SXM · BF16 weights · 2,048 tokens · BF16 KV · 10 ms TPOT`).
pub fn scenario_summary(inputs: &Inputs) -> String {
    let parallel = inputs.scenario.parallel;
    let gpus = if !parallel.tp_only() {
        format!("{} × {} ({})", parallel.gpus(), inputs.scenario.gpu.name, parallel.label())
    } else if parallel.tp > 1 {
        format!("{} × {}", parallel.tp, inputs.scenario.gpu.name)
    } else {
        inputs.scenario.gpu.name.to_string()
    };
    format!(
        "{} · {gpus} · {} weights · {} tokens · {} KV · {} ms TPOT",
        inputs.scenario.model.name,
        inputs.scenario.weight_precision.label(),
        thousands(f64::from(inputs.scenario.context_tokens)),
        inputs.scenario.kv_precision.label(),
        target_ms(inputs.scenario.tpot_target_s)
    )
}

/// The whole page state as a query: the inputs, the view and the measured points (the page's own
/// URL, and every link or embed made from it).
pub fn link_query(inputs: &Inputs, view: &View, measured: &[YourPoint]) -> String {
    with_measured(page_query(inputs, view), measured)
}

/// A link's whole state: what [`link_query`] wrote, read back.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkState {
    pub inputs: Inputs,
    pub view: View,
    pub measured: Vec<YourPoint>,
    /// What was out of range or unreadable, and what was used instead.
    pub notices: Vec<Notice>,
}

/// The inverse of [`link_query`]: the inputs, view and measured points of any query, validated.
pub fn read_link(query: &str) -> LinkState {
    let (inputs, view, mut notices) = from_page_query(query);
    let measured = measured::read(&parse_raw(query), &mut notices);
    LinkState { inputs, view, measured, notices }
}

/// The query of the full page with the same state (an embed's "Open in Goodput Lab").
pub fn full_page_query(inputs: &Inputs, view: &View, measured: &[YourPoint]) -> String {
    link_query(inputs, &View { mode: Mode::Page, ..*view }, measured)
}

/// The query of an embed of `panel` with the same state.
pub fn embed_query(inputs: &Inputs, view: &View, measured: &[YourPoint], panel: Panel) -> String {
    link_query(inputs, &View { mode: Mode::Embed, panel, ..*view }, measured)
}

/// The iframe to paste into a page: `src` (an absolute URL) at `size`, titled with the scenario so
/// a screen reader can name the frame, lazily loaded and borderless.
pub fn iframe_snippet(src: &str, summary: &str, size: EmbedSize) -> String {
    let (width, height) = size.pixels();
    format!(
        "<iframe src=\"{}\" width=\"{width}\" height=\"{height}\" title=\"{}\" loading=\"lazy\" style=\"border:0\"></iframe>",
        escape_attribute(src),
        escape_attribute(&format!("Goodput Lab: {summary}"))
    )
}

/// `text` safe inside a double-quoted HTML attribute.
pub fn escape_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(ch),
        }
    }
    out
}
