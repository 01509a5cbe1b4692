//! Lazily loaded panels: the extras module's side. Mounts a panel body into the element the page
//! gave it and draws it from the states the page sends ([`ToPanel::State`]); what a person changes
//! in its controls goes back to the page as [`crate::panel_protocol::ToPage`] messages (the
//! [`Changes::Channel`] in context). It keeps no state of its own: its signals only hold the last
//! state the page sent.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use super::capacity::CapacityBody;
use super::channel::{listen_to_page, Changes};
use super::chart_canvas::ChartKind;
use super::custom_fields::{CustomGpuFields, CustomModelFields};
use super::derivation::DerivationBody;
use super::export::batch_chart_svg;
use super::measured::MeasuredBody;
use super::page::InputsSignals;
use super::placement::PlacementBody;
use super::search_panel::SearchBody;
use super::share::ShareMenuBody;
use super::sim_panel::SimBody;
use super::theme;
use crate::chart::Look;
use crate::core::curves::curves_with_measured;
use crate::core::fit::{fit, MeasuredPoint};
use crate::core::roofline::{analyze, evaluate, Analysis, Scenario};
use crate::panel_protocol::{from_bytes, Mount, PanelKind, PanelState, SvgRequest, ToPanel};
use crate::state::view::View;
use crate::state::Inputs;

thread_local! {
    /// The mounted bodies; dropping a handle unmounts its body.
    static MOUNTED: RefCell<Vec<(PanelKind, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs once when the module is instantiated: a panic here shows the page's error banner too, and
/// the page's [`ToPanel::Unmount`] messages are heard from now on.
pub fn start() {
    super::panic_banner::install();
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
    let handle = match panel {
        PanelKind::Sim => mount(el, state, |m| {
            view! { <SimBody inputs=m.inputs scenario=m.scenario analysis=m.analysis look=m.look/> }
                .into_any()
        }),
        PanelKind::Measured => mount(el, state, |m| {
            let fit = Memo::new(move |_| fit(&m.scenario.get(), &m.measured.get()));
            view! { <MeasuredBody inputs=m.inputs scenario=m.scenario points=m.measured fit=fit/> }.into_any()
        }),
        PanelKind::Derivation => mount(el, state, |m| {
            view! { <DerivationBody scenario=m.scenario analysis=m.analysis/> }.into_any()
        }),
        PanelKind::Capacity => mount(el, state, |m| {
            view! { <CapacityBody inputs=m.inputs scenario=m.scenario analysis=m.analysis/> }.into_any()
        }),
        PanelKind::CustomModel => mount(el, state, |_| view! { <CustomModelFields/> }.into_any()),
        PanelKind::CustomGpu => mount(el, state, |_| view! { <CustomGpuFields/> }.into_any()),
        PanelKind::Share => mount(el, state, |m| {
            view! { <ShareMenuBody inputs=m.inputs view=m.view measured=m.measured/> }.into_any()
        }),
        PanelKind::Placement => mount(el, state, |_| view! { <PlacementBody/> }.into_any()),
        PanelKind::Search => mount(el, state, |m| view! { <SearchBody look=m.look/> }.into_any()),
    };
    MOUNTED.with(|m| m.borrow_mut().push((panel, handle)));
}

/// Mounts `body`, drawn from a [`Mirror`] of `state`, into `el`; dropping the handle unmounts it.
fn mount(el: web_sys::HtmlElement, state: PanelState, body: fn(Mirror) -> AnyView) -> Box<dyn Any> {
    Box::new(leptos::mount::mount_to(el, move || body(Mirror::new(state))))
}

fn unmount(panel: PanelKind) {
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
    let kind = ChartKind::from_panel(chart)?;
    let scenario = state.inputs.scenario;
    let analysis = analyze(&scenario);
    let fitted = fit(&scenario, &state.measured);
    let curves = curves_with_measured(&scenario, &analysis, &state.measured, fitted.as_ref().ok());
    let mark = state.view.mark_batch.map(|b| evaluate(&scenario, b));
    batch_chart_svg(kind, &curves, mark.as_ref(), size_px, look)
}

/// The batch table of the page's state (postcard `bytes` of a [`PanelState`]) as CSV, or `None`
/// if the bytes are not one.
pub fn table_csv(bytes: &[u8]) -> Option<String> {
    from_bytes::<PanelState>(bytes).map(|state| crate::export::table_csv(&state.inputs))
}

/// The last state the page sent, as signals, with the memos a panel body reads. Only the page's
/// [`ToPanel::State`] messages write it.
#[derive(Clone, Copy)]
struct Mirror {
    inputs: ReadSignal<Inputs>,
    view: ReadSignal<View>,
    measured: ReadSignal<Vec<MeasuredPoint>>,
    scenario: Memo<Scenario>,
    analysis: Memo<Analysis>,
    look: Signal<Look>,
}

impl Mirror {
    fn new(state: PanelState) -> Mirror {
        let (inputs, set_inputs) = signal(state.inputs);
        let (view, set_view) = signal(state.view);
        let (measured, set_measured) = signal(state.measured);
        listen_to_page(move |message| {
            if let ToPanel::State(state) = message {
                set_if_changed(inputs, set_inputs, state.inputs);
                set_if_changed(view, set_view, state.view);
                set_if_changed(measured, set_measured, state.measured);
            }
        });
        provide_context(Changes::Channel);
        provide_context(InputsSignals { inputs, changes: Changes::Channel });
        let scenario = Memo::new(move |_| inputs.get().scenario);
        let analysis = Memo::new(move |_| analyze(&scenario.get()));
        let look = theme::look_only(view);
        Mirror { inputs, view, measured, scenario, analysis, look }
    }
}

/// Sets `value` unless it is already there (so an unchanged part of the state wakes nothing).
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(get: ReadSignal<T>, set: WriteSignal<T>, value: T) {
    if get.with_untracked(|now| *now != value) {
        set.set(value);
    }
}
