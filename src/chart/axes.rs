//! The axes the charts share: batch and rate axes, grids, tick labels and axis ends, the KV pool's
//! shading.

use super::legend::LegendItem;
use super::{vertical_marker, ChartStyle, DrawResult, XyChart};
use crate::core::curves::Curves;
use crate::core::sim::{LoadMode, Sweep};
use crate::view::format::thousands;
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
    crate::view::format::fixed(value, decimals)
}

/// The axes both batch-axis charts share: batch from 0 to the curves' axis end, `y_desc` from 0 to
/// `y_max`, grid and tick labels, with the batches past the KV pool shaded. `line_y` is a
/// horizontal line labelled at its right end (the step chart's TPOT target) that the pool's label
/// keeps clear of ([`label_spots`]).
pub fn batch_axes<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    curves: &Curves,
    (y_max, line_y): (f64, Option<f64>),
    y_desc: &str,
    style: &ChartStyle,
) -> Result<XyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let x_max = f64::from(curves.axis_max_batch.max(1));
    let mut chart = xy_axes(plot, (x_max, y_max), ("Batch size (running sequences)", y_desc), style)?;
    if style.layer.has_over() {
        let spots = label_spots(y_max, line_y, label_height(&chart, style));
        shade_past_pool(&mut chart, curves, (x_max, y_max), spots.pool_top_y, style)?;
    }
    Ok(chart)
}

/// A marker label's height on `chart`'s y axis (its text and 4 px either side), in y units.
pub fn label_height<DB: DrawingBackend>(chart: &XyChart<'_, DB>, style: &ChartStyle) -> f64 {
    let plot_px = chart.plotting_area().get_pixel_range().1.len().max(1) as f64;
    let text_px = chart.plotting_area().estimate_text_size("Ag", &style.font(13.0)).map_or(16, |(_, h)| h);
    let y = chart.y_range();
    (f64::from(text_px) + f64::from(style.px(8.0))) / plot_px * (y.end - y.start)
}

/// Where a batch chart's marker labels go, so none lands on another: the knee's hangs from the top
/// of the plot; a horizontal line's (the TPOT target's, at the plot's right end) sits above the
/// line, or below it when the knee's label leaves no room above; the KV pool's top is 55% up the
/// axis, else 30% or 80%, the first of them clear of both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelSpots {
    pub line_label_below: bool,
    pub pool_top_y: f64,
}

/// [`LabelSpots`] for an axis to `y_max`, a line at `line_y` and labels `label_h` tall (y units).
/// Spans are compared on the y axis alone, so a label may move when it did not need to, never the
/// other way.
pub fn label_spots(y_max: f64, line_y: Option<f64>, label_h: f64) -> LabelSpots {
    let knee = (y_max - label_h, y_max);
    let below = line_y.is_some_and(|y| y + label_h > knee.0);
    let line = line_y.map(|y| if below { (y - label_h, y) } else { (y, y + label_h) });
    let meets = |a: (f64, f64), b: (f64, f64)| a.0 < b.1 && b.0 < a.1;
    let clear = |top: f64| {
        let span = (top - label_h, top);
        !meets(span, knee) && line.is_none_or(|l| !meets(span, l))
    };
    let tops = [0.55, 0.3, 0.8].map(|f| f * y_max);
    let pool_top_y = tops.into_iter().find(|&t| clear(t)).unwrap_or(0.55 * y_max);
    LabelSpots { line_label_below: below, pool_top_y }
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
    let fit = LabelFit::of(plot, (x_max, y_max), y_label, style);
    let mut chart = ChartBuilder::on(plot)
        .margin(style.px(MARGIN_CSS_PX))
        .margin_top(style.px(4.0))
        .x_label_area_size(style.px(X_LABEL_AREA_CSS_PX))
        .y_label_area_size(fit.y_area_px)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    if !style.layer.has_under() {
        return Ok(chart);
    }
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(style.font(AXIS_DESC_CSS_PX))
        .label_style(style.font(TICK_CSS_PX))
        .x_labels(fit.x_labels)
        .y_labels(fit.y_labels)
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
    shaded.then(|| LegendItem::solid("Shaded: past the KV pool", style.palette.pool))
}

/// Tick labels' and axis titles' sizes, the outer margin and the x label area, in CSS pixels.
const TICK_CSS_PX: f64 = 13.0;
const AXIS_DESC_CSS_PX: f64 = 15.0;
const MARGIN_CSS_PX: f64 = 12.0;
const X_LABEL_AREA_CSS_PX: f64 = 48.0;
/// The y label area's least width: wide enough for short tick labels beside the axis title.
const Y_LABEL_AREA_MIN_CSS_PX: f64 = 64.0;

/// How the axes' text fits the plot: the y label area wide enough for the widest tick label beside
/// the axis title, and as many ticks per axis as leave a gap between neighbouring labels (at most
/// plotters' 10), so labels never collide on a phone or in a presentation's large type.
struct LabelFit {
    y_area_px: u32,
    x_labels: usize,
    y_labels: usize,
}

impl LabelFit {
    fn of<DB: DrawingBackend>(
        plot: &DrawingArea<DB, Shift>,
        (x_max, y_max): (f64, f64),
        y_label: &dyn Fn(&f64) -> String,
        style: &ChartStyle,
    ) -> LabelFit {
        let size =
            |text: &str, css_px: f64| plot.estimate_text_size(text, &style.font(css_px)).unwrap_or((0, 0));
        // The top tick's label is as wide as any: ticks are round values up to the axis end.
        let y_widest =
            [y_label(&y_max), y_label(&(y_max * 0.9))].iter().map(|t| size(t, TICK_CSS_PX).0).max();
        let (_, desc_h) = size("Ag", AXIS_DESC_CSS_PX);
        let y_area_px =
            (y_widest.unwrap_or(0) + desc_h + style.px(16.0)).max(style.px(Y_LABEL_AREA_MIN_CSS_PX));
        let (x_widest, tick_h) = size(&tick_label(x_max, x_max), TICK_CSS_PX);
        let (w, h) = plot.dim_in_pixel();
        let margins = 2 * style.px(MARGIN_CSS_PX);
        let plot_w = w.saturating_sub(y_area_px + margins);
        let plot_h = h.saturating_sub(style.px(X_LABEL_AREA_CSS_PX) + margins);
        let count = |room: u32, each: u32| ((room / each.max(1)) as usize).clamp(2, 10);
        LabelFit {
            y_area_px,
            x_labels: count(plot_w, x_widest + style.px(16.0)),
            y_labels: count(plot_h, (tick_h * 8 / 5).max(1)),
        }
    }
}

/// Greys out the batches past the KV pool (they cannot run) and labels the pool's edge.
fn shade_past_pool<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    curves: &Curves,
    (x_max, y_max): (f64, f64),
    label_y: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let pool = f64::from(curves.kv_pool_batch);
    if pool >= x_max {
        return Ok(());
    }
    let shade = Rectangle::new([(pool, 0.0), (x_max, y_max)], style.palette.pool.mix(0.12).filled());
    chart.draw_series(std::iter::once(shade))?;
    let label = format!("KV pool {}", thousands(pool));
    vertical_marker(chart, pool, label_y, &label, style.palette.pool, style)
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
