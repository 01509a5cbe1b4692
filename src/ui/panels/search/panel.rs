//! The configuration search panel: the page keeps the heading and the open button (`search=1`, or
//! an embed or presentation of `view=search`); the body (status, chart, table, prices) loads from
//! the lazy module and searches whenever the page's [`crate::core::search::SearchSpec`] changes.

use leptos::prelude::*;

use crate::core::scenario::Scenario;
use crate::protocol::panel::LazyBody;
use crate::state::view::Panel;
use crate::state::WORKED_EXAMPLE;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::ideal_note::IdealFigures;
use crate::ui::panels::search::chart::SearchChart;
use crate::ui::panels::search::prices::PriceEditor;
use crate::ui::panels::search::table::{SearchFilters, SearchTable};
use crate::ui::panels::search::view::SearchView;
use crate::ui::panels::section::{Hint, Opener, PlanningSection, Section};
use crate::ui::workers::search_runner::{SearchRun, SearchRunner};
use crate::view::format::thousands;

/// The section (`view=search`, or `search=1`).
pub struct Search;

impl PlanningSection for Search {
    const SECTION: Section = Section {
        id: "search",
        panel: Some(Panel::Search),
        title: "Configuration search",
        hint: Some(Hint {
            class: "hint",
            text: "Every GPU preset × TP × weight and KV precision × placement (colocated, or the best x : y split of up to \
                8 GPUs a side) for this model, workload and targets, each at its highest rate inside both targets.",
        }),
        figures: Some(IdealFigures::Tpot),
        opener: Opener::Toggle { button_id: "search-open", show: "Search configurations", hide: "Hide the search" },
        body: LazyBody::Search,
    };

    fn body() -> AnyView {
        view! { <SearchBody/> }.into_any()
    }
}

/// The body: searches on mount and whenever the spec changes; provides [`SearchView`].
#[component]
pub fn SearchBody() -> impl IntoView {
    let PanelContext { inputs, look, .. } = PanelContext::get();
    let run = SearchRun::new();
    let runner = SearchRunner::new(run);
    // The search varies the GPU, precisions and TP itself: loading a row changes no spec.
    let spec = Memo::new(move |_| {
        let mut spec = inputs.get().search_spec();
        let Scenario { gpu, weight_precision, kv_precision, parallel, .. } = WORKED_EXAMPLE;
        spec.scenario = Scenario { gpu, weight_precision, kv_precision, parallel, ..spec.scenario };
        spec
    });
    Effect::new(move |_| runner.request(spec.get()));
    let shown = Memo::new(move |_| {
        let s = inputs.get().search;
        run.found.with(|f| {
            f.as_ref()
                .map(|f| crate::view::format::search::shown(&f.rows, &s.filters, s.sort))
                .unwrap_or_default()
        })
    });
    let hovered = RwSignal::new(None);
    // A hovered index names a row of the last search only.
    Effect::new(move |_| {
        run.found.track();
        hovered.set(None);
    });
    provide_context(SearchView { run, shown, hovered });
    view! {
        <div id="search-body" class="search-body">
            <SearchStatus run=run/>
            <SearchFilters/>
            <SearchChart look=look/>
            <SearchTable/>
            <PriceEditor/>
        </div>
    }
}

/// Progress while a search runs; what it evaluated and how long it took once done (the data-
/// attributes are what tests and the benchmark read).
#[component]
fn SearchStatus(run: SearchRun) -> impl IntoView {
    let (busy, progress) = (move || run.busy.get(), move || run.progress.get());
    let evaluated = move || run.found.with(|f| f.as_ref().map_or(0, |f| f.evaluated));
    let rows = move || run.found.with(|f| f.as_ref().map_or(0, |f| f.rows.len()));
    let summary = move || {
        let workers = run.workers.get();
        let place =
            if workers == 0 { "on the page".to_string() } else { format!("in {workers} Web Workers") };
        run.found.with(|f| {
            f.as_ref().map(|f| {
                format!(
                    "Evaluated {} configurations ({} serve inside both targets) in {} ms {place}.",
                    thousands(f64::from(f.evaluated)),
                    thousands(f.rows.len() as f64),
                    thousands(run.elapsed_ms.get())
                )
            })
        })
    };
    view! {
        <div id="search-status" class="search-status" role="status" aria-live="polite"
            data-busy=move || busy().to_string()
            data-searches=move || run.searches.get().to_string()
            data-ms=move || format!("{:.1}", run.elapsed_ms.get())
            data-evaluated=move || evaluated().to_string()
            data-rows=move || rows().to_string()>
            <label for="search-progress">{move || if busy() { "Searching… " } else { "Groups searched " }}</label>
            <progress id="search-progress" max=move || progress().1 value=move || progress().0>
                {move || format!("{} of {}", progress().0, progress().1)}
            </progress>
            {move || run.error.get().map(|e| view! { <p id="search-error" class="notice">{e}</p> })}
            <p id="search-summary" class="hint">{summary}</p>
        </div>
    }
}
