//! Chart 1: requests/s against batch size, throughput and goodput on the same axes, with the knee
//! and the KV-pool limit marked.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_top, batch_axes, legend_and_plot, mark_knee, ChartStyle, DrawResult};
use crate::core::curves::Curves;

/// Draws throughput and goodput (requests/s) against batch onto `root`.
pub fn draw_rate_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &Curves,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    let plot = legend_and_plot(
        root,
        &[("Throughput (req/s)", p.throughput), ("Goodput (req/s meeting TPOT)", p.goodput)],
        style,
    )?;
    let y_max = axis_top(curves.points.iter().map(|pt| pt.throughput_req_per_s));
    let mut chart = batch_axes(&plot, curves, y_max, "Requests/s", style)?;
    let points = || curves.points.iter().map(|pt| (f64::from(pt.batch), pt.throughput_req_per_s));
    chart.draw_series(LineSeries::new(points(), style.stroke(p.throughput, 2.5)))?;
    let goodput = curves.points.iter().map(|pt| (f64::from(pt.batch), pt.goodput_req_per_s));
    chart.draw_series(LineSeries::new(goodput, style.stroke(p.goodput, 3.5)))?;
    mark_knee(&mut chart, curves, y_max, style)?;
    root.present()?;
    Ok(())
}
