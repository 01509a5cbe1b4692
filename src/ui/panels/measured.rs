//! The measured-data panel: paste, choose or drop benchmark results (several files at once; each
//! load adds its points); the points go on the step-time chart, the fitted achieved bandwidth (MBU)
//! and per-step overhead are shown with a button that turns realistic mode on with them, and each
//! run is set beside the calibrated model's TPOT at its own concurrency and lengths.

mod fit_view;
pub(crate) mod input;
mod runs_view;
use leptos::prelude::*;

use crate::protocol::panel::{LazyBody, ToPage};
use crate::state::measured::{add_files, BATCH_FIELD, TPOT_FIELD};
use crate::ui::context::page::PageState;
use crate::ui::context::panel::PanelContext;
use crate::ui::lazy::body::lazy_body;
use fit_view::{FitReadout, PointsTable};
use input::{FileText, MeasuredInput, Status, StatusLine};
use runs_view::RunsTable;

/// The panel: its heading and what it reads, then its body once asked for (or at once when the
/// link carries points). `points` is the page's measured state (also in the URL); `fit` is its fit.
#[component]
pub fn MeasuredPanel() -> impl IntoView {
    let points = PageState::get().your_points;
    let (asked, set_asked) = signal(!points.get_untracked().is_empty());
    let ask = move || {
        view! {
            <button type="button" id="measured-open" on:click=move |_| set_asked.set(true)>"Add your step times"</button>
        }
    };
    view! {
        <section id="measured" class="panel measured" aria-labelledby="measured-title">
            <h2 id="measured-title">"Your step times"</h2>
            <Intro/>
            <Show when=move || asked.get() fallback=ask>
                {lazy_body(LazyBody::Measured, || view! { <MeasuredBody/> }.into_any())}
            </Show>
        </section>
    }
}

/// The body: paste, choose or drop a file; what it gave; the fit and the points, from the
/// [`PanelContext`] (its changes go to the page through it).
#[component]
pub fn MeasuredBody() -> impl IntoView {
    let context = PanelContext::get();
    let PanelContext { scenario, your_points: points, .. } = context;
    let fit = Memo::new(move |_| crate::core::fit::fit(&scenario.get(), &points.get()));
    let changes = context.changes;
    let (status, set_status) = signal(Status::Idle);
    let load = move |files: Vec<FileText>| {
        let before = points.get_untracked();
        let loaded = add_files(&before, files);
        if loaded.points != before {
            changes.send(ToPage::Measured(loaded.points));
        }
        set_status.set(Status::Files(loaded.files, loaded.note));
    };
    let clear = move || {
        changes.send(ToPage::Measured(Vec::new()));
        set_status.set(Status::Idle);
    };
    view! {
        <MeasuredInput load=load/>
        <StatusLine status=status/>
        <Show when=move || !points.get().is_empty()>
            <FitReadout fit=fit clear=clear/>
            <RunsTable/>
            <PointsTable fit=fit/>
        </Show>
    }
}

/// What the panel reads and the assumption it makes.
#[component]
fn Intro() -> impl IntoView {
    view! {
        <p class="measured-intro">
            "Overlay your own measurements on the step-time chart and fit the realistic calibration to them. "
            "A " <code>"vllm bench serve"</code> " result (" <code>"--save-result"</code> "; one JSON object, an array, "
            "or JSON lines from " <code>"--append-result"</code> ", one run per concurrency) gives one point per run: "
            <code>{BATCH_FIELD}</code> " is taken as the decode batch (with the default unlimited request rate the "
            "benchmark keeps that many requests running) and " <code>{TPOT_FIELD}</code> " as its step time; a GuideLLM "
            "report (" <code>"guidellm benchmark --output-path report.json"</code> ") one per benchmark, its concurrent "
            "strategy's " <code>"streams"</code> " and " <code>"inter_token_latency_ms"</code> "; an AIPerf or GenAI-Perf "
            "profile export (" <code>"profile_export_aiperf.json"</code> ") one point, the run's concurrency and "
            <code>"inter_token_latency"</code> ". "
            "GuideLLM's CSV export (" <code>"benchmarks.csv"</code> ") is read as its report is; AIPerf's CSV states no "
            "concurrency, so load its JSON. Any other CSV needs two columns: batch, TPOT in ms. Choose or drop several "
            "files at once; each load adds its points to those already here (Clear starts again). "
            "The fit uses the scenario set above, so match the model, GPU, precisions and tensor parallelism, and set "
            "the context to the benchmark's input length plus half its output. Each run is also set beside the "
            "calibrated model at its own concurrency and mean lengths."
        </p>
    }
}
