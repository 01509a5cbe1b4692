//! Lazily loaded panels: the extras module's side. Mounts a panel body into the element the page
//! gave it and keeps a copy of the page's state in step through the window events of
//! [`super::island`]: `goodput-state` in, `goodput-set` out when one of its own controls changes it.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use super::chart_canvas::ChartKind;
use super::export::batch_chart_svg;
use super::island::{dispatch, listen, SET_EVENT, STATE_EVENT};
use super::measured::MeasuredBody;
use super::sim_panel::SimBody;
use super::theme;
use crate::chart::Look;
use crate::core::curves::curves_with_measured;
use crate::core::fit::{fit, MeasuredPoint};
use crate::core::roofline::{analyze, evaluate, Analysis, Scenario};
use crate::share::read_link;
use crate::state::measured::with_measured;
use crate::state::view::View;
use crate::state::{self, Inputs};

thread_local! {
    /// The mounted bodies by panel name; dropping a handle unmounts its body.
    static MOUNTED: RefCell<Vec<(String, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs once when the module is instantiated: a panic here shows the page's error banner too.
pub fn start() {
    super::panic_banner::install();
}

/// Mounts the body of panel `name` ("sim" or "measured") into `el`, starting from the page state `query`.
/// An unknown name mounts nothing; mounting a name twice replaces the first.
pub fn mount_panel(name: &str, el: web_sys::HtmlElement, query: String) {
    unmount_panel(name);
    let handle: Box<dyn Any> = match name {
        "sim" => Box::new(leptos::mount::mount_to(el, move || {
            let s = Synced::new(&query);
            view! {
                <SimBody inputs=s.inputs set_inputs=s.set_inputs scenario=s.scenario analysis=s.analysis look=s.look/>
            }
        })),
        "measured" => Box::new(leptos::mount::mount_to(el, move || {
            let s = Synced::new(&query);
            let fit = Memo::new(move |_| fit(&s.scenario.get(), &s.points.get()));
            view! {
                <MeasuredBody inputs=s.inputs set_inputs=s.set_inputs scenario=s.scenario points=s.points
                    set_points=s.set_points fit=fit/>
            }
        })),
        _ => return,
    };
    MOUNTED.with(|m| m.borrow_mut().push((name.to_string(), handle)));
}

/// Unmounts panel `name`'s body, if mounted.
pub fn unmount_panel(name: &str) {
    let handle = MOUNTED.with(|m| {
        let mut m = m.borrow_mut();
        m.iter().position(|(n, _)| n == name).map(|at| m.remove(at))
    });
    drop(handle);
}

/// The page's batch chart `kind` ("rate", "step" or "interactivity") for the page state `query`
/// (its mark and measured points included) as an SVG of `size` CSS pixels in the look `look`.
pub fn chart_svg(kind: &str, query: &str, look: &str, size: (u32, u32)) -> Option<String> {
    let kind = ChartKind::from_panel_id(kind)?;
    let look = Look::from_id(look)?;
    let (inputs, view, points) = read(query);
    let scenario = inputs.scenario;
    let analysis = analyze(&scenario);
    let fitted = fit(&scenario, &points);
    let curves = curves_with_measured(&scenario, &analysis, &points, fitted.as_ref().ok());
    let mark = view.mark_batch.map(|b| evaluate(&scenario, b));
    batch_chart_svg(kind, &curves, mark.as_ref(), size, look)
}

/// This module's copy of the page's state, with the memos a panel body reads.
struct Synced {
    inputs: ReadSignal<Inputs>,
    set_inputs: WriteSignal<Inputs>,
    points: ReadSignal<Vec<MeasuredPoint>>,
    set_points: WriteSignal<Vec<MeasuredPoint>>,
    scenario: Memo<Scenario>,
    analysis: Memo<Analysis>,
    look: Signal<Look>,
}

impl Synced {
    /// Starts from `query`, follows the page's `goodput-state` events, and reports its own changes
    /// (those that differ from what the page last said) as `goodput-set`.
    fn new(query: &str) -> Synced {
        let (first, first_view, points) = read(query);
        let (inputs, set_inputs) = signal(first);
        let (view, set_view) = signal(first_view);
        let (points, set_points) = signal(points);
        let from_page = StoredValue::new((first, points.get_untracked()));
        listen(STATE_EVENT, move |q| {
            let (i, v, p) = read(&q);
            from_page.set_value((i, p.clone()));
            set_if_changed(inputs, set_inputs, i);
            set_if_changed(view, set_view, v);
            set_if_changed(points, set_points, p);
        });
        Effect::new(move |_| {
            let now = (inputs.get(), points.get());
            if from_page.with_value(|page| *page != now) {
                dispatch(SET_EVENT, &with_measured(state::to_query(&now.0), &now.1));
            }
        });
        let scenario = Memo::new(move |_| inputs.get().scenario);
        let analysis = Memo::new(move |_| analyze(&scenario.get()));
        let look = theme::look_only(view);
        Synced { inputs, set_inputs, points, set_points, scenario, analysis, look }
    }
}

/// The inputs, view and measured points a page query holds (notices are the page's to show).
fn read(query: &str) -> (Inputs, View, Vec<MeasuredPoint>) {
    let link = read_link(query);
    (link.inputs, link.view, link.measured)
}

fn set_if_changed<T: PartialEq + Send + Sync + 'static>(get: ReadSignal<T>, set: WriteSignal<T>, value: T) {
    if get.with_untracked(|now| *now != value) {
        set.set(value);
    }
}
