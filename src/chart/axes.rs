//! The axes the charts share: batch and rate axes, grids, tick labels and axis ends, the KV pool's
//! shading.

use super::legend::LegendItem;
use super::{vertical_marker, BatchChart, ChartStyle, DrawResult, XyChart};
use crate::core::curves::Curves;
use crate::core::sim::{LoadMode, Sweep};
use crate::format::thousands;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Tick labels with as many decimals as the axis range needs (`40`, `2.5`, `0.25`).
pub fn tick_label(value: f64, axis_max: f64) -> String {
    let decimals = if axis_max >= 20.0 {
        0
    } else if axis_max >= 2.0 {
        1
    } else {
        2
    };
    crate::format::fixed(value, decimals)
}

/// The axes both batch-axis charts share: batch from 0 to the curves' axis end, `y_desc` from 0 to
/// `y_max`, grid and tick labels, with the batches past the KV pool shaded.
pub fn batch_axes<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    curves: &Curves,
    y_max: f64,
    y_desc: &str,
    style: &ChartStyle,
) -> Result<BatchChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let x_max = f64::from(curves.axis_max_batch.max(1));
    let mut chart = xy_axes(plot, (x_max, y_max), ("Batch size (running sequences)", y_desc), style)?;
    shade_past_pool(&mut chart, curves, x_max, y_max, style)?;
    Ok(chart)
}

/// Axes from 0 to `x_max` and 0 to `y_max`, described by `(x_desc, y_desc)`, with the grid and tick
/// labels every chart shares.
pub fn xy_axes<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    (x_max, y_max): (f64, f64),
    descs: (&str, &str),
    style: &ChartStyle,
) -> Result<XyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    xy_axes_labelled(plot, (x_max, y_max), descs, &|y| tick_label(*y, y_max), style)
}

/// [`xy_axes`] with the y tick labels written by `y_label` (percentages, say).
pub fn xy_axes_labelled<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    (x_max, y_max): (f64, f64),
    (x_desc, y_desc): (&str, &str),
    y_label: &dyn Fn(&f64) -> String,
    style: &ChartStyle,
) -> Result<XyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let p = style.palette;
    let mut chart = ChartBuilder::on(plot)
        .margin(style.px(12.0))
        .margin_top(style.px(4.0))
        .x_label_area_size(style.px(48.0))
        .y_label_area_size(style.px(64.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(style.font(15.0))
        .label_style(style.font(13.0))
        .light_line_style(p.grid.mix(0.4))
        .bold_line_style(p.grid)
        .axis_style(p.text)
        .x_label_formatter(&|x| tick_label(*x, x_max))
        .y_label_formatter(y_label)
        .draw()?;
    Ok(chart)
}

/// What the shading past the KV pool means, for the legend of a chart on [`batch_axes`]; `None`
/// when the pool lies at or past the axis's end (nothing is shaded).
pub fn pool_shade_legend<'a>(curves: &Curves, style: &ChartStyle) -> Option<LegendItem<'a>> {
    let shaded = curves.kv_pool_batch < curves.axis_max_batch.max(1);
    shaded.then(|| LegendItem::solid("Shaded: past the KV pool, no batch runs", style.palette.pool))
}

/// Greys out the batches past the KV pool (they cannot run) and labels the pool's edge.
fn shade_past_pool<DB: DrawingBackend>(
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
    vertical_marker(chart, pool, y_max * 0.55, &label, style.palette.pool, style)
}

/// 1.1 x the largest finite value, or 1 when there is none, so an axis never collapses.
pub fn axis_top(values: impl Iterator<Item = f64>) -> f64 {
    let top = values.filter(|v| v.is_finite()).fold(0.0_f64, f64::max);
    if top > 0.0 {
        top * 1.1
    } else {
        1.0
    }
}

/// The end of a sweep chart's rate axis: 1.1 x the highest rate swept or the goodput, so the
/// attainment and throughput charts share it and read side by side.
pub fn sweep_rate_max(sweep: &Sweep) -> f64 {
    let rates = sweep.points.iter().map(|pt| pt.rate_req_per_s);
    axis_top(rates.chain(std::iter::once(sweep.goodput_req_per_s)))
}

/// What a sweep chart's rate axis shows: the rate offered (open load) or achieved (closed load).
pub fn sweep_rate_desc(load: LoadMode) -> &'static str {
    match load {
        LoadMode::Open => "Offered requests/s",
        LoadMode::Closed => "Achieved requests/s (closed loop)",
    }
}
