//! Sim chart 3 (disaggregated only): attainment against request rate per GPU for the colocated
//! replica and the disaggregated split on one chart, each with its goodput per GPU marked, and the
//! attainment target.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::attainment::{draw_target, ATTAINMENT_AXIS_TOP_PCT};
use super::frame::{ChartFrame, FrameResult};
use super::{
    axis_top, draw_dashed, legend_and_plot, sweep_series, vertical_marker_on, xy_axes_labelled,
    AttainmentView, ChartStyle, DrawResult, LegendItem, XyChart,
};
use crate::core::sim::{GoodputBound, Sweep};
use crate::view::format::{percent_trimmed, sim_goodput_per_gpu};

/// One placement's sweep and the GPUs it runs on, with its legend label.
#[derive(Clone, Copy, Debug)]
pub struct PlacementCurve<'a> {
    pub label: &'a str,
    pub sweep: &'a Sweep,
    pub gpus: u32,
}

impl PlacementCurve<'_> {
    fn per_gpu(&self, rate_req_per_s: f64) -> f64 {
        rate_req_per_s / f64::from(self.gpus.max(1))
    }

    /// (rate per GPU, % meeting both targets) at every swept rate.
    fn series(&self, view: &AttainmentView) -> Vec<(f64, f64)> {
        let xy = sweep_series(self.sweep, |pt| 100.0 * view.attainment(pt).both);
        xy.into_iter().map(|(x, y)| (self.per_gpu(x), y)).collect()
    }

    /// The goodput marker's label ([`sim_goodput_per_gpu`]); `None` when no rate met the target.
    fn goodput_label(&self) -> Option<String> {
        (self.sweep.bound != GoodputBound::BelowLowest && self.sweep.goodput_req_per_s.is_finite())
            .then(|| sim_goodput_per_gpu(self.sweep, self.gpus))
    }
}

/// Draws % of requests (or tokens) meeting both targets against offered requests/s per GPU:
/// the colocated curve solid with dots, the split's dashed with squares, the target as a dashed
/// line, and each placement's goodput per GPU as a vertical marker in its colour. Returns the plot's
/// frame, so the page can turn a pointer's pixel into a rate per GPU.
pub fn draw_placement_attainment_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: [PlacementCurve<'_>; 2],
    view: &AttainmentView,
    style: &ChartStyle,
) -> FrameResult<DB> {
    let p = style.palette;
    let colors = [p.goodput, p.throughput];
    let legend =
        [LegendItem::solid(curves[0].label, colors[0]), LegendItem::dashed(curves[1].label, colors[1])];
    let plot = legend_and_plot(root, &legend, style)?;
    let x_max = axis_top(curves.iter().flat_map(|c| {
        let rates = c.sweep.points.iter().map(|pt| pt.rate_req_per_s);
        rates.chain(std::iter::once(c.sweep.goodput_req_per_s)).map(|r| c.per_gpu(r))
    }));
    let descs = ("Offered requests/s per GPU", "Attainment, both targets (%)");
    let ranges = (x_max, ATTAINMENT_AXIS_TOP_PCT);
    let mut chart = xy_axes_labelled(&plot, ranges, descs, &|y| percent_trimmed(*y / 100.0), style)?;
    let target_pct = draw_target(&mut chart, view.attainment_target, false, style)?;
    let (colo, split) = (curves[0].series(view), curves[1].series(view));
    chart.draw_series(LineSeries::new(colo.clone(), style.stroke(colors[0], 3.0)))?;
    draw_dashed(&mut chart, split.clone(), colors[1], style)?;
    let radius = style.px(3.5);
    chart.draw_series(colo.into_iter().map(|xy| Circle::new(xy, radius, colors[0].filled())))?;
    let half = style.px(3.5) as i32;
    chart.draw_series(split.into_iter().map(|xy| {
        EmptyElement::at(xy) + Rectangle::new([(-half, -half), (half, half)], colors[1].filled())
    }))?;
    let x = |c: &PlacementCurve<'_>| c.per_gpu(c.sweep.goodput_req_per_s);
    for (k, c) in curves.iter().enumerate() {
        // The lower goodput's label goes on its line's left, the higher's on its right, apart.
        let left = x(c) < x(&curves[1 - k]) || x(c) > 0.75 * x_max;
        mark_per_gpu(&mut chart, c, (0.5 * target_pct - 14.0 * k as f64, left, colors[k]), style)?;
    }
    let frame = ChartFrame::of(&chart);
    root.present()?;
    Ok(frame)
}

/// The swept point of `curve` nearest `rate_per_gpu` (requests/s per GPU): its rate per GPU and the
/// share meeting both targets; `None` for an empty sweep.
pub fn nearest_point(
    curve: &PlacementCurve<'_>,
    view: &AttainmentView,
    rate_per_gpu: f64,
) -> Option<(f64, f64)> {
    curve
        .series(view)
        .into_iter()
        .min_by(|a, b| (a.0 - rate_per_gpu).abs().total_cmp(&(b.0 - rate_per_gpu).abs()))
}

/// One placement's goodput per GPU as a vertical marker labelled at `label_y`, on the line's left
/// when `left`; nothing when no rate met the target.
fn mark_per_gpu<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    curve: &PlacementCurve<'_>,
    (label_y, left, color): (f64, bool, RGBColor),
    style: &ChartStyle,
) -> DrawResult<DB> {
    let Some(label) = curve.goodput_label() else { return Ok(()) };
    let x = curve.per_gpu(curve.sweep.goodput_req_per_s);
    vertical_marker_on(chart, x, (label_y.max(2.0), left), &label, color, style)
}
