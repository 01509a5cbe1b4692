//! The accuracy view (`view=accuracy`): every published measurement in the repository against the
//! measured-engines model, with filters by GPU, engine, model and class, each class's coverage and
//! median |error| over the rows shown, a load control per row ([`ToPage::LoadRun`]) and a CSV of
//! the rows shown. The page keeps the heading; the body is a lazily loaded body
//! ([`LazyBody::Accuracy`]) that loads when the section comes near the viewport. The filters are
//! the body's own: they choose what it lists, and no part of the page reads them.

use leptos::prelude::*;

use crate::core::calibration::accuracy::{class_stats, hold_out_stats, rows, AccuracyRow, Class, Filter};
use crate::core::calibration::profile::HELD_OUT;
use crate::core::calibration::published::POINTS;
use crate::protocol::panel::{LazyBody, ToPage};
use crate::state::published::loadable;
use crate::state::view::Panel;
use crate::ui::canvas::export::download_text;
use crate::ui::context::channel::Changes;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::section::{Hint, Opener, PlanningSection, Section};
use crate::ui::widgets::PresetSelect;
use crate::view::export::{accuracy_csv, ACCURACY_FILE};
use crate::view::format::accuracy::{
    cells, count_text, filter_of, hold_out_line, options, stats_line, ALL, HEADERS,
};

/// The section (`view=accuracy`), always open.
pub struct Accuracy;

impl PlanningSection for Accuracy {
    const SECTION: Section = Section {
        id: "accuracy",
        panel: Some(Panel::Accuracy),
        title: "Accuracy against published measurements",
        hint: Some(Hint {
            class: "hint",
            text: "Every published measurement in the repository beside the measured-engines model at its own \
                configuration, lengths and concurrency: fitted rows in sample, or predicted out of sample by a fit \
                on earlier rows (time split), without their GPU family and engine release (left out) or without \
                their GPU; throughput rows checked, never fitted. Load a row to see its scenario on the page.",
        }),
        figures: None,
        opener: Opener::Near,
        body: LazyBody::Accuracy,
    };

    fn body() -> AnyView {
        view! { <AccuracyBody/> }.into_any()
    }
}

/// The four filters' values (`all` or an option's value).
#[derive(Clone, Copy)]
struct Picks {
    gpu: RwSignal<String>,
    engine: RwSignal<String>,
    model: RwSignal<String>,
    class: RwSignal<String>,
}

impl Picks {
    fn new() -> Picks {
        let all = || RwSignal::new(ALL.to_string());
        Picks { gpu: all(), engine: all(), model: all(), class: all() }
    }

    fn filter(self) -> Filter {
        filter_of(&self.gpu.get(), &self.engine.get(), &self.model.get(), &self.class.get())
    }
}

/// The body: the rows are the repository's data, computed once; the filters choose those shown.
#[component]
pub fn AccuracyBody() -> impl IntoView {
    let all = StoredValue::new(rows(POINTS, HELD_OUT));
    let picks = Picks::new();
    let shown = Memo::new(move |_| {
        let filter = picks.filter();
        all.with_value(|rows| (0..rows.len()).filter(|&i| filter.lets_through(&rows[i])).collect::<Vec<_>>())
    });
    let with_shown = move |f: &dyn Fn(&[&AccuracyRow]) -> String| {
        all.with_value(|rows| shown.with(|s| f(&s.iter().map(|&i| &rows[i]).collect::<Vec<_>>())))
    };
    let lines = move || {
        let stats = all
            .with_value(|rows| shown.with(|s| class_stats(&s.iter().map(|&i| &rows[i]).collect::<Vec<_>>())));
        stats
            .into_iter()
            .filter(|s| s.rows > 0)
            .map(|s| {
                view! {
                    <li data-class=s.class.id() data-rows=s.rows data-priced=s.priced data-inside=s.inside>
                        {stats_line(&s)}
                    </li>
                }
            })
            .collect_view()
    };
    let held_lines = move || {
        let stats = all.with_value(|rows| {
            shown.with(|s| hold_out_stats(&s.iter().map(|&i| &rows[i]).collect::<Vec<_>>(), HELD_OUT))
        });
        stats
            .into_iter()
            .map(|s| {
                let id = Class::of_hold_out(s.hold_out).id();
                view! {
                    <li data-hold-out=id data-predictions=s.predictions data-inside=s.inside>{hold_out_line(&s)}</li>
                }
            })
            .collect_view()
    };
    let download = move |_| {
        download_text(&with_shown(&accuracy_csv), "text/csv;charset=utf-8", ACCURACY_FILE);
    };
    let (loaded, set_loaded) = signal(None::<String>);
    let changes = PanelContext::get().changes;
    let body = move || {
        all.with_value(|rows| {
            shown.with(|s| s.iter().map(|&i| row_view(&rows[i], changes, set_loaded)).collect_view())
        })
    };
    view! {
        <div id="accuracy-body" class="accuracy-body">
            <AccuracyFilters picks=picks all=all/>
            <p id="accuracy-count" class="hint">{move || shown.with(|s| count_text(s.len(), all.with_value(Vec::len)))}</p>
            <ul id="accuracy-coverage" class="accuracy-coverage">{lines}</ul>
            <ul id="accuracy-held-out" class="accuracy-coverage">{held_lines}</ul>
            <p id="accuracy-loaded" class="hint" role="status" aria-live="polite">{move || loaded.get()}</p>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Published measurements against the model">
                <table id="accuracy-table" class="accuracy-table">
                    <caption class="visually-hidden">"Published measurements against the measured-engines model; load a row to see its scenario"</caption>
                    <thead><tr>{HEADERS.map(|h| view! { <th scope="col">{h}</th> }).collect_view()}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            <div class="export-bar table-export">
                <button type="button" id="accuracy-csv" on:click=download>"Download the rows shown (CSV)"</button>
            </div>
        </div>
    }
}

/// The GPU, engine, model and class selects.
#[component]
fn AccuracyFilters(picks: Picks, all: StoredValue<Vec<AccuracyRow>>) -> impl IntoView {
    let o = all.with_value(|rows| options(rows));
    let select =
        |id: &'static str, label: &'static str, options: Vec<(String, String)>, pick: RwSignal<String>| {
            view! {
                <PresetSelect id=id label=label options=options selected=Signal::derive(move || pick.get())
                    on_pick=move |v: String| pick.set(v)/>
            }
        };
    view! {
        <div class="search-controls accuracy-filters">
            {select("accuracy-gpu", "GPU", o.gpus, picks.gpu)}
            {select("accuracy-engine", "Engine", o.engines, picks.engine)}
            {select("accuracy-model", "Model", o.models, picks.model)}
            {select("accuracy-class", "Class", o.classes, picks.class)}
        </div>
    }
}

/// One row: its cells; the first a button that loads the run's scenario into the page (a row whose
/// model or GPU is not a preset has none).
fn row_view(row: &AccuracyRow, changes: Changes, set_loaded: WriteSignal<Option<String>>) -> impl IntoView {
    let [first, rest @ ..] = cells(row);
    let id = row.point.id;
    let load = move |_| {
        changes.send(ToPage::LoadRun { id: id.to_string() });
        set_loaded.set(Some(format!("Loaded {id}'s scenario into the page, under the measured engines.")));
    };
    let head = if loadable(&row.point) {
        view! {
            <button type="button" class="load" data-load=id aria-label=format!("Load {id}'s scenario into the page")
                on:click=load>{first}</button>
        }
        .into_any()
    } else {
        first.into_any()
    };
    let inside = row.inside().map(|i| i.to_string());
    view! {
        <tr data-row=id data-class=row.class.id() data-inside=inside>
            <th scope="row">{head}</th>
            {rest.into_iter().map(|cell| view! { <td>{cell}</td> }).collect_view()}
        </tr>
    }
}
