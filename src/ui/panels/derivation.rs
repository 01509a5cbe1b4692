//! The derivation panel: the worked example's arithmetic with the current numbers, one `formula = numbers =
//! result` line each, following every control through the scenario and analysis memos. The page
//! keeps the heading and intro; the lines are a lazily loaded body ([`LazyBody::Derivation`]) that
//! loads when the section comes near the viewport or when an embed or presentation shows it.

use leptos::prelude::*;

use crate::core::derivation::derive;
use crate::protocol::panel::LazyBody;
use crate::state::view::{Mode, Panel};
use crate::ui::context::page::PageState;
use crate::ui::context::panel::PanelContext;
use crate::ui::lazy::body::lazy_body_near;
use crate::view::derivation_text::{lines, Line};

/// The panel (`view=derivation`).
#[component]
pub fn DerivationPanel() -> impl IntoView {
    let view = PageState::get().view;
    let wanted = Signal::derive(move || {
        let v = view.get();
        v.mode != Mode::Page && v.panel == Panel::Derivation
    });
    view! {
        <section id="derivation" class="panel derivation" data-panel="derivation" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"The arithmetic"</h2>
            <p class="derivation-intro">
                "Every number of the worked example, recomputed for the current settings: formula = numbers = result."
            </p>
            {lazy_body_near(LazyBody::Derivation, wanted, || view! { <DerivationBody/> }.into_any())}
        </section>
    }
}

/// The lines, recomputed whenever the scenario or its analysis changes.
#[component]
pub fn DerivationBody() -> impl IntoView {
    let PanelContext { scenario, analysis, view, .. } = PanelContext::get();
    let printed = Memo::new(move |_| {
        let scenario = scenario.get();
        lines(&scenario, &derive(&scenario, &analysis.get()))
    });
    // Presenting a replica with expert, data or pipeline parallelism (lesson 9), its lines are the
    // subject: the panel opens on them, not on the sizes every scenario shares.
    let parallel_shown = Memo::new(move |_| {
        view.with(|v| v.mode == Mode::Present)
            && printed.with(|ls| ls.iter().any(|l| l.id == FIRST_PARALLEL_LINE))
    });
    Effect::new(move |_| {
        if parallel_shown.get() {
            scroll_to_line(FIRST_PARALLEL_LINE);
        }
    });
    view! {
        <ol class="derivation-lines">
            {move || printed.get().into_iter().map(line_view).collect_view()}
        </ol>
    }
}

/// One line: its label, then `formula = numbers = result`, then a note in words. Each `=` has a box
/// of its own, so a compact embed can drop the formula and the `=` after it (`numbers = result`).
fn line_view(l: Line) -> impl IntoView {
    let numbers = (!l.numbers.is_empty())
        .then(|| view! { <span class="eq">" = "</span><span class="numbers">{l.numbers}</span> });
    let result = (!l.result.is_empty())
        .then(|| view! { <span class="eq">" = "</span><strong class="result">{l.result}</strong> });
    let note = (!l.note.is_empty()).then(|| view! { <span class="note">{l.note}</span> });
    view! {
        <li data-line=l.id>
            <span class="label">{l.label}</span>
            <span class="equation"><span class="formula">{l.formula}</span>{numbers}{result}</span>
            {note}
        </li>
    }
}

/// The first of the parallelism lines ([`crate::view::derivation_text`]).
const FIRST_PARALLEL_LINE: &str = "par-replica";

/// Scrolls the derivation's line `id` to the top of what scrolls it, at the next animation frame
/// (after the lines have drawn).
fn scroll_to_line(id: &'static str) {
    let scroll = wasm_bindgen::closure::Closure::once_into_js(move || {
        let selector = format!("#derivation [data-line=\"{id}\"]");
        let line =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(&selector).ok()?);
        if let Some(line) = line {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Start);
            line.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&scroll));
    }
}
