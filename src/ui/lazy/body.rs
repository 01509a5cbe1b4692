//! Where a lazy body goes on the page: [`lazy_body`] and [`lazy_body_near`] give the element the
//! lazy module mounts into (with the `lazy_panels` feature) or draw the body in place (the one-file
//! build), and [`serve_panels`] is the page's end of the channel to the mounted bodies.

use leptos::prelude::*;

#[cfg(feature = "lazy_panels")]
use crate::protocol::panel::ToPanel;
use crate::protocol::panel::{LazyBody, PanelState};
use crate::state::Inputs;
#[cfg(feature = "lazy_panels")]
use crate::ui::context::channel::{apply_to, listen_to_panels, send_to_panels};
use crate::ui::context::channel::{Measured, Viewed};

/// The page's side of the channel: provides its state (`Memo<PanelState>`, what a lazy body mounts
/// from) as context, applies every [`ToPage`] message
/// the lazy module sends, and sends each new state to the mounted panels.
pub fn serve_panels(
    inputs: (ReadSignal<Inputs>, WriteSignal<Inputs>),
    measured: Measured,
    view: Viewed,
    state: Memo<PanelState>,
) {
    provide_context(state);
    #[cfg(feature = "lazy_panels")]
    listen_to_panels(move |message| apply_to(inputs, measured, view, message));
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
pub fn lazy_body<F: FnOnce() -> AnyView>(panel: LazyBody, _linked: F) -> AnyView {
    let state = expect_context::<Memo<PanelState>>();
    view! { <crate::ui::lazy::page::LazySlot panel=panel state=state/> }.into_any()
}

/// A lazily loaded panel's body, linked into the page (see the `lazy_panels` version).
#[cfg(not(feature = "lazy_panels"))]
pub fn lazy_body<F: FnOnce() -> AnyView>(_: LazyBody, linked: F) -> AnyView {
    linked()
}

/// A lazily loaded body of an always-visible section: with the `lazy_panels` feature it loads when
/// `wanted` turns true (an embed, a presentation or a lesson shows it) or when it first comes near
/// the viewport; until then the page shows the section's heading and a "Loading…" status.
#[cfg(feature = "lazy_panels")]
pub fn lazy_body_near<F: FnOnce() -> AnyView>(panel: LazyBody, wanted: Signal<bool>, _linked: F) -> AnyView {
    let state = expect_context::<Memo<PanelState>>();
    view! { <crate::ui::lazy::page::LazySlot panel=panel state=state wanted=wanted/> }.into_any()
}

/// An always-visible section's body, linked into the page (see the `lazy_panels` version).
#[cfg(not(feature = "lazy_panels"))]
pub fn lazy_body_near<F: FnOnce() -> AnyView>(_: LazyBody, _: Signal<bool>, linked: F) -> AnyView {
    linked()
}
