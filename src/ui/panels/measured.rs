//! The measured-data panel: paste, choose or drop a `vllm bench serve` result or a CSV of (batch,
//! TPOT ms); the points go on the step-time chart, and the fitted achieved bandwidth (MBU) and
//! per-step overhead are shown with a button that turns realistic mode on with them.

mod fit_view;
mod input;
use leptos::prelude::*;

use crate::protocol::panel::{PanelKind, ToPage};
use crate::state::measured::{parse_upload, BATCH_FIELD, TPOT_FIELD};
use crate::ui::lazy::body::lazy_body;
use crate::ui::panels::context::PanelContext;
use crate::ui::shell::page::PageState;
use fit_view::{FitReadout, PointsTable};
use input::{MeasuredInput, Status, StatusLine};

/// The panel: its heading and what it reads, then its body once asked for (or at once when the
/// link carries points). `points` is the page's measured state (also in the URL); `fit` is its fit.
#[component]
pub fn MeasuredPanel() -> impl IntoView {
    let points = PageState::get().points;
    let (asked, set_asked) = signal(!points.get_untracked().is_empty());
    let ask = move || {
        view! {
            <button type="button" id="measured-open" on:click=move |_| set_asked.set(true)>"Add measured step times"</button>
        }
    };
    view! {
        <section id="measured" class="panel measured" aria-labelledby="measured-title">
            <h2 id="measured-title">"Measured step times"</h2>
            <Intro/>
            <Show when=move || asked.get() fallback=ask>
                {lazy_body(PanelKind::Measured, || view! { <MeasuredBody/> }.into_any())}
            </Show>
        </section>
    }
}

/// The body: paste, choose or drop a file; what it gave; the fit and the points, from the
/// [`PanelContext`] (its changes go to the page through it).
#[component]
pub fn MeasuredBody() -> impl IntoView {
    let context = PanelContext::get();
    let PanelContext { scenario, measured: points, .. } = context;
    let fit = Memo::new(move |_| crate::core::fit::fit(&scenario.get(), &points.get()));
    let changes = context.changes;
    let (status, set_status) = signal(Status::Idle);
    let load = move |source: String, text: Result<String, String>| {
        let parsed = text.and_then(|t| parse_upload(&t));
        match parsed {
            Ok(u) => {
                let n = u.points.len();
                let summary =
                    format!("{source}: {n} point{} from a {}.", if n == 1 { "" } else { "s" }, u.format);
                changes.send(ToPage::Measured(u.points));
                set_status.set(Status::Loaded(summary, u.remarks));
            }
            Err(e) => set_status.set(Status::Failed(format!("{source}: {e}"))),
        }
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
            "A CSV needs two columns: batch, TPOT in ms. The fit uses the scenario set above, so match the model, GPU, "
            "precisions and tensor parallelism, and set the context to the benchmark's input length plus half its output."
        </p>
    }
}
