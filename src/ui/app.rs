//! The app: control signals -> validated inputs -> core memos -> headline, charts and table.

use leptos::prelude::*;

use super::animate::ExploreBar;
use super::batch_table::BatchTable;
use super::capacity::CapacityPanel;
use super::chart_canvas::{ChartCanvas, ChartKind};
use super::controls::Controls;
use super::derivation::DerivationPanel;
use super::embed_bar::EmbedBar;
use super::export::TableExport;
use super::headline::Headline;
use super::lessons::LessonBar;
use super::linked::Linked;
use super::measured::MeasuredPanel;
use super::notices::Notices;
use super::share::ShareMenu;
use super::sim_panel::SimPanel;
use super::{channel, keys, theme, url};
use crate::core::capacity::capacity_plan;
use crate::core::curves::curves_with_measured;
use crate::core::fit::fit;
use crate::core::roofline::analyze;
use crate::core::roofline::Limit;
use crate::core::table::batch_table;
use crate::panel_protocol::PanelState;
use crate::share::{link_query, read_link, LinkState};
use crate::state::Inputs;

/// The whole page. Reads the URL once, then owns every control's signal.
#[component]
pub fn App() -> impl IntoView {
    let query = url::current_query();
    let LinkState { inputs: initial, view: initial_view, measured: initial_points, notices } =
        read_link(&query);
    let (points, set_points) = signal(initial_points);
    let (inputs, set_inputs) = signal(initial);
    provide_context(inputs);
    let (view, set_view) = signal(initial_view);
    let scenario = Memo::new(move |_| inputs.get().scenario);
    let analysis = Memo::new(move |_| analyze(&scenario.get()));
    let rows = Memo::new(move |_| batch_table(&scenario.get(), &analysis.get()));
    let measured_fit = Memo::new(move |_| fit(&scenario.get(), &points.get()));
    let curves = Memo::new(move |_| {
        curves_with_measured(
            &scenario.get(),
            &analysis.get(),
            &points.get(),
            measured_fit.get().as_ref().ok(),
        )
    });
    let plan = Memo::new(move |_| {
        let i = inputs.get();
        capacity_plan(&scenario.get(), &analysis.get(), i.rate_req_per_s, i.price_per_gpu_hour)
    });
    let page_query = Memo::new(move |_| link_query(&inputs.get(), &view.get(), &points.get()));
    Effect::new(move |_| url::replace_query_soon(&page_query.get()));
    let state =
        Memo::new(move |_| PanelState { inputs: inputs.get(), view: view.get(), measured: points.get() });
    channel::serve_panels((inputs, set_inputs), (points, set_points), state);
    let table_shown = Signal::derive(move || {
        !matches!(analysis.get().limit, Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. })
    });
    let look = theme::look_signal(view);
    let linked = Linked::new((view, set_view), scenario, analysis);
    let (legend, set_legend) = signal(false);
    keys::install(inputs, set_inputs, view, set_view, set_legend);
    view! {
        <header class="masthead">
            <h1>"Goodput Lab"</h1>
            <ShareMenu inputs=inputs view=view set_view=set_view measured=points/>
            <p class="tagline">
                "Throughput counts tokens produced; goodput counts requests that finish inside both latency targets (TTFT and TPOT). "
                "Every sequence in a decode step waits for the same step, so TPOT belongs to the batch."
            </p>
            <EmbedBar inputs=inputs set_inputs=set_inputs view=view measured=points/>
        </header>
        <Notices initial=notices/>
        <LessonBar inputs=inputs set_inputs=set_inputs view=view set_view=set_view legend=legend/>
        <main class="layout">
            <Controls inputs=inputs set_inputs=set_inputs/>
            <section class="results" aria-label="Results">
                <Headline scenario=scenario analysis=analysis/>
                <ExploreBar linked=linked set_inputs=set_inputs/>
                <div class="charts">
                    <ChartCanvas kind=ChartKind::Rate curves=curves look=look linked=linked/>
                    <ChartCanvas kind=ChartKind::Step curves=curves look=look linked=linked/>
                    <ChartCanvas kind=ChartKind::Interactivity curves=curves look=look linked=linked/>
                </div>
                <div class="panel-slot" data-panel="table">
                    <BatchTable inputs=inputs set_inputs=set_inputs analysis=analysis rows=rows linked=linked/>
                    <TableExport rows=rows shown=table_shown/>
                </div>
                <DerivationPanel scenario=scenario analysis=analysis/>
                <CapacityPanel inputs=inputs set_inputs=set_inputs analysis=analysis plan=plan/>
                <MeasuredPanel inputs=inputs scenario=scenario points=points fit=measured_fit/>
                <SimPanel inputs=inputs set_inputs=set_inputs scenario=scenario analysis=analysis look=look/>
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
                "Roofline: a decode step reads the weights once plus every running sequence's KV cache at peak HBM "
                "bandwidth, or is limited by dense tensor FLOP/s, whichever is slower; with tensor parallelism, weights "
                "and KV split over the GPUs (KV heads are replicated past the KV-head count, an MLA latent on every GPU) "
                "and two ring all-reduces per layer cross the interconnect. MoE steps read only the experts the batch "
                "touches, E × (1 − (1 − k/E)^B) per layer under uniform routing. Every sequence holds the full context. "
                "INT4 weights are weight-only (they multiply at BF16); FP8 and FP4 use their tensor cores where the GPU "
                "has them. GB = 10⁹ B, TB/s = 10¹² B/s."
            </p>
            <p>
                "Realistic mode starts at 80% achieved bandwidth and 1 ms per step: round figures in the range public "
                "engine measurements report, not data. Replace them with your own measurements."
            </p>
            <p>"Model: " {move || inputs.get().scenario.model.source}</p>
            <p>"GPU: " {move || inputs.get().scenario.gpu.source}</p>
        </footer>
    }
}
