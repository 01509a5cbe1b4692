//! Sections out of view wait out a slider drag. While a pointer drags a slider, a section more than
//! [`MARGIN`] outside the viewport keeps what it showed, and its source is not even recomputed; it
//! catches up when the drag ends or when it scrolls into view. The frame a drag waits for then holds
//! only the work on screen (the charts already skip drawing out of view, `ui::canvas::frame_draw`).
//! Keyboard steps, typed values and links press no slider, so every section follows them at once.

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::ui::context::page::PageMemos;

/// How far outside the viewport a section still counts as in view, so one scrolled towards has
/// caught up before it shows.
const MARGIN: &str = "200px 0px";

/// Whether the element behind `node` is within `margin` (a CSS root margin) of the viewport: `None`
/// until the observer first reports; `Some(true)` where the browser has no IntersectionObserver
/// (everything counts as in view). A hidden element is never in view.
pub fn in_view<E>(node: NodeRef<E>, margin: &str) -> ReadSignal<Option<bool>>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let (seen, set_seen) = signal(None);
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let last = entries
            .iter()
            .filter_map(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            .next_back();
        if let Some(entry) = last {
            set_seen.try_set(Some(entry.is_intersecting()));
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin(margin);
    let observer =
        web_sys::IntersectionObserver::new_with_options(on_change.as_ref().unchecked_ref(), &options);
    let Ok(observer) = observer else {
        set_seen.set(Some(true));
        return seen;
    };
    let observer = StoredValue::new_local((observer, on_change));
    // Follows the element: a section that is swapped out (the table's fallback) is observed anew.
    Effect::new(move |_| {
        let element = node.get();
        observer.with_value(|(o, _)| {
            o.disconnect();
            if let Some(element) = element {
                o.observe(element.unchecked_ref());
            }
        });
    });
    on_cleanup(move || {
        observer.try_with_value(|(o, _)| o.disconnect());
    });
    seen
}

/// Whether the section behind `node` follows each change as it happens
/// ([`crate::state::drag::AxisHold::shows_live`]).
pub fn live_while_in_view<E>(node: NodeRef<E>) -> Signal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let hold = PageMemos::get().hold;
    let seen = in_view(node, MARGIN);
    Signal::derive(move || hold.get().shows_live(seen.get()))
}

/// `source()` while `live`, else the value it last gave (without calling it); caught up as soon as
/// `live` turns true again.
pub fn frozen_unless<T>(live: Signal<bool>, source: impl Fn() -> T + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    Memo::new(move |before: Option<&T>| {
        let live_now = live.get();
        match before {
            Some(before) if !live_now => before.clone(),
            _ => source(),
        }
    })
}
