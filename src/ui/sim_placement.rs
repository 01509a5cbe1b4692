//! The simulator's placement chart and readout (only with `place=disagg`): attainment against rate
//! per GPU for the colocated replica and the disaggregated split on one canvas, with PNG/SVG export,
//! and both simulated goodputs per GPU beside the placement panel's analytic split. The drawing
//! lives in `crate::chart::placement_attainment`.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::chart_canvas::{chart_figure, paint};
use super::export::{deliver_svg, export_buttons, render_svg};
use super::frame_draw::FrameDraw;
use crate::chart::{draw_placement_attainment_chart, AttainmentView, Look, PlacementCurve};
use crate::core::sim::LoadMode;
use crate::format::{percent, significant, sim_goodput_per_gpu};
use crate::sim_protocol::{PlacementSim, SimResult};

const ID: &str = "chart-sim-placement";
const TITLE: &str = "Attainment against request rate per GPU, colocated and disaggregated";

/// The two curves' legend labels: "Colocated (TP 1)" and "Disaggregated 1:1 (TP 1 / TP 1)".
pub fn curve_labels(r: &SimResult, p: &PlacementSim) -> [String; 2] {
    let s = &p.split;
    [
        format!("Colocated (TP {})", p.colocated_gpus),
        format!(
            "Disaggregated {}:{} (TP {} / TP {})",
            s.prefill_instances, s.decode_instances, s.prefill_tp, s.decode_tp
        ),
    ]
    .map(|l| if r.counting == crate::core::sim::Counting::Tokens { format!("{l}, by tokens") } else { l })
}

/// Draws the placement chart of `r` (nothing without a placement sweep).
fn draw<DB: plotters::prelude::DrawingBackend>(
    root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    r: &SimResult,
    style: &crate::chart::ChartStyle,
) -> crate::chart::DrawResult<DB> {
    let Some(p) = &r.placement else { return Ok(()) };
    let labels = curve_labels(r, p);
    let view = AttainmentView { attainment_target: r.attainment_target, counting: r.counting, load: r.load };
    let curves = [
        PlacementCurve { label: &labels[0], sweep: &r.sweep, gpus: p.colocated_gpus },
        PlacementCurve { label: &labels[1], sweep: &p.sweep, gpus: p.gpus },
    ];
    draw_placement_attainment_chart(root, curves, &view, style)
}

/// The chart and its readout, shown once a sweep with a placement has landed; under closed load
/// with `disagg` set, a note that the split is simulated under open load only.
#[component]
pub fn PlacementSimChart(
    result: Signal<Option<SimResult>>,
    look: Signal<Look>,
    disagg: Signal<bool>,
) -> impl IntoView {
    let shown = Memo::new(move |_| result.get().is_some_and(|r| r.placement.is_some()));
    let closed = move || disagg.get() && result.get().is_some_and(|r| r.load == LoadMode::Closed);
    view! {
        <Show when=move || shown.get()>
            <PlacementSimReadout result=result/>
            <PlacementCanvas result=result look=look/>
        </Show>
        <Show when=closed>
            <p id="sim-placement-closed" class="hint">
                "The disaggregated split is simulated under open load only: choose open load to compare it per GPU."
            </p>
        </Show>
    }
}

#[component]
fn PlacementCanvas(result: Signal<Option<SimResult>>, look: Signal<Look>) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let redraw = FrameDraw::new(canvas_ref, move |canvas, css| {
        let (Some(look), Some(Some(r))) = (look.try_get_untracked(), result.try_get_untracked()) else {
            return false;
        };
        paint(canvas, css, look, |root, style| draw(root, &r, style)).is_some()
    });
    Effect::new(move |_| {
        result.track();
        look.track();
        redraw.invalidate();
    });
    let description = move || result.get().map_or_else(|| format!("{TITLE}: simulating…"), |r| describe(&r));
    let render = move |size, look| {
        let r = result.get_untracked()?;
        render_svg(size, look, TITLE, |root, style| draw(root, &r, style))
    };
    let svg = move |size, look, name: String| deliver_svg(render(size, look), &name);
    view! {
        <div class="sim-chart sim-placement-chart">
            {chart_figure(ID, TITLE, canvas_ref, description)}
            {export_buttons(ID, "sim-placement", TITLE, look, svg)}
        </div>
    }
}

/// The chart's text alternative: both placements' goodput per GPU.
fn describe(r: &SimResult) -> String {
    let Some(p) = &r.placement else { return format!("{TITLE}: no disaggregated sweep.") };
    let [colo, split] = curve_labels(r, p);
    format!(
        "{TITLE}. With a {} attainment target, {colo} gives {} and {split} gives {}.",
        percent(r.attainment_target),
        sim_goodput_per_gpu(&r.sweep, p.colocated_gpus),
        sim_goodput_per_gpu(&p.sweep, p.gpus)
    )
}

/// Both simulated goodputs per GPU, and the analytic split's beside them.
#[component]
fn PlacementSimReadout(result: Signal<Option<SimResult>>) -> impl IntoView {
    let line = move || {
        let r = result.get()?;
        let p = r.placement.clone()?;
        let [colo, split] = curve_labels(&r, &p);
        let gpus = |n: u32| if n == 1 { "1 GPU".to_string() } else { format!("{n} GPUs") };
        Some(view! {
            <p id="sim-placement-readout" class="sim-goodput-line">
                "Simulated goodput per GPU: " {colo} " " <strong id="sim-placement-colo">
                {sim_goodput_per_gpu(&r.sweep, p.colocated_gpus)}</strong> {format!(" on {}; ", gpus(p.colocated_gpus))}
                {split} " " <strong id="sim-placement-disagg">{sim_goodput_per_gpu(&p.sweep, p.gpus)}</strong>
                {format!(" on {} (decode instances capped at {} sequences, requests dealt round-robin). ", gpus(p.gpus), p.decode_cap)}
                "The placement panel's analytic split: "
                <span id="sim-placement-analytic">{significant(p.analytic.goodput_per_gpu_req_per_s)}</span>
                " req/s/GPU (mean TTFT, not a percentile)."
            </p>
        })
    };
    view! { {line} }
}
