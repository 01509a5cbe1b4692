//! The page's state as context: the signals the page owns ([`PageState`]) and the core memos derived
//! from them ([`PageMemos`]), each one small `Copy` bundle that App provides and components read;
//! [`scoped_memo`] for views that come and go and read them.

use leptos::prelude::*;

use crate::chart::hold::on_axis;
use crate::core::calibration::summary::{summary, Load, Summary};
use crate::core::calibration::CostModel;
use crate::core::curves::{curves_with_measured, Curves};
use crate::core::fit::{fit, YourPoint};
use crate::core::roofline::{analyze, Analysis};
use crate::core::scenario::Scenario;
use crate::core::table::{batch_table, BatchRow};
use crate::state::calibration::DEFAULT_ENGINE;
use crate::state::drag::AxisHold;
use crate::state::lessons::lesson;
use crate::state::open::has_open_flag;
use crate::state::view::Look;
use crate::state::view::{Mode, Panel, View};
use crate::state::Inputs;
use crate::ui::context::channel::Changes;
use crate::ui::context::linked::Linked;
use crate::ui::context::panel::PanelContext;
use crate::ui::context::theme;
use crate::view::share::{link_query, LinkState};

/// The page's own signals: the validated inputs, the view and your points (all in the URL),
/// and whether the key legend shows.
#[derive(Clone, Copy)]
pub struct PageState {
    pub inputs: ReadSignal<Inputs>,
    pub set_inputs: WriteSignal<Inputs>,
    pub view: ReadSignal<View>,
    pub set_view: WriteSignal<View>,
    pub your_points: ReadSignal<Vec<YourPoint>>,
    pub set_your_points: WriteSignal<Vec<YourPoint>>,
    pub legend: ReadSignal<bool>,
    pub set_legend: WriteSignal<bool>,
}

impl PageState {
    /// Signals starting from the state a link opened.
    pub fn new(link: &LinkState) -> PageState {
        let (inputs, set_inputs) = signal(link.inputs);
        let (view, set_view) = signal(link.view);
        let (your_points, set_your_points) = signal(link.measured.clone());
        let (legend, set_legend) = signal(false);
        PageState { inputs, set_inputs, view, set_view, your_points, set_your_points, legend, set_legend }
    }

    /// The page's state, as App provided it.
    pub fn get() -> PageState {
        expect_context::<PageState>()
    }

    /// Loads lesson `number`: the worked example's defaults with its settings; while presenting, its
    /// panel. On the page (not presenting, not embedded) it brings the lesson's subject into view.
    pub fn load_lesson(self, number: u8) {
        let mut inputs = Inputs::default();
        let mut loaded = false;
        self.set_view.update(|v| loaded = v.load_lesson(number, &mut inputs));
        if loaded {
            self.set_inputs.set(inputs);
        }
        let subject = lesson(number).map(|l| l.panel);
        if let (true, Mode::Page, Some(panel)) = (loaded, self.view.get_untracked().mode, subject) {
            bring_into_view(panel);
        }
    }

    /// Opens the simulator when a presentation or an embed shows it, so its charts draw.
    pub fn open_sim_if_shown(self) {
        let v = self.view.get_untracked();
        if v.mode != Mode::Page && v.panel == Panel::Sim && !self.inputs.get_untracked().sim.open {
            self.set_inputs.update(|i| i.sim.open = true);
        }
    }
}

/// The core's results for the page's state, each a memo, with the linked-chart state and the look.
#[derive(Clone, Copy)]
pub struct PageMemos {
    pub scenario: Memo<Scenario>,
    pub analysis: Memo<Analysis>,
    pub rows: Memo<Vec<BatchRow>>,
    /// What the batch charts draw: on the held batch axis while a slider is dragged (`hold`).
    pub curves: Memo<Curves>,
    /// The batch axis a slider drag holds ([`crate::ui::widgets::drag`] sets it; the one place axes hold still).
    pub hold: RwSignal<AxisHold>,
    /// While the page prices on the ideal roofline, its figures beside the measured engines' (the four
    /// planning panels' notes read this one memo); `None` otherwise.
    pub ideal_note: Memo<Option<Summary>>,
    /// The page's whole state as its query string (what the URL shows).
    pub page_query: Memo<String>,
    pub look: Signal<Look>,
    pub linked: Linked,
}

impl PageMemos {
    /// The memos over `page`'s signals.
    pub fn new(page: PageState) -> PageMemos {
        let PageState { inputs, view, set_view, your_points: points, .. } = page;
        let scenario = Memo::new(move |_| inputs.get().scenario);
        let analysis = Memo::new(move |_| analyze(&scenario.get()));
        let rows = Memo::new(move |_| batch_table(&scenario.get(), &analysis.get()));
        let measured_fit = Memo::new(move |_| fit(&scenario.get(), &points.get()));
        let hold = RwSignal::new(AxisHold::default());
        let curves = Memo::new(move |_| {
            let fitted = measured_fit.get();
            let (s, a, p) = (scenario.get(), analysis.get(), points.get());
            let free = curves_with_measured(&s, &a, &p, fitted.as_ref().ok());
            let axis = hold.get().axis(free.axis_max_batch);
            on_axis(free, &s, &a, (&p, fitted.as_ref().ok()), axis)
        });
        let ideal_note = Memo::new(move |_| {
            let i = inputs.get();
            let load = Load {
                rate_req_per_s: i.rate_req_per_s,
                usd_per_gpu_hour: i.usd_per_gpu_hour(),
                placing: i.placing(),
                energy: i.energy,
            };
            (i.scenario.calibration == CostModel::Ideal).then(|| summary(&i.scenario, DEFAULT_ENGINE, load))
        });
        let page_query = Memo::new(move |_| link_query(&inputs.get(), &view.get(), &points.get()));
        let look = theme::look_signal(view);
        let linked = Linked::new((view, set_view), scenario, analysis);
        PageMemos { scenario, analysis, rows, curves, hold, ideal_note, page_query, look, linked }
    }

    /// The page's memos, as App provided them.
    pub fn get() -> PageMemos {
        expect_context::<PageMemos>()
    }

    /// The [`PanelContext`] over the page's own signals: a body the page draws changes them in place.
    pub fn panel_context(self, page: PageState) -> PanelContext {
        let PageState { inputs, set_inputs, view, set_view, your_points, set_your_points, .. } = page;
        let changes = Changes::Page {
            inputs: (inputs, set_inputs),
            measured: (your_points, set_your_points),
            view: (view, set_view),
        };
        let PageMemos { scenario, analysis, look, .. } = self;
        PanelContext { inputs, view, your_points, scenario, analysis, look, changes }
    }
}

/// Scrolls the page as little as brings `panel`'s part (`[data-panel=…]`) into view, or to its top
/// for a planning section or a part taller than the window, at the next animation frame: after the
/// change that chose it has drawn.
fn bring_into_view(panel: Panel) {
    let selector = format!("[data-panel=\"{}\"]", panel.id());
    let scroll = wasm_bindgen::closure::Closure::once_into_js(move || {
        let document = web_sys::window().and_then(|w| w.document());
        let window_height = web_sys::window().and_then(|w| w.inner_height().ok()?.as_f64());
        if let (Some(el), Some(window_height)) =
            (document.and_then(|d| d.query_selector(&selector).ok()?), window_height)
        {
            // "nearest" leaves a part taller than the window where it is once any of it shows, and a
            // planning section that the lesson opens grows downward after this frame: both go to the top.
            let opens = has_open_flag(panel);
            let taller = opens || el.get_bounding_client_rect().height() > window_height;
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(if taller {
                web_sys::ScrollLogicalPosition::Start
            } else {
                web_sys::ScrollLogicalPosition::Nearest
            });
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.request_animation_frame(wasm_bindgen::JsCast::unchecked_ref(&scroll));
    }
}

/// A memo that leaves its sources' subscriber lists when the owner it was made under is cleaned up
/// (a `<For>` row removed, a `<Show>` hidden). reactive_graph 0.2 removes a subscriber from a memo
/// only when the subscriber runs again, never when it is dropped (a signal's write does drop them
/// all), so a view that comes and goes and reads a long-lived memo directly leaves an entry behind
/// each time it goes: the batch table's rows kept about 0.9 KB per change of TP (BENCHMARKS.md, issue
/// 26). Such a view reads the long-lived memos through one of these, so only this memo is subscribed
/// to them and it leaves with the view.
pub fn scoped_memo<T>(compute: impl Fn() -> T + Send + Sync + 'static) -> Memo<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    use leptos::reactive::graph::{Subscriber, ToAnySubscriber};
    let memo = ArcMemo::new(move |_| compute());
    let held = memo.clone();
    on_cleanup(move || held.clear_sources(&held.to_any_subscriber()));
    Memo::from(memo)
}
