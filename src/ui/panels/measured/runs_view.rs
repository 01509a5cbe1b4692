//! The measured runs beside the calibrated model: a table of each run's concurrency, lengths,
//! measured and predicted TPOT and error, with its caption and summary line, drawn from
//! [`compare_runs`] (the arithmetic) and `view::format::measured_runs` (the text).

use crate::core::measured_runs::compare_runs;
use crate::state::calibration::DEFAULT_ENGINE;
use crate::state::CalibrationChoice;
use crate::ui::context::panel::PanelContext;
use crate::view::format::measured_runs::{caption, row, summary, HEADERS};
use leptos::prelude::*;

/// The comparison table; the page's cost model names itself in the caption when it is not the one used.
#[component]
pub(crate) fn RunsTable() -> impl IntoView {
    let PanelContext { inputs, your_points: points, .. } = PanelContext::get();
    let comparison = Memo::new(move |_| compare_runs(&inputs.get().scenario, &points.get(), DEFAULT_ENGINE));
    let page_model = move || {
        let i = inputs.get();
        match i.calibration_choice {
            CalibrationChoice::Measured => i
                .engine()
                .map_or("Measured engines".to_string(), |e| format!("Measured engines ({})", e.name())),
            choice => choice.label().to_string(),
        }
    };
    view! {
        <div class="table-wrap" tabindex="0" role="region" aria-label="Your runs beside the model">
            <table id="measured-runs" class="batch-table published-table">
                <caption>{move || caption(&comparison.get(), &page_model())}</caption>
                <thead><tr>{HEADERS.map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {move || comparison.get().rows.iter().map(|r| view! {
                        <tr class:page-lengths=r.page_lengths>
                            {row(r).into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        <p id="measured-runs-summary" class="hint">{move || summary(&comparison.get())}</p>
    }
}
