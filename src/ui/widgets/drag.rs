//! Slider drags on the page. A pointer pressing any slider holds the batch charts' axis
//! ([`AxisHold`], in [`PageMemos`]) until the slider's `change` or the pointer's release, so during a
//! drag the curves move on still axes; keyboard steps press nothing and rescale at once.
//!
//! During such a drag a slider changes the state at most once per animation frame ([`apply`]): when a
//! frame runs long Chromium dispatches two or three `input` events before the next one, and each
//! applied at once would rerun the core, the table and the page's layout (hit-testing the next
//! pointer move lays the page out again) for a value no frame shows. The latest is applied at the
//! start of the frame's animation callbacks instead, and the charts it dirties draw in the same
//! frame ([`frame_draw::flush_requested`]). Without a pointer drag (keys, typed values, a test's
//! events) every input applies at once, and a release applies a held input before it lets go.

use std::cell::RefCell;

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{Element, EventTarget};

use crate::state::drag::DragEvent;
use crate::ui::canvas::frame_draw;
use crate::ui::context::page::PageMemos;

/// The input a pointer drag holds for the coming frame, and the frame callbacks that apply it.
#[derive(Default)]
struct Held {
    pressed: bool,
    input: Option<Box<dyn FnOnce()>>,
    frame_asked: bool,
    callbacks: Option<(Closure<dyn FnMut(f64)>, Closure<dyn FnMut(f64)>)>,
}

thread_local! {
    static HELD: RefCell<Held> = RefCell::new(Held::default());
}

/// Applies a slider's change now, or, while a pointer drags a slider, at the coming frame in place of
/// any change held before it (the latest value wins).
pub fn apply(change: impl FnOnce() + 'static) {
    let held = HELD.with(|h| {
        let mut h = h.borrow_mut();
        if !h.pressed {
            return Some(Box::new(change) as Box<dyn FnOnce()>);
        }
        h.input = Some(Box::new(change));
        if !h.frame_asked {
            h.frame_asked = ask_frame(&mut h);
        }
        // Without a frame to wait for (no window), apply at once.
        if h.frame_asked {
            None
        } else {
            h.input.take()
        }
    });
    if let Some(change) = held {
        change();
    }
}

/// Asks for the two callbacks of the coming frame: the first applies the held input (Leptos' effects
/// run in the microtasks after it), the second draws the charts those effects dirtied.
fn ask_frame(held: &mut Held) -> bool {
    let (apply_held, draw) = held.callbacks.get_or_insert_with(|| {
        let apply_held = Closure::new(move |_: f64| {
            let input = HELD.with(|h| {
                let mut h = h.borrow_mut();
                h.frame_asked = false;
                h.input.take()
            });
            if let Some(input) = input {
                input();
            }
        });
        (apply_held, Closure::new(move |_: f64| frame_draw::flush_requested()))
    });
    let Some(window) = web_sys::window() else { return false };
    window.request_animation_frame(apply_held.as_ref().unchecked_ref()).is_ok()
        && window.request_animation_frame(draw.as_ref().unchecked_ref()).is_ok()
}

/// A pointer pressed or let go of a slider; letting go applies a held input first.
fn press(pressed: bool) {
    let input = HELD.with(|h| {
        let mut h = h.borrow_mut();
        h.pressed = pressed;
        if pressed {
            None
        } else {
            h.input.take()
        }
    });
    if let Some(input) = input {
        input();
    }
}

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
        press(event == DragEvent::Press);
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
