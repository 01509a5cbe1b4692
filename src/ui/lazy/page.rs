//! Lazily loaded panels: the page's side. A panel's body (the simulator's, the measured points') lives in a second wasm
//! module, `goodput_lazy` (src/bin/goodput_lazy.rs), that the page fetches only when such a panel
//! first opens, so a first visit downloads none of it. The page mounts a body with a
//! [`Mount`] message and then talks to it through [`crate::ui::context::channel`].

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::protocol::panel::{LazyBody, Mount, PanelState, ToPanel};
use crate::ui::context::channel::send_to_panels;
use crate::ui::context::in_view::in_view;
use crate::ui::lazy::exports;
use crate::ui::workers::ahead::start_ahead;
use leptos::html::Div;
use leptos::prelude::*;

thread_local! {
    /// Panel bodies the lazy module has mounted and the page has not closed.
    static MOUNTED: Cell<u32> = const { Cell::new(0) };
}

/// True while any panel body is mounted: only then does the page send its state to the panels.
pub fn any_mounted() -> bool {
    MOUNTED.with(Cell::get) > 0
}

/// A panel body the lazy module draws: an empty `<div id="…-lazy">` it mounts into, with a
/// status line while it loads (or why it could not). `state` is the page's state, read when the
/// body mounts; later states reach it as [`ToPanel::State`] messages. Without `wanted` the body
/// loads at once; with it, when `wanted` turns true or the status line first comes within
/// [`NEAR_MARGIN`] of the viewport, whichever is first.
#[component]
pub fn LazySlot(
    panel: LazyBody,
    state: Memo<PanelState>,
    #[prop(optional)] wanted: Option<Signal<bool>>,
) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let status_node = NodeRef::<leptos::html::P>::new();
    let (status, set_status) = signal(Some(String::from("Loading…")));
    let go = match wanted {
        None => Signal::derive(|| true),
        Some(wanted) => {
            let near = near_viewport(status_node);
            Signal::derive(move || wanted.get() || near.get())
        }
    };
    let started = Arc::new(AtomicBool::new(false));
    // Set once the body is mounted (only a mounted body is told to unmount), and once the page
    // closes the panel (a mount that finishes after that is undone at once).
    let (mounted, closed) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
    let (mounted_here, closed_here) = (mounted.clone(), closed.clone());
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        if !go.get() || started.swap(true, Ordering::Relaxed) {
            return;
        }
        // The body's workers (if any) start, and their module downloads, beside the lazy module.
        start_ahead(panel);
        let mount = Mount { panel, state: state.get_untracked() };
        let (mounted, closed) = (mounted_here.clone(), closed_here.clone());
        leptos::task::spawn_local(async move {
            let result = exports::mount_panel(&el, &mount).await;
            if result.is_ok() && closed.load(Ordering::Relaxed) {
                send_to_panels(&ToPanel::Unmount(panel));
            } else if result.is_ok() {
                mounted.store(true, Ordering::Relaxed);
                MOUNTED.with(|m| m.set(m.get() + 1));
                // A state that changed while the module loaded was not sent (nothing was mounted
                // yet): the body would show the state of its mount until the next change.
                let now = state.get_untracked();
                if now != mount.state {
                    send_to_panels(&ToPanel::State(now));
                }
            }
            set_status.set(
                result.err().map(|e| format!("This panel could not load: {e}. Reload the page to retry.")),
            );
        });
    });
    on_cleanup(move || {
        closed.store(true, Ordering::Relaxed);
        if mounted.load(Ordering::Relaxed) {
            MOUNTED.with(|m| m.set(m.get().saturating_sub(1)));
            send_to_panels(&ToPanel::Unmount(panel));
        }
    });
    view! {
        <p class="hint lazy-status" role="status" node_ref=status_node
            hidden=move || status.get().is_none()>{move || status.get()}</p>
        <div id=panel.element_id() class="lazy" node_ref=node></div>
    }
}

/// How far outside the viewport a body that loads on approach starts loading.
const NEAR_MARGIN: &str = "300px";

/// True from the first time `target` comes within [`NEAR_MARGIN`] of the viewport (a hidden
/// element never does), and stays true.
fn near_viewport(target: NodeRef<leptos::html::P>) -> Memo<bool> {
    let seen = in_view(target, NEAR_MARGIN);
    Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || seen.get() == Some(true))
}
