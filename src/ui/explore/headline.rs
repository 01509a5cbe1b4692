//! The one-sentence lesson above the charts, with live numbers, and beside it what the GPUs serve
//! once each request's prefill shares them (the capacity plan's replica).

use leptos::prelude::*;

use crate::core::capacity::unit_point;
use crate::ui::context::page::{PageMemos, PageState};
use crate::view::format::calibration::coverage_note;
use crate::view::format::headline;
use crate::view::format::headline::with_prefill;

/// The headline; announced politely to screen readers when it changes.
#[component]
pub fn Headline() -> impl IntoView {
    let PageMemos { scenario, analysis, .. } = PageMemos::get();
    let inputs = PageState::get().inputs;
    let prefill = Memo::new(move |_| {
        let i = inputs.get();
        let placing = i.placing();
        with_prefill(unit_point(&scenario.get(), &placing).as_ref(), &placing)
    });
    view! {
        <p id="headline" class="headline" aria-live="polite">
            {move || headline(&scenario.get(), &analysis.get())}
            " "
            <span id="headline-prefill" class="headline-prefill">{move || prefill.get()}</span>
            {move || coverage_note(&scenario.get()).map(|n| view! { " " <span id="headline-coverage" class="headline-prefill">{n}</span> })}
        </p>
    }
}
