//! The simulator's placement chart and readout (only with `place=disagg`): attainment against rate
//! per GPU for the colocated replica and the disaggregated split on one canvas, with PNG/SVG export,
//! and both simulated goodputs per GPU beside the placement panel's analytic split. The drawing
//! lives in `crate::chart::placement_attainment`.

use leptos::html::Canvas;
use leptos::prelude::*;

use leptos::ev::PointerEvent;

use crate::chart::{
    draw_placement_attainment_chart, nearest_point, AttainmentView, ChartFrame, PlacementCurve,
};
use crate::core::plan::{PlacementSim, SimResult};
use crate::core::sim::LoadMode;
use crate::state::view::Look;
use crate::ui::canvas::chart::{chart_figure, paint};
use crate::ui::canvas::export::{deliver_svg, export_buttons, render_svg};
use crate::ui::canvas::frame_draw::FrameDraw;
use crate::ui::canvas::overlay::CanvasFrame;
use crate::view::format::{percent, significant, sim_goodput_per_gpu};

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

/// The two curves of `r` (colocated, then the split) with their labels, for drawing and reading.
fn with_curves<T>(r: &SimResult, f: impl FnOnce([PlacementCurve<'_>; 2], &AttainmentView) -> T) -> Option<T> {
    let p = r.placement.as_ref()?;
    let labels = curve_labels(r, p);
    let view = AttainmentView { attainment_target: r.attainment_target, counting: r.counting, load: r.load };
    let curves = [
        PlacementCurve { label: &labels[0], sweep: &r.sweep, gpus: p.colocated_gpus },
        PlacementCurve { label: &labels[1], sweep: &p.sweep, gpus: p.gpus },
    ];
    Some(f(curves, &view))
}

/// Draws the placement chart of `r` and returns its frame (`None` without a placement sweep).
fn draw<DB: plotters::prelude::DrawingBackend>(
    root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    r: &SimResult,
    style: &crate::chart::ChartStyle,
) -> crate::chart::FrameResult<DB> {
    let empty = ChartFrame { x_px: (0, 1), y_px: (1, 0), x_range: (0.0, 1.0), y_range: (0.0, 1.0) };
    with_curves(r, |curves, view| draw_placement_attainment_chart(root, curves, view, style))
        .unwrap_or(Ok(empty))
}

/// What the pointer reads at `rate_per_gpu`: each placement's nearest swept rate per GPU and the
/// share meeting both targets there.
pub fn hover_text(r: &SimResult, rate_per_gpu: f64) -> Option<String> {
    with_curves(r, |curves, view| {
        let read = |c: &PlacementCurve<'_>| {
            nearest_point(c, view, rate_per_gpu).map_or_else(
                || format!("{}: no rate swept", c.label),
                |(x, y)| {
                    format!(
                        "{} at {} req/s/GPU: {} meet both targets",
                        c.label,
                        significant(x),
                        percent(y / 100.0)
                    )
                },
            )
        };
        format!("{}; {}.", read(&curves[0]), read(&curves[1]))
    })
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
    let (frame, set_frame) = signal(None::<CanvasFrame>);
    let redraw = FrameDraw::new(canvas_ref, move |canvas, css| {
        let (Some(look), Some(Some(r))) = (look.try_get_untracked(), result.try_get_untracked()) else {
            return false;
        };
        let drawn = paint(canvas, css, look, |root, style| draw(root, &r, style));
        set_frame.set(drawn.map(|f| CanvasFrame::of(f, canvas, css.0)));
        drawn.is_some()
    });
    Effect::new(move |_| {
        result.track();
        look.track();
        redraw.invalidate();
    });
    let (hover, set_hover) = signal(None::<String>);
    let at = move |ev: PointerEvent| {
        let (Some(cf), Some(canvas), Some(Some(r))) =
            (frame.get_untracked(), canvas_ref.get_untracked(), result.try_get_untracked())
        else {
            return;
        };
        let px = (f64::from(ev.client_x()) - canvas.get_bounding_client_rect().left()) * cf.px_per_css;
        set_hover.set(hover_text(&r, cf.frame.x_at(px).max(0.0)));
    };
    let description = move || result.get().map_or_else(|| format!("{TITLE}: simulating…"), |r| describe(&r));
    let render = move |size, look| {
        let r = result.get_untracked()?;
        render_svg(size, look, TITLE, |root, style| draw(root, &r, style).map(drop))
    };
    let svg = move |size, look, name: String| deliver_svg(render(size, look), &name);
    view! {
        <div class="sim-chart sim-placement-chart" on:pointermove=at on:pointerdown=at>
            {chart_figure(ID, TITLE, canvas_ref, description)}
            <p id="sim-placement-hover" class="hint" aria-live="polite">
                {move || hover.get().unwrap_or_else(|| "Point at the chart to read both placements at a rate per GPU.".into())}
            </p>
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
