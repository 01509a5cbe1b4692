//! The app: control signals -> validated inputs -> core memos -> headline, charts and table.

use leptos::prelude::*;

use super::batch_table::BatchTable;
use super::chart_canvas::{ChartCanvas, ChartKind};
use super::controls::Controls;
use super::headline::Headline;
use super::notices::Notices;
use super::{theme, url};
use crate::core::curves::curves;
use crate::core::roofline::analyze;
use crate::core::table::batch_table;
use crate::state::{self, Inputs};

/// The whole page. Reads the URL once, then owns every control's signal.
#[component]
pub fn App() -> impl IntoView {
    let (initial, notices) = state::from_query(&url::current_query());
    let (inputs, set_inputs) = signal(initial);
    let scenario = Memo::new(move |_| inputs.get().scenario());
    let analysis = Memo::new(move |_| analyze(&scenario.get()));
    let rows = Memo::new(move |_| batch_table(&scenario.get(), &analysis.get()));
    let curves = Memo::new(move |_| curves(&scenario.get(), &analysis.get()));
    Effect::new(move |_| url::replace_query(&state::to_query(&inputs.get())));
    let dark = theme::prefers_dark();
    view! {
        <header class="masthead">
            <h1>"Goodput Lab"</h1>
            <p class="tagline">
                "Throughput counts tokens produced; goodput counts requests that finish inside the latency target. "
                "Every sequence in a decode step waits for the same step, so TPOT belongs to the batch."
            </p>
        </header>
        <Notices initial=notices/>
        <main class="layout">
            <Controls inputs=inputs set_inputs=set_inputs/>
            <section class="results" aria-label="Results">
                <Headline scenario=scenario analysis=analysis/>
                <div class="charts">
                    <ChartCanvas kind=ChartKind::Rate curves=curves dark=dark/>
                    <ChartCanvas kind=ChartKind::Step curves=curves dark=dark/>
                </div>
                <BatchTable inputs=inputs analysis=analysis rows=rows/>
            </section>
        </main>
        <Footer inputs=inputs/>
    }
}

/// Where the preset numbers come from, and the model's assumptions.
#[component]
fn Footer(inputs: ReadSignal<Inputs>) -> impl IntoView {
    view! {
        <footer class="sources">
            <p>
                "Ideal roofline: a decode step reads the weights once plus every running sequence's KV cache at peak "
                "HBM bandwidth, or is limited by dense tensor FLOP/s, whichever is slower. Every sequence holds the "
                "full context. BF16 weights; 90% of HBM for weights plus KV; GB = 10⁹ B, TB/s = 10¹² B/s."
            </p>
            <p>"Model: " {move || inputs.get().model.source}</p>
            <p>"GPU: " {move || inputs.get().gpu.source}</p>
        </footer>
    }
}
