//! The search's table and its controls: the order and the filters (each writing its URL key through
//! [`ToPage::Search`]), the top [`TOP_N`] rows of the filtered, sorted list with their
//! `data-config` ids, the count, a CSV of every filtered row, and a row click that loads its
//! configuration ([`ToPage::LoadConfig`]).

use leptos::prelude::*;

use crate::core::placement::PlacementMode;
use crate::core::precision::Precision;
use crate::core::presets::GPUS;
use crate::core::search::{Row, GPU_COUNT};
use crate::protocol::panel::ToPage;
use crate::state::search::{place_id, SearchInputs, SORTS};
use crate::ui::canvas::export::download_text;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::search::view::SearchView;
use crate::ui::widgets::PresetSelect;
use crate::view::export::{file_name, search_csv};
use crate::view::format::search::{cells, config_id, count_text, tpot_cell, HEADERS};

/// Rows the table lists (the CSV has them all).
pub const TOP_N: usize = 50;

/// Sends the search's inputs with `f` applied.
fn change_search(f: impl FnOnce(&mut SearchInputs)) {
    let signals = PanelContext::get();
    let mut next = signals.inputs.get_untracked().search;
    f(&mut next);
    signals.changes.send(ToPage::Search(next));
}

fn options<T: Copy>(all: &[(String, String, T)]) -> Vec<(String, String)> {
    std::iter::once(("all".to_string(), "All".to_string()))
        .chain(all.iter().map(|(id, name, _)| (id.clone(), name.clone())))
        .collect()
}

fn find<T: Copy>(all: &[(String, String, T)], id: &str) -> Option<T> {
    all.iter().find(|(i, _, _)| i == id).map(|(_, _, v)| *v)
}

/// The order select and the four filters.
#[component]
pub fn SearchFilters() -> impl IntoView {
    let inputs = PanelContext::get().inputs;
    let f = move || inputs.get().search.filters;
    let sorts: Vec<(String, String)> =
        SORTS.iter().map(|(id, _, name)| (id.to_string(), name.to_string())).collect();
    let sort_id = Signal::derive(move || {
        let sort = inputs.get().search.sort;
        SORTS.iter().find(|(_, k, _)| *k == sort).map_or("goodput", |(id, _, _)| id).to_string()
    });
    let gpus: Vec<(String, String, u8)> =
        GPUS.iter().take(GPU_COUNT).enumerate().map(|(i, g)| (g.id.into(), g.name.into(), i as u8)).collect();
    let ws: Vec<_> = Precision::WEIGHTS.iter().map(|p| (p.id().into(), p.label().into(), *p)).collect();
    let kvs: Vec<_> = Precision::KV.iter().map(|p| (p.id().into(), p.label().into(), *p)).collect();
    let places: Vec<(String, String, PlacementMode)> = vec![
        ("colo".into(), "Colocated".into(), PlacementMode::Colocated),
        ("disagg".into(), "Disaggregated".into(), PlacementMode::Disaggregated),
    ];
    let id_or_all = |id: Option<String>| id.unwrap_or_else(|| "all".into());
    let (g2, w2, k2, p2) = (gpus.clone(), ws.clone(), kvs.clone(), places.clone());
    view! {
        <div class="search-controls">
            <PresetSelect id="search-sort" label="Order by" options=sorts selected=sort_id
                on_pick=move |v: String| change_search(|s| s.sort = SORTS.iter().find(|(id, _, _)| *id == v).map_or(s.sort, |(_, k, _)| *k))/>
            <PresetSelect id="search-gpu" label="GPU" options=options(&gpus)
                selected=Signal::derive(move || id_or_all(f().gpu_index.map(|i| GPUS[usize::from(i)].id.to_string())))
                on_pick=move |v: String| change_search(|s| s.filters.gpu_index = find(&g2, &v))/>
            <PresetSelect id="search-w" label="Weights" options=options(&ws)
                selected=Signal::derive(move || id_or_all(f().weight_precision.map(|p| p.id().to_string())))
                on_pick=move |v: String| change_search(|s| s.filters.weight_precision = find(&w2, &v))/>
            <PresetSelect id="search-kv" label="KV cache" options=options(&kvs)
                selected=Signal::derive(move || id_or_all(f().kv_precision.map(|p| p.id().to_string())))
                on_pick=move |v: String| change_search(|s| s.filters.kv_precision = find(&k2, &v))/>
            <PresetSelect id="search-place" label="Placement" options=options(&places)
                selected=Signal::derive(move || id_or_all(f().placement.map(|p| place_id(p).to_string())))
                on_pick=move |v: String| change_search(|s| s.filters.placement = find(&p2, &v))/>
        </div>
    }
}

/// The ranked table (top [`TOP_N`]), its count and its CSV button.
#[component]
pub fn SearchTable() -> impl IntoView {
    let SearchView { run, shown, hovered } = expect_context::<SearchView>();
    let changes = PanelContext::get().changes;
    let evaluated = move || run.found.with(|f| f.as_ref().map_or(0, |f| f.evaluated));
    let count = move || {
        let n = shown.with(Vec::len);
        count_text(n.min(TOP_N), n, evaluated())
    };
    let rows_hover = RowsHover::new(hovered);
    let body = move || {
        run.found.with(|f| {
            let Some(f) = f.as_ref() else { return Vec::new() };
            let hover = rows_hover.for_new_rows();
            shown.with(|s| {
                s.iter().take(TOP_N).map(|&i| row_view(i, f.rows[i], hovered, &hover, changes)).collect()
            })
        })
    };
    let download = move |_| {
        let csv = run
            .found
            .with_untracked(|f| f.as_ref().map(|f| shown.with_untracked(|s| search_csv(&f.rows, s))));
        let name = file_name(&PanelContext::get().inputs.get_untracked(), "search", "csv");
        if let Some(csv) = csv {
            download_text(&csv, "text/csv;charset=utf-8", &name);
        }
    };
    let sortable = [
        "Goodput per GPU (req/s)",
        "Tokens/s per user",
        "GPUs for the load",
        "$ per million tokens",
        "J/token",
    ];
    let header = move |h: &'static str| {
        let key = match h {
            "Goodput per GPU (req/s)" => Some("goodput"),
            "Tokens/s per user" => Some("user"),
            "GPUs for the load" => Some("gpus"),
            "$ per million tokens" => Some("cost"),
            "J/token" => Some("energy"),
            _ => None,
        };
        let pick = move |_| {
            if let Some(k) = key.and_then(|k| SORTS.iter().find(|(id, _, _)| *id == k)) {
                change_search(|s| s.sort = k.1);
            }
        };
        match key.filter(|_| sortable.contains(&h)) {
            Some(k) => view! { <th scope="col"><button type="button" class="sort" data-sort=k on:click=pick>{h}</button></th> }.into_any(),
            None => view! { <th scope="col">{h}</th> }.into_any(),
        }
    };
    view! {
        <p id="search-count" class="hint">{count}</p>
        <div class="table-scroll">
            <table id="search-table" class="search-table">
                <caption class="visually-hidden">"Configurations, best first; click a row to load it"</caption>
                <thead><tr>{HEADERS.iter().map(|h| header(h)).collect_view()}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        <div class="export-bar table-export">
            <button type="button" id="export-search-csv" on:click=download>"Download the filtered table (CSV)"</button>
        </div>
    }
}

/// The hovered row as the rows of one render read it.
///
/// Why not [`SearchView::hovered`] itself: the rows are rebuilt with every search, and a dropped
/// view's reactive attribute stays in the subscriber list of every signal it read (reactive_graph
/// 0.2 unsubscribes an effect only when it runs again, never when it is dropped), so 50 rows reading
/// the panel's long-lived `hovered` kept about 2.4 KB per search for the page's lifetime (BENCHMARKS.md,
/// issue 26, the soak). Each render's rows read a signal of their own instead, which is dropped
/// with them; one long-lived effect copies `hovered` into the current one.
#[derive(Clone, Copy)]
struct RowsHover {
    current: StoredValue<ArcRwSignal<Option<usize>>>,
}

impl RowsHover {
    fn new(hovered: RwSignal<Option<usize>>) -> RowsHover {
        let current = StoredValue::new(ArcRwSignal::new(hovered.get_untracked()));
        Effect::new(move |_| {
            let now = hovered.get();
            current.with_value(|signal| signal.set(now));
        });
        RowsHover { current }
    }

    /// A fresh signal for rows about to be built (the previous rows' one is dropped with them).
    fn for_new_rows(self) -> ArcRwSignal<Option<usize>> {
        let fresh = ArcRwSignal::new(self.current.with_value(|signal| signal.get_untracked()));
        self.current.set_value(fresh.clone());
        fresh
    }
}

/// One row: its cells, its `data-config` id, hover linked with the chart (`hovered` written,
/// `hover` read), click (or Enter on its first cell's button) to load it.
fn row_view(
    i: usize,
    row: Row,
    hovered: RwSignal<Option<usize>>,
    hover: &ArcRwSignal<Option<usize>>,
    changes: crate::ui::context::channel::Changes,
) -> impl IntoView {
    let mut c = cells(&row);
    c[8] = tpot_cell(&row, &PanelContext::get().scenario.get_untracked());
    let config = row.config;
    let load = move |_| changes.send(ToPage::LoadConfig(config));
    let hover = hover.clone();
    let class = move || if hover.get() == Some(i) { "hovered" } else { "" };
    let [first, rest @ ..] = c;
    view! {
        <tr data-config=config_id(&config) class=class on:click=load
            on:mouseenter=move |_| hovered.set(Some(i)) on:mouseleave=move |_| hovered.set(None)>
            <th scope="row"><button type="button" class="load" aria-label=format!("Load {first} {}", rest[2])>{first.clone()}</button></th>
            {rest.into_iter().map(|cell| view! { <td>{cell}</td> }).collect_view()}
        </tr>
    }
}
