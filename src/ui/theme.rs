//! The colour scheme the reader prefers, as a signal that follows the system setting live.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// True while `(prefers-color-scheme: dark)` matches; updated when the system setting changes.
pub fn prefers_dark() -> ReadSignal<bool> {
    let query = web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    let (dark, set_dark) = signal(query.as_ref().is_some_and(|q| q.matches()));
    if let Some(query) = query {
        let watched = query.clone();
        let on_change = Closure::<dyn FnMut()>::new(move || set_dark.set(watched.matches()));
        let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
    }
    dark
}
