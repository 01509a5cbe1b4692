//! How the page is shown, as opposed to what it computes: layout mode (page, presentation, embed),
//! the panel an embed or presentation shows, the colour theme and the batch marked on every chart.
//! Read from and written to the URL beside [`super::Inputs`], validated the same way.

use serde::{Deserialize, Serialize};

use super::read::{self, UrlId};
use super::{Notice, RawQuery};

/// The charts' look: which palette, and (for a projector) heavier lines and larger text; its colours
/// and scale are the chart's (`chart::style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Look {
    #[default]
    Light,
    Dark,
    /// Black on white, heavier lines and larger text, for projectors that wash colour out.
    Projector,
}

impl Look {
    /// Its name in `<html data-look>` and in messages between the page and its panels.
    pub fn id(self) -> &'static str {
        match self {
            Look::Light => "light",
            Look::Dark => "dark",
            Look::Projector => "projector",
        }
    }

    /// The look an [`id`](Look::id) names.
    pub fn from_id(id: &str) -> Option<Look> {
        [Look::Light, Look::Dark, Look::Projector].into_iter().find(|l| l.id() == id)
    }
}

/// The page's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Mode {
    /// The full page: controls, charts, table, panels.
    #[default]
    Page,
    /// Presentation (`present=1`): large type, one panel filling the screen, arrow keys step lessons.
    Present,
    /// Embed (`embed=1`): no page chrome, one panel, compact enough for a 600x400 iframe.
    Embed,
}

/// The panel an embed or presentation shows (`view=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Panel {
    /// Throughput and goodput against batch.
    #[default]
    Rate,
    Step,
    Interactivity,
    Table,
    Derivation,
    /// Prefill and decode colocated or disaggregated: the placements compared.
    Placement,
    /// The configuration search (chart and table).
    Search,
    Sim,
    /// Every published measurement against the model (the accuracy view), last on the page.
    Accuracy,
}

impl Panel {
    /// In the page's order (↑/↓ step through it while presenting).
    pub const ALL: [Panel; 9] = [
        Panel::Rate,
        Panel::Step,
        Panel::Interactivity,
        Panel::Table,
        Panel::Derivation,
        Panel::Placement,
        Panel::Search,
        Panel::Sim,
        Panel::Accuracy,
    ];

    /// The URL id: [`UrlId::url_id`].
    pub fn id(self) -> &'static str {
        self.url_id()
    }

    /// A short name for menus.
    pub fn label(self) -> &'static str {
        match self {
            Panel::Rate => "Throughput and goodput",
            Panel::Step => "Step time",
            Panel::Interactivity => "Per GPU against per user",
            Panel::Table => "Batch table",
            Panel::Derivation => "The arithmetic",
            Panel::Placement => "Colocated or disaggregated",
            Panel::Search => "Configuration search",
            Panel::Accuracy => "Accuracy against published runs",
            Panel::Sim => "Simulated attainment",
        }
    }
}

/// The colour theme (`theme=`); `Auto` follows `prefers-color-scheme`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
    /// Black on white, heavier lines and larger chart text, for washed-out projectors.
    Projector,
}

impl Theme {
    pub const ALL: [Theme; 4] = [Theme::Auto, Theme::Light, Theme::Dark, Theme::Projector];

    /// The URL id: [`UrlId::url_id`].
    pub fn id(self) -> &'static str {
        self.url_id()
    }

    pub fn label(self) -> &'static str {
        match self {
            Theme::Auto => "System",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
            Theme::Projector => "Projector",
        }
    }
}

impl UrlId for Panel {
    const VARIANTS: &'static [Panel] = &Panel::ALL;

    fn url_id(self) -> &'static str {
        match self {
            Panel::Rate => "rate",
            Panel::Step => "step",
            Panel::Interactivity => "interactivity",
            Panel::Table => "table",
            Panel::Derivation => "derivation",
            Panel::Placement => "placement",
            Panel::Search => "search",
            Panel::Accuracy => "accuracy",
            Panel::Sim => "sim",
        }
    }
}

impl UrlId for Theme {
    const VARIANTS: &'static [Theme] = &Theme::ALL;

    fn url_id(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Projector => "projector",
        }
    }
}

/// The largest batch `mark=` accepts.
pub const MARK_MAX: u32 = 1_000_000;

/// The validated view state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct View {
    pub mode: Mode,
    pub panel: Panel,
    pub theme: Theme,
    /// The batch marked on every chart (clicking a table row), if any.
    pub mark_batch: Option<u32>,
    /// The lesson last loaded (`lesson=`); shown only while the inputs are still its state
    /// (`super::lessons::active`).
    pub lesson: Option<u8>,
}

/// Reads `present`, `embed`, `view`, `theme` and `mark`; a bad value falls back with a notice.
/// `embed=1` wins over `present=1`: an iframe has no room for a presentation. `lesson` is the
/// lesson the link loads (read first, by `super::lessons`) with the panel it shows.
pub fn read(raw: &RawQuery, lesson: Option<(u8, Panel)>, notices: &mut Vec<Notice>) -> View {
    let present = read::flag(raw, "present", notices);
    let embed = read::flag(raw, "embed", notices);
    let mode = match (embed, present) {
        (true, _) => Mode::Embed,
        (false, true) => Mode::Present,
        _ => Mode::Page,
    };
    let panel = read::choice(raw, "view", Panel::default(), notices);
    let theme = read::choice(raw, "theme", Theme::default(), notices);
    let batch = ("a batch", "no batch is marked");
    let mark_batch = read::whole_or_none(raw, "mark", (1, MARK_MAX), batch, notices);
    // A presentation of a lesson without `view=` opens on the lesson's own panel.
    let panel = match (mode, raw.get("view"), lesson.map(|(_, panel)| panel)) {
        (Mode::Present, None, Some(p)) => p,
        _ => panel,
    };
    View { mode, panel, theme, mark_batch, lesson: lesson.map(|(number, _)| number) }
}

impl View {
    /// The URL pairs that differ from the default view, in [`super::KEYS`] order.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        match self.mode {
            Mode::Page => {}
            Mode::Present => pairs.push(("present", read::flag_word(true).to_string())),
            Mode::Embed => pairs.push(("embed", read::flag_word(true).to_string())),
        }
        if self.mode != Mode::Page || self.panel != Panel::default() {
            pairs.push(("view", self.panel.id().to_string()));
        }
        if self.theme != Theme::default() {
            pairs.push(("theme", self.theme.id().to_string()));
        }
        if let Some(batch) = self.mark_batch {
            pairs.push(("mark", batch.to_string()));
        }
        if let Some(lesson) = self.lesson {
            pairs.push(("lesson", lesson.to_string()));
        }
        pairs
    }

    /// The theme the page draws in: presentation mode uses the projector look unless the URL
    /// chose a theme (`theme=auto` counts as not choosing).
    pub fn look_theme(&self) -> Theme {
        match (self.mode, self.theme) {
            (Mode::Present, Theme::Auto) => Theme::Projector,
            (_, theme) => theme,
        }
    }
}
