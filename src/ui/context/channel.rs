//! The typed channel between the page and its lazily loaded panels (messages in
//! `crate::protocol::panel`): two window events, one per direction, each carrying one postcard-encoded
//! message in a `Uint8Array`, plus [`Changes`], where a panel's controls send what a person changed.

use leptos::prelude::*;

use crate::core::fit::YourPoint;
use crate::protocol::panel::{apply, apply_view, to_bytes, ToPage};
#[cfg(feature = "lazy_panels")]
use crate::protocol::panel::{from_bytes, ToPanel};
use crate::state::view::View;
use crate::state::Inputs;

/// Page -> panels: a [`ToPanel`] message.
#[cfg(feature = "lazy_panels")]
const TO_PANEL_EVENT: &str = "goodput-to-panel";
/// Panels -> page: a [`ToPage`] message.
const TO_PAGE_EVENT: &str = "goodput-to-page";

/// The page tells the panels something (the lazy module's listener hears it synchronously).
#[cfg(feature = "lazy_panels")]
pub fn send_to_panels(message: &ToPanel) {
    dispatch(TO_PANEL_EVENT, &to_bytes(message));
}

/// A panel tells the page what a person changed.
pub fn send_to_page(message: &ToPage) {
    dispatch(TO_PAGE_EVENT, &to_bytes(message));
}

/// Calls `on_message` with every [`ToPage`] message, until the owner is cleaned up (the page).
#[cfg(feature = "lazy_panels")]
pub fn listen_to_panels(on_message: impl Fn(ToPage) + 'static) {
    listen(TO_PAGE_EVENT, on_message);
}

/// Calls `on_message` with every [`ToPanel`] message, until the owner is cleaned up (a panel).
#[cfg(feature = "lazy_panels")]
pub fn listen_to_page(on_message: impl Fn(ToPanel) + 'static) {
    listen(TO_PANEL_EVENT, on_message);
}

fn dispatch(name: &str, bytes: &[u8]) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&js_sys::Uint8Array::from(bytes));
    let event = web_sys::CustomEvent::new_with_event_init_dict(name, &init);
    if let (Some(window), Ok(event)) = (web_sys::window(), event) {
        let _ = window.dispatch_event(&event);
    }
}

#[cfg(feature = "lazy_panels")]
/// Decodes each `name` event's message; one that does not decode (another build's) is dropped.
fn listen<T: for<'de> serde::Deserialize<'de> + 'static>(
    name: &'static str,
    on_message: impl Fn(T) + 'static,
) {
    use wasm_bindgen::JsCast;
    let handle = window_event_listener_untyped(name, move |event| {
        let bytes = event
            .dyn_ref::<web_sys::CustomEvent>()
            .and_then(|e| e.detail().dyn_into::<js_sys::Uint8Array>().ok());
        if let Some(message) = bytes.and_then(|b| from_bytes::<T>(&b.to_vec())) {
            on_message(message);
        }
    });
    on_cleanup(move || handle.remove());
}

/// The page's measured points, read and written.
pub type Measured = (ReadSignal<Vec<YourPoint>>, WriteSignal<Vec<YourPoint>>);

/// The page's view, read and written (a loaded run marks its batch).
pub type Viewed = (ReadSignal<View>, WriteSignal<View>);

/// Where a panel's controls send a change: into the page's own signals when the page draws the
/// panel itself (the one-file build), or over the channel when the lazy module draws it. Provided
/// as context to every panel body.
#[derive(Clone, Copy)]
pub enum Changes {
    Page {
        inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>),
        measured: Measured,
        view: Viewed,
    },
    // Only the lazy module (the `lazy_panels` build) constructs it.
    #[cfg_attr(not(feature = "lazy_panels"), allow(dead_code))]
    Channel,
}

impl Changes {
    /// Sends `message` to whoever owns the state.
    pub fn send(self, message: ToPage) {
        match self {
            Changes::Page { inputs, measured, view } => apply_to(inputs, measured, view, message),
            Changes::Channel => send_to_page(&message),
        }
    }
}

/// Applies a panel's change to the page's signals ([`apply`], [`apply_view`]), setting only what
/// it changed.
pub fn apply_to(
    inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>),
    measured: Measured,
    view: Viewed,
    message: ToPage,
) {
    let (mut next_inputs, mut next_measured) = (inputs.0.get_untracked(), measured.0.get_untracked());
    let mut next_view = view.0.get_untracked();
    apply_view(&message, &mut next_view);
    if next_view != view.0.get_untracked() {
        view.1.set(next_view);
    }
    apply(message, &mut next_inputs, &mut next_measured);
    if next_inputs != inputs.0.get_untracked() {
        inputs.1.set(next_inputs);
    }
    if next_measured != measured.0.get_untracked() {
        measured.1.set(next_measured);
    }
}
