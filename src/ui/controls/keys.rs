//! The page's one keyboard handler on the window: reads the key, the modifiers and what has focus,
//! asks [`crate::state::keys::action`] what that means and applies it. Keys it does not claim keep
//! their native behaviour (Tab, Space and Enter on buttons, arrows on a focused slider). While
//! presenting, a slider a pointer lets go of gives the focus back to the page, so a clicker's keys
//! (arrows, Page Up and Down) step the lessons and never edit the demo; a slider reached with Tab
//! keeps its arrows.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement, KeyboardEvent};

use crate::state::keys::{action, step_panel, Focus, KeyAction};
use crate::state::lessons::{active, step};
use crate::state::view::{Mode, View};
use crate::state::Inputs;
use crate::ui::context::page::PageState;

/// Elements in which every key is typing.
const FIELDS: &str = "input:not([type=range]):not([type=radio]):not([type=checkbox]):not([type=button]), \
                      select, textarea, [contenteditable]:not([contenteditable=false])";
/// Inputs that use arrow and Page keys themselves.
const SLIDERS: &str = "input[type=range], input[type=radio]";

/// Listens for keys on the window for the app's lifetime.
pub fn install(page: PageState) {
    let PageState { inputs, view, set_view, set_legend, .. } = page;
    let handle = window_event_listener(ev::keydown, move |e: KeyboardEvent| {
        let modified = e.ctrl_key() || e.alt_key() || e.meta_key();
        let Some(act) = action(&e.key(), modified, view.get_untracked().mode, focus_of(e.target())) else {
            return;
        };
        e.prevent_default();
        if e.repeat() {
            return;
        }
        match act {
            KeyAction::Lesson(n) => page.load_lesson(n),
            KeyAction::StepLesson(d) => page.load_lesson(step(view.get_untracked().lesson, d)),
            KeyAction::TogglePresent => toggle_present(inputs, set_view),
            KeyAction::LeavePresent => set_view.update(|v| v.mode = Mode::Page),
            KeyAction::StepPanel(d) => {
                set_view.update(|v| v.panel = step_panel(v.panel, d));
                // The simulator's panel has nothing to show until it runs: open it when it comes on screen.
                page.open_sim_if_shown();
            }
            KeyAction::ToggleLegend => set_legend.update(|open| *open = !*open),
        }
    });
    let released = window_event_listener(ev::pointerup, move |_| {
        if view.get_untracked().mode == Mode::Present {
            blur_focused_slider();
        }
    });
    on_cleanup(move || {
        handle.remove();
        released.remove();
    });
}

/// Takes the focus off the slider that has it, if one does (its last value stays).
fn blur_focused_slider() {
    let focused = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    let slider = focused.filter(|el| el.matches(SLIDERS).unwrap_or(false));
    if let Some(el) = slider.and_then(|el| el.dyn_into::<HtmlElement>().ok()) {
        let _ = el.blur();
    }
}

/// What the event's target is to the keyboard: a field, a slider or anything else.
fn focus_of(target: Option<EventTarget>) -> Focus {
    let Some(el) = target.and_then(|t| t.dyn_into::<Element>().ok()) else { return Focus::Other };
    if el.matches(FIELDS).unwrap_or(false) {
        Focus::Field
    } else if el.matches(SLIDERS).unwrap_or(false) {
        Focus::Slider
    } else {
        Focus::Other
    }
}

/// Enters presentation (on the active lesson's panel, from the top of the page) or leaves it.
fn toggle_present(inputs: ReadSignal<Inputs>, set_view: WriteSignal<View>) {
    set_view.update(|v| {
        if v.mode == Mode::Present {
            v.mode = Mode::Page;
            return;
        }
        v.mode = Mode::Present;
        if let Some(l) = active(&inputs.get_untracked(), v) {
            v.panel = l.panel;
        }
    });
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}
