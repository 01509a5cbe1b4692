//! The app: control signals -> validated inputs -> core memos -> headline, charts and table; the
//! masthead, the results section and the footer.

use leptos::prelude::*;

use crate::core::roofline::Limit;
use crate::protocol::panel::PanelState;
use crate::ui::canvas::chart::ChartCanvas;
use crate::ui::canvas::export::TableExport;
use crate::ui::context::page::{PageMemos, PageState};
use crate::ui::controls::keys;
use crate::ui::controls::panel::Controls;
use crate::ui::explore::batch_table::BatchTable;
use crate::ui::explore::explore_bar::ExploreBar;
use crate::ui::explore::headline::Headline;
use crate::ui::explore::lessons::LessonBar;
use crate::ui::explore::published_table::PublishedTable;
use crate::ui::lazy::body;
use crate::ui::panels::derivation::DerivationPanel;
use crate::ui::panels::measured::MeasuredPanel;
use crate::ui::panels::section::section_view;
use crate::ui::panels::{accuracy, capacity, placement, search, sim};
use crate::ui::share::embed_bar::EmbedBar;
use crate::ui::share::menu::ShareMenu;
use crate::ui::shell::notices::Notices;
use crate::ui::shell::url;
use crate::ui::widgets::drag;
use crate::view::batch_chart::BatchChart;
use crate::view::share::read_link;

/// The whole page. Reads the URL once, then owns every control's signal and gives them, with the core
/// memos over them, to the components as context ([`PageState`], [`PageMemos`]).
#[component]
pub fn App() -> impl IntoView {
    let link = read_link(&url::current_query());
    let page = PageState::new(&link);
    let memos = PageMemos::new(page);
    provide_context(page);
    provide_context(memos);
    provide_context(memos.panel_context(page));
    push_outward(page, memos);
    keys::install(page);
    drag::install(memos);
    view! {
        <Masthead/>
        <Notices initial=link.notices/>
        <LessonBar/>
        <main class="layout">
            <Controls/>
            <Results/>
        </main>
        <Footer/>
    }
}

/// The URL follows the page's query; the lazily loaded panels are sent the page's state and their
/// changes are applied ([`body::serve_panels`]).
fn push_outward(page: PageState, memos: PageMemos) {
    let PageState { inputs, set_inputs, view, set_view, your_points, set_your_points, .. } = page;
    let page_query = memos.page_query;
    Effect::new(move |_| url::replace_query_soon(&page_query.get()));
    let state = Memo::new(move |_| PanelState {
        inputs: inputs.get(),
        view: view.get(),
        your_points: your_points.get(),
    });
    body::serve_panels((inputs, set_inputs), (your_points, set_your_points), (view, set_view), state);
}

/// The title, tagline, sharing tools, theme and embed bar.
#[component]
fn Masthead() -> impl IntoView {
    view! {
        <header class="masthead">
            <h1>"Goodput Lab"</h1>
            <ShareMenu/>
            <p class="tagline">
                "Throughput counts tokens produced; goodput counts requests that finish inside both latency targets (TTFT and TPOT). "
                "Every sequence in a decode step waits for the same step, so TPOT belongs to the batch."
            </p>
            <EmbedBar/>
        </header>
    }
}

/// The results: headline, the three batch charts, the table, and the panels below them.
#[component]
fn Results() -> impl IntoView {
    let PageMemos { analysis, curves, look, linked, .. } = PageMemos::get();
    let table_shown = Signal::derive(move || {
        !matches!(analysis.get().limit, Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. })
    });
    view! {
        <section class="results" aria-label="Results">
            <Headline/>
            <ExploreBar/>
            <div class="charts">
                <ChartCanvas kind=BatchChart::Rate curves=curves look=look linked=linked/>
                <ChartCanvas kind=BatchChart::Step curves=curves look=look linked=linked/>
                <ChartCanvas kind=BatchChart::Interactivity curves=curves look=look linked=linked/>
            </div>
            <PublishedTable/>
            <div class="panel-slot" data-panel="table">
                <BatchTable/>
                <TableExport shown=table_shown/>
            </div>
            <DerivationPanel/>
            {section_view::<capacity::Capacity>()}
            {section_view::<placement::Placement>()}
            {section_view::<search::panel::Search>()}
            <MeasuredPanel/>
            {section_view::<sim::panel::Sim>()}
            {section_view::<accuracy::Accuracy>()}
        </section>
    }
}

/// Where the preset numbers come from, and the model's assumptions.
#[component]
fn Footer() -> impl IntoView {
    let inputs = PageState::get().inputs;
    view! {
        <footer class="sources">
            <p>
                "Roofline: a decode step reads the weights once plus every running sequence's KV cache at peak HBM "
                "bandwidth, or is limited by dense tensor FLOP/s, whichever is slower; with tensor parallelism, weights "
                "and KV split over the GPUs (KV heads are replicated past the KV-head count, an MLA latent on every GPU) "
                "and two ring all-reduces per layer cross the interconnect. MoE steps read only the experts the batch "
                "touches, E × (1 − (1 − k/E)^B) per layer under uniform routing. With expert and data parallelism, each "
                "DP rank keeps its own batch and KV (an MLA latent once per rank), experts split over the EP ranks, and "
                "the busiest rank's routed tokens cross an all-to-all over NVLink or, past one domain, the NIC; pipeline "
                "stages split the layers and run min(PP, B) microbatches. Every sequence holds the full context. "
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
