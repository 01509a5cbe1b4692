//! How the page is shown, as opposed to what it computes: layout mode (page, presentation, embed),
//! the panel an embed or presentation shows, the colour theme and the batch marked on every chart.
//! Read from and written to the URL beside [`super::Inputs`], validated the same way.

use serde::{Deserialize, Serialize};

use super::fields::quoted;
use super::{Notice, RawQuery};

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
}

impl Panel {
    /// In the page's order (↑/↓ step through it while presenting).
    pub const ALL: [Panel; 8] = [
        Panel::Rate,
        Panel::Step,
        Panel::Interactivity,
        Panel::Table,
        Panel::Derivation,
        Panel::Placement,
        Panel::Search,
        Panel::Sim,
    ];

    /// The URL id.
    pub fn id(self) -> &'static str {
        match self {
            Panel::Rate => "rate",
            Panel::Step => "step",
            Panel::Interactivity => "interactivity",
            Panel::Table => "table",
            Panel::Derivation => "derivation",
            Panel::Placement => "placement",
            Panel::Search => "search",
            Panel::Sim => "sim",
        }
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

    pub fn id(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::Projector => "projector",
        }
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
    let present = read_flag(raw, "present", notices);
    let embed = read_flag(raw, "embed", notices);
    let mode = match (embed, present) {
        (true, _) => Mode::Embed,
        (false, true) => Mode::Present,
        _ => Mode::Page,
    };
    let panel = read_choice(raw, "view", &Panel::ALL, Panel::id, Panel::default(), notices);
    let theme = read_choice(raw, "theme", &Theme::ALL, Theme::id, Theme::default(), notices);
    let mark_batch = read_mark(raw.get("mark"), notices);
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
            Mode::Present => pairs.push(("present", "1".to_string())),
            Mode::Embed => pairs.push(("embed", "1".to_string())),
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

/// `1`, `true`, `on` (or an empty value) is on; `0`, `false`, `off` is off; else off with a notice.
fn read_flag(raw: &RawQuery, key: &'static str, notices: &mut Vec<Notice>) -> bool {
    let Some(text) = raw.get(key) else { return false };
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "on" | "yes" => true,
        "0" | "false" | "off" | "no" => false,
        _ => {
            notices.push(Notice { key, message: format!("{key}={} is not 1 or 0; using 0.", quoted(text)) });
            false
        }
    }
}

/// One of `all` by id (case-insensitive), else `default` with a notice listing the ids.
fn read_choice<T: Copy>(
    raw: &RawQuery,
    key: &'static str,
    all: &[T],
    id: fn(T) -> &'static str,
    default: T,
    notices: &mut Vec<Notice>,
) -> T {
    let Some(text) = raw.get(key) else { return default };
    let wanted = text.trim().to_ascii_lowercase();
    all.iter().copied().find(|t| id(*t) == wanted).unwrap_or_else(|| {
        let ids: Vec<&str> = all.iter().map(|t| id(*t)).collect();
        let message =
            format!("{key}={} is not one of {}; using {}.", quoted(text), ids.join(", "), id(default));
        notices.push(Notice { key, message });
        default
    })
}

/// A whole batch in 1..=[`MARK_MAX`], else no mark with a notice.
fn read_mark(raw: Option<&str>, notices: &mut Vec<Notice>) -> Option<u32> {
    let text = raw?;
    match text.trim().parse::<u32>() {
        Ok(batch) if (1..=MARK_MAX).contains(&batch) => Some(batch),
        _ => {
            let message =
                format!("mark={} is not a batch from 1 to {MARK_MAX}; no batch is marked.", quoted(text));
            notices.push(Notice { key: "mark", message });
            None
        }
    }
}
