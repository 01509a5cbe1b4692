//! What each key does on the page, as a pure function of the key, the layout mode and what has
//! focus; the browser glue (`ui::keys`) only reads the event and applies the action.

use super::view::{Mode, Panel};

/// What the focused element is, as far as keys are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// A text or number box, a menu, a text area or editable text: every key is typing.
    Field,
    /// A slider (or another input that uses arrows itself): arrows and Page keys move it.
    Slider,
    /// Anything else: the page, a button, a link.
    Other,
}

/// A key's effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Load lesson N.
    Lesson(u8),
    /// The previous (-1) or next (+1) lesson.
    StepLesson(i32),
    /// Enter presentation, or leave it.
    TogglePresent,
    LeavePresent,
    /// The previous (-1) or next (+1) panel on screen while presenting.
    StepPanel(i32),
    /// Show or hide the key legend.
    ToggleLegend,
}

/// The action for `key` (a `KeyboardEvent.key`), if any. Nothing while typing in a field, with
/// Ctrl, Alt or Meta held (`modified`), or in an embed; arrows and Page keys only while presenting
/// and never away from a focused slider.
pub fn action(key: &str, modified: bool, mode: Mode, focus: Focus) -> Option<KeyAction> {
    if modified || focus == Focus::Field || mode == Mode::Embed {
        return None;
    }
    let presenting = mode == Mode::Present;
    let arrows = presenting && focus != Focus::Slider;
    match key {
        "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => key.parse().ok().map(KeyAction::Lesson),
        "p" | "P" => Some(KeyAction::TogglePresent),
        "?" => Some(KeyAction::ToggleLegend),
        "Escape" if presenting => Some(KeyAction::LeavePresent),
        "ArrowRight" | "PageDown" if arrows => Some(KeyAction::StepLesson(1)),
        "ArrowLeft" | "PageUp" if arrows => Some(KeyAction::StepLesson(-1)),
        "ArrowDown" if arrows => Some(KeyAction::StepPanel(1)),
        "ArrowUp" if arrows => Some(KeyAction::StepPanel(-1)),
        _ => None,
    }
}

/// The panel `delta` places after `panel` in [`Panel::ALL`], wrapping around.
pub fn step_panel(panel: Panel, delta: i32) -> Panel {
    let n = Panel::ALL.len() as i32;
    let at = Panel::ALL.iter().position(|p| *p == panel).unwrap_or(0) as i32;
    Panel::ALL[(at + delta).rem_euclid(n) as usize]
}
