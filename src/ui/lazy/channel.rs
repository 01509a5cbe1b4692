//! The typed channel between the page and its lazily loaded panels (messages in
//! `crate::protocol::panel`): two window events, one per direction, each carrying one postcard-encoded
//! message in a `Uint8Array`, plus [`Changes`], where a panel's controls send what a person changed.

use leptos::prelude::*;

use crate::core::fit::MeasuredPoint;
use crate::protocol::panel::{apply, to_bytes, PanelKind, PanelState, ToPage};
#[cfg(feature = "lazy_panels")]
use crate::protocol::panel::{from_bytes, ToPanel};
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
pub type Measured = (ReadSignal<Vec<MeasuredPoint>>, WriteSignal<Vec<MeasuredPoint>>);

/// Where a panel's controls send a change: into the page's own signals when the page draws the
/// panel itself (the one-file build), or over the channel when the lazy module draws it. Provided
/// as context to every panel body.
#[derive(Clone, Copy)]
pub enum Changes {
    Page {
        inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>),
        measured: Measured,
    },
    // Only the lazy module (the `lazy_panels` build) constructs it.
    #[cfg_attr(not(feature = "lazy_panels"), allow(dead_code))]
    Channel,
}

impl Changes {
    /// Sends `message` to whoever owns the state.
    pub fn send(self, message: ToPage) {
        match self {
            Changes::Page { inputs, measured } => apply_to(inputs, measured, message),
            Changes::Channel => send_to_page(&message),
        }
    }
}

/// Applies a panel's change to the page's signals ([`apply`]), setting only what it changed.
pub fn apply_to(inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>), measured: Measured, message: ToPage) {
    let loads = matches!(message, ToPage::LoadConfig(_));
    let (mut next_inputs, mut next_measured) = (inputs.0.get_untracked(), measured.0.get_untracked());
    apply(message, &mut next_inputs, &mut next_measured);
    if next_inputs != inputs.0.get_untracked() {
        inputs.1.set(next_inputs);
    }
    if next_measured != measured.0.get_untracked() {
        measured.1.set(next_measured);
    }
    if loads {
        open_placement();
    }
}

/// A loaded configuration shows its placement: the placement panel opens as its button would.
fn open_placement() {
    let button =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("placement-open"));
    if let Some(button) = button.and_then(|b| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(b).ok())
    {
        button.click();
    }
}

/// The page's side of the channel: provides its state (`Memo<PanelState>`, what a lazy body mounts
/// from) as context, applies every [`ToPage`] message
/// the lazy module sends, and sends each new state to the mounted panels.
pub fn serve_panels(
    inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>),
    measured: Measured,
    state: Memo<PanelState>,
) {
    provide_context(state);
    #[cfg(feature = "lazy_panels")]
    listen_to_panels(move |message| apply_to(inputs, measured, message));
    #[cfg(feature = "lazy_panels")]
    Effect::new(move |_| {
        let state = state.get();
        if crate::ui::lazy::page::any_mounted() {
            send_to_panels(&ToPanel::State(state));
        }
    });
}

/// A lazily loaded panel's body. With the `lazy_panels` feature: an element the lazy module
/// mounts `panel` into (`linked` is never called, so its code stays out of the page's module).
/// Without it (the one-file build): `linked()`, drawn in place.
#[cfg(feature = "lazy_panels")]
pub fn lazy_body<F: FnOnce() -> AnyView>(panel: PanelKind, _linked: F) -> AnyView {
    let state = expect_context::<Memo<PanelState>>();
    view! { <crate::ui::lazy::page::LazyBody panel=panel state=state/> }.into_any()
}

/// A lazily loaded panel's body, linked into the page (see the `lazy_panels` version).
#[cfg(not(feature = "lazy_panels"))]
pub fn lazy_body<F: FnOnce() -> AnyView>(_: PanelKind, linked: F) -> AnyView {
    linked()
}

/// A lazily loaded body of an always-visible section: with the `lazy_panels` feature it loads when
/// `wanted` turns true (an embed, a presentation or a lesson shows it) or when it first comes near
/// the viewport; until then the page shows the section's heading and a "Loading…" status.
#[cfg(feature = "lazy_panels")]
pub fn lazy_body_near<F: FnOnce() -> AnyView>(
    panel: PanelKind,
    wanted: Signal<bool>,
    _linked: F,
) -> AnyView {
    let state = expect_context::<Memo<PanelState>>();
    view! { <crate::ui::lazy::page::LazyBody panel=panel state=state wanted=wanted/> }.into_any()
}

/// An always-visible section's body, linked into the page (see the `lazy_panels` version).
#[cfg(not(feature = "lazy_panels"))]
pub fn lazy_body_near<F: FnOnce() -> AnyView>(
    _: PanelKind,
    _: Signal<bool>,
    linked: F,
) -> AnyView {
    linked()
}
