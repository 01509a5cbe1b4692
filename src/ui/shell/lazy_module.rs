//! Lazily loaded panels: the lazy module's side. Mounts a panel body into the element the page
//! gave it and draws it from the states the page sends ([`ToPanel::State`]); what a person changes
//! in its controls goes back to the page as [`crate::protocol::panel::ToPage`] messages (the
//! [`Changes::Channel`] in context). It keeps no state of its own: its signals only hold the last
//! state the page sent.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use crate::core::curves::curves_with_measured;
use crate::core::fit::fit;
use crate::core::goodput::evaluate;
use crate::core::roofline::analyze;
use crate::protocol::panel::{from_bytes, LazyBody, Mount, PanelState, SvgRequest, ToPanel};
use crate::ui::canvas::export::batch_chart_svg;
use crate::ui::context::channel::{listen_to_page, Changes};
use crate::ui::context::panel::PanelContext;
use crate::ui::context::theme;
use crate::ui::controls::custom_fields::{CustomGpuFields, CustomModelFields};
use crate::ui::panels::derivation::DerivationBody;
use crate::ui::panels::measured::MeasuredBody;
use crate::ui::panels::section::PlanningSection;
use crate::ui::panels::{accuracy, capacity, placement, search, sim};
use crate::ui::share::menu::ShareMenuBody;

thread_local! {
    /// The mounted bodies; dropping a handle unmounts its body.
    static MOUNTED: RefCell<Vec<(LazyBody, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs once when the module is instantiated: a panic here shows the page's error banner too, and
/// the page's [`ToPanel::Unmount`] messages are heard from now on.
pub fn start() {
    crate::ui::shell::panic_banner::install();
    let owner = Owner::new();
    owner.with(|| {
        listen_to_page(|message| {
            if let ToPanel::Unmount(panel) = message {
                unmount(panel);
            }
        })
    });
    // The listener lives as long as the module.
    std::mem::forget(owner);
}

/// Mounts the body a [`Mount`] message (postcard `bytes`) names into `el`; bytes that are not one
/// mount nothing, and mounting a panel twice replaces the first.
pub fn mount_panel(el: web_sys::HtmlElement, bytes: &[u8]) {
    let Some(Mount { panel, state }) = from_bytes::<Mount>(bytes) else { return };
    unmount(panel);
    let body: fn() -> AnyView = match panel {
        LazyBody::Sim => sim::panel::Sim::body,
        LazyBody::Measured => || view! { <MeasuredBody/> }.into_any(),
        LazyBody::Derivation => || view! { <DerivationBody/> }.into_any(),
        LazyBody::Capacity => capacity::Capacity::body,
        LazyBody::CustomModel => || view! { <CustomModelFields/> }.into_any(),
        LazyBody::CustomGpu => || view! { <CustomGpuFields/> }.into_any(),
        LazyBody::Share => || view! { <ShareMenuBody/> }.into_any(),
        LazyBody::Placement => placement::Placement::body,
        LazyBody::Search => search::panel::Search::body,
        LazyBody::Accuracy => accuracy::Accuracy::body,
    };
    let handle = mount(el, state, body);
    MOUNTED.with(|m| m.borrow_mut().push((panel, handle)));
}

/// Mounts `body` into `el` under a [`PanelContext`] over a mirror of `state` (see [`mirror`]);
/// dropping the handle unmounts it.
fn mount(el: web_sys::HtmlElement, state: PanelState, body: fn() -> AnyView) -> Box<dyn Any> {
    Box::new(leptos::mount::mount_to(el, move || {
        provide_context(mirror(state));
        body()
    }))
}

fn unmount(panel: LazyBody) {
    let handle = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter().position(|(p, _)| *p == panel).map(|at| m.remove(at))
    });
    drop(handle);
}

/// The page's batch chart an [`SvgRequest`] (postcard `bytes`) asks for, as SVG; `None` if the
/// request does not decode or names no batch chart.
pub fn chart_svg(bytes: &[u8]) -> Option<String> {
    let SvgRequest { chart, state, look, size_px } = from_bytes(bytes)?;
    let kind = crate::view::batch_chart::BatchChart::of_panel(chart)?;
    let scenario = state.inputs.scenario;
    let analysis = analyze(&scenario);
    let fitted = fit(&scenario, &state.your_points);
    let curves = curves_with_measured(&scenario, &analysis, &state.your_points, fitted.as_ref().ok());
    let mark = state.view.mark_batch.map(|b| evaluate(&scenario, b));
    batch_chart_svg(kind, &curves, mark.as_ref(), size_px, look)
}

/// The batch table of the page's state (postcard `bytes` of a [`PanelState`]) as CSV, or `None`
/// if the bytes are not one.
pub fn table_csv(bytes: &[u8]) -> Option<String> {
    from_bytes::<PanelState>(bytes).map(|state| crate::view::export::table_csv(&state.inputs))
}

/// The [`PanelContext`] of a body this module draws: the last state the page sent, as signals that
/// only the page's [`ToPanel::State`] messages write, the memos over them, and [`Changes::Channel`],
/// so a body's change travels to the page and comes back as the next state.
fn mirror(state: PanelState) -> PanelContext {
    let (inputs, set_inputs) = signal(state.inputs);
    let (view, set_view) = signal(state.view);
    let (your_points, set_your_points) = signal(state.your_points);
    listen_to_page(move |message| {
        if let ToPanel::State(state) = message {
            set_if_changed(inputs, set_inputs, state.inputs);
            set_if_changed(view, set_view, state.view);
            set_if_changed(your_points, set_your_points, state.your_points);
        }
    });
    let scenario = Memo::new(move |_| inputs.get().scenario);
    let analysis = Memo::new(move |_| analyze(&scenario.get()));
    let look = theme::look_only(view);
    PanelContext { inputs, view, your_points, scenario, analysis, look, changes: Changes::Channel }
}

/// Sets `value` unless it is already there (so an unchanged part of the state wakes nothing).
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(get: ReadSignal<T>, set: WriteSignal<T>, value: T) {
    if get.with_untracked(|now| *now != value) {
        set.set(value);
    }
}
