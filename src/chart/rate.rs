//! Chart 1: requests/s against batch size, throughput and goodput on the same axes, with the knee
//! and the KV-pool limit marked.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{axis_top, draw_legend, tick_label, vertical_marker, BatchChart, ChartStyle, DrawResult};
use crate::core::curves::Curves;
use crate::format::thousands;

/// Draws throughput and goodput (requests/s) against batch onto `root`.
pub fn draw_rate_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &Curves,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    root.fill(&p.background)?;
    let (legend, plot) = root.split_vertically(style.px(30.0));
    draw_legend(
        &legend,
        &[("Throughput (req/s)", p.throughput), ("Goodput (req/s meeting TPOT)", p.goodput)],
        style,
    )?;
    let x_max = f64::from(curves.axis_max_batch.max(1));
    let y_max = axis_top(curves.points.iter().map(|pt| pt.throughput_req_per_s));
    let mut chart = ChartBuilder::on(&plot)
        .margin(style.px(12.0))
        .margin_top(style.px(4.0))
        .x_label_area_size(style.px(48.0))
        .y_label_area_size(style.px(64.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("Batch size (running sequences)")
        .y_desc("Requests/s")
        .axis_desc_style(style.font(15.0))
        .label_style(style.font(13.0))
        .light_line_style(p.grid.mix(0.4))
        .bold_line_style(p.grid)
        .axis_style(p.text)
        .x_label_formatter(&|x| tick_label(*x, x_max))
        .y_label_formatter(&|y| tick_label(*y, y_max))
        .draw()?;
    shade_past_pool(&mut chart, curves, x_max, y_max, style)?;
    let points = || curves.points.iter().map(|pt| (f64::from(pt.batch), pt.throughput_req_per_s));
    chart.draw_series(LineSeries::new(points(), style.stroke(p.throughput, 2.5)))?;
    let goodput = curves.points.iter().map(|pt| (f64::from(pt.batch), pt.goodput_req_per_s));
    chart.draw_series(LineSeries::new(goodput, style.stroke(p.goodput, 3.5)))?;
    if curves.knee_batch > 0 {
        let label = format!("knee {}", thousands(f64::from(curves.knee_batch)));
        vertical_marker(&mut chart, f64::from(curves.knee_batch), y_max, &label, p.knee, style)?;
    }
    root.present()?;
    Ok(())
}

/// Greys out the batches past the KV pool (they cannot run) and labels the pool's edge.
pub(super) fn shade_past_pool<DB: DrawingBackend>(
    chart: &mut BatchChart<'_, DB>,
    curves: &Curves,
    x_max: f64,
    y_max: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let pool = f64::from(curves.kv_pool_batch);
    if pool >= x_max {
        return Ok(());
    }
    let shade = Rectangle::new([(pool, 0.0), (x_max, y_max)], style.palette.pool.mix(0.12).filled());
    chart.draw_series(std::iter::once(shade))?;
    let label = format!("KV pool {}", thousands(pool));
    vertical_marker(chart, pool, y_max * 0.88, &label, style.palette.pool, style)
}
