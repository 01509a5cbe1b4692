//! The published measurements that match the configuration: a small table of measured and
//! predicted TPOT with the error, under the charts that draw them as triangles.

use leptos::prelude::*;

use crate::state::CalibrationChoice;
use crate::ui::context::page::{PageMemos, PageState};
use crate::view::format::references::{caption, engine_note, row, HEADERS};

#[component]
pub fn PublishedTable() -> impl IntoView {
    let inputs = PageState::get().inputs;
    let PageMemos { curves, .. } = PageMemos::get();
    let rows = Memo::new(move |_| curves.with(|c| c.references.iter().map(row).collect::<Vec<_>>()));
    let model_name = move || {
        let i = inputs.get();
        match (i.calibration_choice, i.engine()) {
            (CalibrationChoice::Measured, Some(e)) => format!("measured engines, {}", e.name()),
            (choice, _) => choice.label().to_string(),
        }
    };
    let note = move || curves.with(|c| engine_note(&inputs.get().scenario, &c.references));
    view! {
        <Show when=move || rows.with(|r| !r.is_empty())>
            {move || note().map(|n| view! { <p class="table-note" id="published-engine-note">{n}</p> })}
            <div class="table-wrap" tabindex="0" role="region" aria-label="Published measurements">
                <table id="published-table" class="batch-table published-table">
                    <caption>{move || caption(&inputs.get().scenario, &model_name())}</caption>
                    <thead><tr>{HEADERS.map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                    <tbody>
                        {move || rows.get().into_iter().map(|cells| view! {
                            <tr>{cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </Show>
    }
}
