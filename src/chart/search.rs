//! The configuration search's chart: tokens/s per GPU against tokens/s per user, one point per
//! shown configuration coloured by placement, the Pareto frontier of those points as a line, the
//! TPOT target as a vertical line at 1 / TPOT (its value in the legend), each frontier point named by
//! its parallelism (`TP1 EP32 DP32`), and the hovered point ringed.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::frame::{ChartFrame, FrameResult};
use super::{axis_top, legend_and_plot, xy_axes, ChartStyle, LegendItem};
use crate::view::format::{target_ms, thousands};
use crate::view::search_chart::{SearchChartData, SearchPoint};

/// The most frontier points labelled with their parallelism.
const FRONTIER_LABELS_MAX: usize = 12;

/// A legend entry's left inset, swatch and gaps around its label, in CSS pixels (`legend.rs`).
const LEGEND_ENTRY_CSS_PX: f64 = 56.0 + 22.0 + 4.0 + 16.0;

/// Draws the search chart onto `root`; returns where the plot landed (to map the pointer back).
pub fn draw_search_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &SearchChartData,
    style: &ChartStyle,
) -> FrameResult<DB> {
    let p = style.palette;
    let target_x = 1.0 / data.tpot_target_s;
    let target_x = (target_x.is_finite() && target_x > 0.0).then_some(target_x);
    // The target's value is said in the legend, never beside its line: the frontier starts at the
    // line's top, where a label would cross it. Its speed per user only where the legend has room.
    let short = format!("TPOT target {} ms", target_ms(data.tpot_target_s));
    let full = target_x.map(|x| format!("{short} = {} tokens/s/user", thousands(x)));
    let room = root.dim_in_pixel().0.saturating_sub(style.px(LEGEND_ENTRY_CSS_PX));
    let fits = |t: &String| root.estimate_text_size(t, &style.font(13.0)).is_ok_and(|(w, _)| w < room);
    let target_label = full.filter(fits).unwrap_or(short);
    let legend = [
        LegendItem::marker("Colocated (chunked)", p.throughput),
        LegendItem::marker("Disaggregated", p.compute),
        LegendItem::solid("Pareto frontier", p.goodput),
        LegendItem::solid(&target_label, p.target),
    ];
    let plot = legend_and_plot(root, &legend, style)?;
    let x_max = axis_top(data.points.iter().map(|pt| pt.tokens_per_s_per_user).chain(target_x));
    let y_max = axis_top(data.points.iter().map(|pt| pt.tokens_per_s_per_gpu));
    let descs = ("Tokens/s per user (1 / TPOT)", "Tokens/s per GPU");
    let mut chart = xy_axes(&plot, (x_max, y_max), descs, style)?;
    let xy = |pt: &SearchPoint| (pt.tokens_per_s_per_user, pt.tokens_per_s_per_gpu);
    let radius = style.px(3.0);
    chart.draw_series(data.points.iter().map(|pt| {
        let color = if pt.disaggregated { p.compute } else { p.throughput };
        Circle::new(xy(pt), radius, color.mix(0.7).filled())
    }))?;
    let line: Vec<(f64, f64)> = data.frontier.iter().filter_map(|&i| data.points.get(i)).map(xy).collect();
    chart.draw_series(LineSeries::new(line, style.stroke(p.goodput, 2.0)))?;
    if let Some(x) = target_x {
        let line = PathElement::new(vec![(x, 0.0), (x, y_max)], style.stroke(p.target, 1.5));
        chart.draw_series(std::iter::once(line))?;
    }
    // Each frontier point names its parallelism (at most FRONTIER_LABELS_MAX, else the hovered one alone).
    let font = style.font(11.0).color(&p.text);
    let named = if data.frontier.len() <= FRONTIER_LABELS_MAX { &data.frontier[..] } else { &[] };
    let label = |i: usize| Some((data.points.get(i)?, data.labels.get(i)?));
    let offset = (style.px(6.0) as i32, -(style.px(14.0) as i32));
    chart.draw_series(
        named
            .iter()
            .filter_map(|&i| label(i))
            .map(|(pt, text)| EmptyElement::at(xy(pt)) + Text::new(text.clone(), offset, font.clone())),
    )?;
    if let Some(pt) = data.hovered.and_then(|i| data.points.get(i)) {
        chart.draw_series(std::iter::once(Circle::new(xy(pt), style.px(7.0), style.stroke(p.text, 2.5))))?;
    }
    root.present()?;
    Ok(ChartFrame::of(&chart))
}

/// The index of the point nearest pixel `(x, y)` of `frame`'s backend within `radius_px`, if any.
pub fn point_at(
    data: &SearchChartData,
    frame: &ChartFrame,
    (x, y): (f64, f64),
    radius_px: f64,
) -> Option<usize> {
    let distance = |pt: &SearchPoint| {
        let dx = f64::from(frame.x_to_px(pt.tokens_per_s_per_user)) - x;
        let dy = f64::from(frame.y_to_px(pt.tokens_per_s_per_gpu)) - y;
        dx.hypot(dy)
    };
    data.points
        .iter()
        .enumerate()
        .map(|(i, pt)| (i, distance(pt)))
        .filter(|(_, d)| *d <= radius_px)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}
