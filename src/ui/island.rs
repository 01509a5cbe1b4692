//! How the page and its lazily loaded panels (src/ui/lazy.rs, src/ui/extras.rs) keep one state.
//!
//! The two modules share no memory. They speak through two window events whose detail is a page
//! query string: `goodput-state` (page -> panels, on every change of the page's state) and
//! `goodput-set` (panels -> page, when a panel's control changes the state).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The page tells the panels its state.
pub const STATE_EVENT: &str = "goodput-state";
/// A panel asks the page to take a new state.
pub const SET_EVENT: &str = "goodput-set";

/// Dispatches `name` on the window with `query` as its detail.
pub fn dispatch(name: &str, query: &str) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(query));
    let event = web_sys::CustomEvent::new_with_event_init_dict(name, &init);
    if let (Some(window), Ok(event)) = (web_sys::window(), event) {
        let _ = window.dispatch_event(&event);
    }
}

/// Calls `on_query` with the detail of every `name` event on the window, until the owner is cleaned up.
pub fn listen(name: &'static str, on_query: impl Fn(String) + 'static) {
    let handle = window_event_listener_untyped(name, move |event| {
        let detail = event.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string());
        if let Some(query) = detail {
            on_query(query);
        }
    });
    on_cleanup(move || handle.remove());
}

/// A lazily loaded panel's body. With the `islands` feature: an empty element the extras module
/// mounts panel `name` into (`linked` is never called, so its code stays out of the page's module).
/// Without it (the one-file build): `linked()`, drawn in place.
#[cfg(feature = "islands")]
pub fn panel_body<F: FnOnce() -> AnyView>(name: &'static str, query: Memo<String>, _linked: F) -> AnyView {
    view! { <super::lazy::Island name=name query=query/> }.into_any()
}

/// A lazily loaded panel's body, linked into the page (see the `islands` version).
#[cfg(not(feature = "islands"))]
pub fn panel_body<F: FnOnce() -> AnyView>(_: &'static str, _: Memo<String>, linked: F) -> AnyView {
    linked()
}
