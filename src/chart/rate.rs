//! Chart 1: requests/s against batch size, throughput and goodput on the same axes, with the knee
//! and the KV-pool limit marked; in realistic mode the ideal roofline's throughput and goodput too.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::batch_draw::BatchDraw;
use super::frame::{mark_batch_line, ChartFrame, FrameResult};
use super::{
    axis_top, band_label, batch_axes, batch_series as series, draw_band, draw_dashed, legend_and_plot,
    mark_knee, pool_shade_legend, LegendItem,
};

/// Draws throughput and goodput (requests/s per replica) against batch onto `root`, solid, and in
/// realistic mode (when `curves.ideal_points` is not empty) the ideal roofline's pair dashed.
/// (The one entry point is [`super::batch::draw`].)
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    what: &BatchDraw<'_>,
) -> FrameResult<DB> {
    let BatchDraw { curves, style, mark, held, .. } = *what;
    let p = style.palette;
    let realistic = !curves.ideal_points.is_empty();
    let mut legend = vec![
        LegendItem::solid("Throughput (req/s)", p.throughput),
        LegendItem::solid("Goodput (req/s meeting TPOT and TTFT)", p.goodput),
    ];
    if let Some(r) = curves.range {
        legend.push(LegendItem::solid(band_label(r.coverage.word()), p.throughput));
    }
    if realistic {
        legend.push(LegendItem::dashed("Ideal throughput", p.throughput));
        legend.push(LegendItem::dashed("Ideal goodput", p.goodput));
    }
    legend.extend(pool_shade_legend(curves, style));
    let plot = legend_and_plot(root, &legend, style)?;
    let all_points = curves.points.iter().chain(&curves.ideal_points);
    let band_top =
        curves.range.iter().flat_map(|r| curves.points.iter().map(|pt| r.rate(pt.throughput_req_per_s).1));
    let y_max = held.y_or(axis_top(all_points.map(|pt| pt.throughput_req_per_s).chain(band_top)));
    let mut chart = batch_axes(&plot, curves, (y_max, None), "Requests/s", style)?;
    if !style.layer.has_over() {
        return Ok(ChartFrame::of(&chart));
    }
    if realistic {
        let ideal = &curves.ideal_points;
        draw_dashed(&mut chart, series(ideal, |pt| pt.throughput_req_per_s), p.throughput, style)?;
        draw_dashed(&mut chart, series(ideal, |pt| pt.goodput_req_per_s), p.goodput, style)?;
    }
    if let Some(r) = curves.range {
        draw_band(&mut chart, &curves.points, |pt| r.rate(pt.throughput_req_per_s), p.throughput)?;
    }
    let throughput = series(&curves.points, |pt| pt.throughput_req_per_s);
    chart.draw_series(LineSeries::new(throughput, style.stroke(p.throughput, 2.5)))?;
    let goodput = series(&curves.points, |pt| pt.goodput_req_per_s);
    chart.draw_series(LineSeries::new(goodput, style.stroke(p.goodput, 3.5)))?;
    mark_knee(&mut chart, curves, y_max, style)?;
    mark_batch_line(&mut chart, mark.map(|pt| pt.batch), style)?;
    root.present()?;
    Ok(ChartFrame::of(&chart))
}
