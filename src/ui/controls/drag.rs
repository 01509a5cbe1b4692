//! Slider drags on the page: a pointer pressing any slider holds the batch charts' axis
//! ([`AxisHold`], in [`PageMemos`]) until the slider's `change` or the pointer's release, so during a
//! drag the curves move on still axes; keyboard steps press nothing and rescale at once.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget};

use crate::state::drag::DragEvent;
use crate::ui::shell::page::PageMemos;

/// Whether `target` is a slider.
fn on_slider(target: Option<EventTarget>) -> bool {
    let el = target.and_then(|t| t.dyn_into::<Element>().ok());
    el.is_some_and(|el| el.matches("input[type=range]").unwrap_or(false))
}

/// Listens on the window for the app's lifetime: `pointerdown` on a slider presses; `change` on a
/// slider, `pointerup` and `pointercancel` release.
pub fn install(memos: PageMemos) {
    let PageMemos { hold, curves, .. } = memos;
    let send = move |event: DragEvent| {
        let now = hold.get_untracked();
        let next = now.after(event, curves.with_untracked(|c| c.axis_max_batch));
        // Every click on the page releases: only a change of hold recomputes the curves.
        if next != now {
            hold.set(next);
        }
    };
    let handles = [
        window_event_listener(ev::pointerdown, move |e| {
            if on_slider(e.target()) {
                send(DragEvent::Press);
            }
        }),
        window_event_listener(ev::change, move |e| {
            if on_slider(e.target()) {
                send(DragEvent::Release);
            }
        }),
        window_event_listener(ev::pointerup, move |_| send(DragEvent::Release)),
        window_event_listener(ev::pointercancel, move |_| send(DragEvent::Release)),
    ];
    on_cleanup(move || handles.into_iter().for_each(|h| h.remove()));
}
