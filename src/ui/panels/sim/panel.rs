//! The simulator panel: a toggle, its controls, the goodput readout, the attainment and served-rate
//! charts, and the data tables; sweeps run in a Web Worker through [`crate::ui::workers::sim_runner`].

use leptos::prelude::*;

use crate::core::capacity::{unit_point, Placing};
use crate::core::placement::PlacementMode;
use crate::core::plan::SimResult;
use crate::core::roofline::Analysis;
use crate::core::scenario::Scenario;
use crate::protocol::panel::LazyBody;
use crate::state::open::is_open;
use crate::state::view::Panel;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::ideal_note::IdealFigures;
use crate::ui::panels::section::{Hint, Opener, PlanningSection, Section};
use crate::ui::panels::sim::charts::{SimChart, SimChartKind};
use crate::ui::panels::sim::controls::SimControls;
use crate::ui::panels::sim::fleet::{FleetControls, FleetTable};
use crate::ui::panels::sim::placement::PlacementSimChart;
use crate::ui::panels::sim::table::{ChunkTable, SimTable};
use crate::ui::panels::sim::trace::{TraceBlock, TraceState};
use crate::ui::workers::sim_runner::{SimRun, SimRunner};
use crate::view::format::{
    ms_or_dash, percent, significant, sim::sim_recorded_line, sim_analytic, sim_goodput, sim_goodput_range,
    sim_plan_line, sim_steady_note, target_ms,
};

/// The section: closed until asked for (`sim=1`, or `view=sim` presented or embedded), then swept
/// whenever the scenario or a control changes.
pub struct Sim;

impl PlanningSection for Sim {
    const SECTION: Section = Section {
        id: "sim",
        panel: Some(Panel::Sim),
        title: "SLO attainment against request rate",
        hint: Some(Hint {
            class: "sim-intro",
            text: "The table above assumes every step is identical, so goodput drops off a cliff. A simulated server \
                with varied lengths, prefill chunks sharing the steps and a queue shows attainment falling over a \
                range of load; goodput is the highest rate at which enough requests still meet both targets.",
        }),
        figures: Some(IdealFigures::Goodput),
        opener: Opener::Toggle {
            button_id: "sim-toggle",
            show: "Simulate attainment against request rate",
            hide: "Hide the simulator",
        },
        body: LazyBody::Sim,
    };

    fn body() -> AnyView {
        view! { <SimBody/> }.into_any()
    }
}

/// The simulator's body: its controls, status, readout, charts and tables, swept whenever the
/// scenario or a control changes. With the `lazy_panels` feature the lazy module mounts it. Its
/// reads and its controls send through the [`PanelContext`] (the page's own, or the lazy module's).
#[component]
pub fn SimBody() -> impl IntoView {
    let PanelContext { inputs, view, scenario, look, .. } = PanelContext::get();
    let trace = TraceState::provide();
    let run = SimRun::new();
    let runner = SimRunner::new(run);
    let wanted = Memo::new(move |_| {
        let i = inputs.get();
        // Which trace (its allocation: a load makes a new one), not its content: hashing a large
        // trace on every change of the inputs would cost the page a frame.
        let trace_hash = trace.active().map(|t| std::sync::Arc::as_ptr(&t) as usize);
        is_open(&i, &view.get(), Panel::Sim).then(|| (scenario.get(), i.sim, i.placement, trace_hash))
    });
    Effect::new(move |_| {
        if wanted.get().is_some() {
            runner.request(inputs.get_untracked().sim_plan_with(trace.active_untracked()));
        }
    });
    view! {
        <div id="sim-body" class="sim-body">
            <SimControls><TraceBlock/><FleetControls/></SimControls>
            <div class="sim-results">
                <SimStatus run=run/>
                <SimReadout run=run/>
                <PlacementSimChart result=run.result.into() look=look disagg=Signal::derive(move || {
                    inputs.get().placement.mode == PlacementMode::Disaggregated
                })/>
                <div class="charts">
                    <SimChart kind=SimChartKind::Attainment result=run.result.into() look=look/>
                    <SimChart kind=SimChartKind::Served result=run.result.into() look=look/>
                </div>
                <SimTable result=run.result.into()/>
                <ChunkTable result=run.result.into()
                    chunk_tokens=Signal::derive(move || inputs.get().sim.chunk_tokens)/>
                <FleetTable result=run.result.into()/>
            </div>
        </div>
    }
}

/// Progress while a sweep runs, its speed when done, or why it could not run. The bar and the
/// speed line share one grid cell (the line hidden while the bar shows), so a sweep starting or
/// ending does not move the page below: no relayout and repaint of the charts while workers run.
#[component]
fn SimStatus(run: SimRun) -> impl IntoView {
    let progress = move || run.progress.get();
    view! {
        <div id="sim-status" class="sim-status" role="status" aria-live="polite"
            data-busy=move || progress().is_some().to_string() data-sweeps=move || run.delivered.get().to_string()>
            {move || progress().map(|(done, total)| view! {
                <span class="sim-bar">
                    <label for="sim-progress">"Simulating… "</label>
                    <progress id="sim-progress" max=total value=done>{format!("{done} of {total}")}</progress>
                </span>
            })}
            {move || run.error.get().map(|e| view! { <p id="sim-error" class="notice">{e}</p> })}
            {move || run.speed.get().map(|s| view! { <p id="sim-speed" class="hint">{s}</p> })}
        </div>
    }
}

/// Goodput as the simulator reads it, beside the analytic knee, with the lesson of the mode.
#[component]
fn SimReadout(run: SimRun) -> impl IntoView {
    let PanelContext { inputs, scenario, analysis, .. } = PanelContext::get();
    view! {
        {move || run.result.get().map(|r| readout(&scenario.get(), &analysis.get(), &r))}
        {move || run.result.get().map(|r| {
            let i = inputs.get();
            let colocated = Placing { mode: PlacementMode::Colocated, ..i.placing() };
            let unit = unit_point(&scenario.get(), &colocated);
            view! { <p id="sim-plan">{sim_plan_line(i.rate_req_per_s, &r.sweep, scenario.get().parallel.gpus(), unit.as_ref())}</p> }
        })}
    }
}

fn readout(scenario: &Scenario, analysis: &Analysis, r: &SimResult) -> impl IntoView {
    let criterion = format!(
        "at least {} of {} meet TTFT ≤ {} ms and TPOT ≤ {} ms",
        percent(r.attainment_target),
        if r.counting == crate::core::sim::Counting::Tokens { "tokens" } else { "requests" },
        target_ms(scenario.ttft_target_s),
        target_ms(scenario.tpot_target_s)
    );
    let knee = sim_analytic(scenario, analysis, r.cap);
    let at = r.sweep.at_goodput.map(|p| {
        format!(
            "At goodput the decode batch averages {} sequences; TTFT p90 {} ms, TPOT p90 {} ms.",
            significant(p.batch_mean),
            ms_or_dash(p.ttft.p90_s),
            ms_or_dash(p.tpot.p90_s)
        )
    });
    let per_gpu = r.sweep.goodput_req_per_s / f64::from(scenario.parallel.gpus());
    view! {
        <div id="sim-readout" class="sim-readout">
            <p class="sim-goodput-line">
                "Simulated goodput: " <strong id="sim-goodput">{sim_goodput(&r.sweep)}</strong>
                <span class="sim-goodput-spread">" (" <span id="sim-goodput-range">{sim_goodput_range(&r.sweep)}</span> ")"</span>
                {(scenario.parallel.gpus() > 1).then(|| format!(" ({} req/s per GPU)", significant(per_gpu)))}
                {format!(": the highest rate at which {criterion}, its queue not growing.")}
            </p>
            {crate::view::format::sim::sim_ranks_note(scenario.parallel.dp).map(|n| view! { <p id="sim-ranks">{n}</p> })}
            <p id="sim-analytic">{knee} " " {at}</p>
            {r.recorded.map(|p| view! { <p id="sim-recorded">{sim_recorded_line(&p, r.requests_per_level)}</p> })}
            <p id="sim-steady">{sim_steady_note(&r.sweep, r.load == crate::core::sim::LoadMode::Open)}</p>
            {crate::view::format::calibration::coverage_note(scenario).map(|n| view! { <p id="sim-coverage">{n}</p> })}
        </div>
    }
}
