//! Chart 2: step time against batch size: the memory term, the compute term, the total step time
//! when all-reduce or overhead add to them, the ideal step time in realistic mode, the TPOT target,
//! measured step times (ring markers) with their fitted line (dashed) when given, and published
//! measurements of the configuration (triangles).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::batch_draw::BatchDraw;
use super::frame::{mark_batch_line, ChartFrame, FrameResult};
use super::references;
use super::{
    axis_top, band_label, batch_axes, batch_series as series, draw_band, draw_dashed, label_height,
    label_spots, legend_and_plot, mark_knee, pool_shade_legend, ChartStyle, DrawResult, LegendItem, XyChart,
    MARKER_CSS_PX,
};
use crate::core::curves::Curves;
use crate::core::fit::YourPointsOverlay;
use crate::core::goodput::BatchPoint;
use crate::core::units::s_to_ms;
use crate::view::format::target_ms;

/// Draws the roofline terms of the step time (ms) against batch onto `root`, plus the total
/// step = max(memory, compute) + all-reduce + overhead (ms) when it differs from the larger term,
/// and in realistic mode the ideal roofline's step time dashed.
/// (The one entry point is [`super::batch::draw`].)
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    what: &BatchDraw<'_>,
) -> FrameResult<DB> {
    let BatchDraw { curves, style, mark, held, .. } = *what;
    let p = style.palette;
    let with_total = adds_to_roofline(&curves.points);
    let plot = legend_and_plot(root, &legend(curves, with_total, style), style)?;
    let terms = curves.points.iter().flat_map(|pt| [pt.step.memory_s, pt.step.compute_s, pt.step.step_s]);
    let ideal = curves.ideal_points.iter().map(|pt| pt.step.step_s);
    let measured = curves.your_points.iter().flat_map(measured_values);
    let published = curves.references.iter().filter(|r| r.batch <= curves.axis_max_batch).map(|r| r.tpot_s);
    let band_top =
        curves.range.iter().flat_map(|r| curves.points.iter().map(|pt| r.time_s(pt.step.step_s).1));
    let y_max = held.y_or(axis_top(
        terms
            .chain(band_top)
            .chain(ideal)
            .chain(measured)
            .chain(published)
            .chain(std::iter::once(curves.tpot_target_s))
            .map(s_to_ms),
    ));
    let mut chart =
        batch_axes(&plot, curves, (y_max, Some(s_to_ms(curves.tpot_target_s))), "Step time (ms)", style)?;
    if !style.layer.has_over() {
        return Ok(ChartFrame::of(&chart));
    }
    if !curves.ideal_points.is_empty() {
        let ideal_step = series(&curves.ideal_points, |pt| s_to_ms(pt.step.step_s));
        draw_dashed(&mut chart, ideal_step, p.step_total, style)?;
    }
    if let Some(r) = curves.range {
        let bounds =
            |pt: &BatchPoint| (s_to_ms(r.time_s(pt.step.step_s).0), s_to_ms(r.time_s(pt.step.step_s).1));
        draw_band(&mut chart, &curves.points, bounds, p.step_total)?;
    }
    let memory = series(&curves.points, |pt| s_to_ms(pt.step.memory_s));
    chart.draw_series(LineSeries::new(memory, style.stroke(p.memory, 3.0)))?;
    let compute = series(&curves.points, |pt| s_to_ms(pt.step.compute_s));
    chart.draw_series(LineSeries::new(compute, style.stroke(p.compute, 3.0)))?;
    if with_total {
        let total = series(&curves.points, |pt| s_to_ms(pt.step.step_s));
        chart.draw_series(LineSeries::new(total, style.stroke(p.step_total, 2.5)))?;
    }
    draw_target(&mut chart, curves.tpot_target_s, style)?;
    mark_knee(&mut chart, curves, y_max, style)?;
    if let Some(m) = &curves.your_points {
        draw_measured(&mut chart, m, style)?;
    }
    references::draw_triangles(&mut chart, &references::step_coords(&curves.references), style)?;
    mark_batch_line(&mut chart, mark.map(|pt| pt.batch), style)?;
    root.present()?;
    Ok(ChartFrame::of(&chart))
}

/// Every measured TPOT and fitted step time, in s, for the y axis to reach.
fn measured_values(m: &YourPointsOverlay) -> impl Iterator<Item = f64> + '_ {
    m.points.iter().map(|p| p.tpot_s).chain(m.fitted.iter().map(|(_, step_s)| *step_s))
}

/// The fitted line dashed, then each measured point as a ring, in the text colour (data, not model).
fn draw_measured<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    m: &YourPointsOverlay,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let color = style.palette.text;
    if !m.fitted.is_empty() {
        let line = m.fitted.iter().map(|&(b, step_s)| (f64::from(b), s_to_ms(step_s))).collect();
        draw_dashed(chart, line, color, style)?;
    }
    let x_max = chart.x_range().end;
    let rings = m
        .points
        .iter()
        .map(|p| (f64::from(p.batch), s_to_ms(p.tpot_s)))
        .filter(|&(b, _)| b <= x_max)
        .map(|at| Circle::new(at, style.px(MARKER_CSS_PX), style.stroke(color, 2.0)));
    chart.draw_series(rings)?;
    Ok(())
}

/// Whether all-reduce or overhead make some step longer than max(memory, compute) (TP > 1 or a
/// realistic calibration), so the total needs its own line.
fn adds_to_roofline(points: &[BatchPoint]) -> bool {
    points.iter().any(|pt| pt.step.allreduce_s + pt.step.fixed_s > 0.0 || speculative(pt))
}

/// With speculative decoding the step drawn is the time per output token, (draft + verify) / E,
/// and the two terms are the verify step's over E.
fn speculative(pt: &BatchPoint) -> bool {
    pt.step.speculative.is_some()
}

/// The step chart's legend: both terms, then the total and the ideal step time when drawn.
fn legend<'a>(curves: &Curves, with_total: bool, style: &ChartStyle) -> Vec<LegendItem<'a>> {
    let p = style.palette;
    let mut items = vec![
        LegendItem::solid("Memory term (weights + KV reads)", p.memory),
        LegendItem::solid("Compute term (FLOPs)", p.compute),
    ];
    if with_total && curves.points.first().is_some_and(speculative) {
        items.push(LegendItem::solid("Time per output token (draft + verify) / E", p.step_total));
    } else if with_total {
        items.push(LegendItem::solid("Step time (total)", p.step_total));
    }
    if let Some(r) = curves.range {
        items.push(LegendItem::solid(band_label(r.coverage.word()), p.step_total));
    }
    if !curves.ideal_points.is_empty() {
        items.push(LegendItem::dashed("Ideal step time", p.step_total));
    }
    if !curves.references.is_empty() {
        items.push(LegendItem::triangle(references::LEGEND_LABEL, p.text));
    }
    if let Some(m) = &curves.your_points {
        items.push(LegendItem::marker("Your TPOT", p.text));
        if !m.fitted.is_empty() {
            items.push(LegendItem::dashed("Fit to your points", p.text));
        }
    }
    items.extend(pool_shade_legend(curves, style));
    items
}

/// The horizontal TPOT target line, labelled at its right end: above the line, or below it near the
/// top of the plot, where the knee's label hangs ([`label_spots`]).
fn draw_target<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    target_s: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let x_max = chart.x_range().end;
    let target_ms_value = s_to_ms(target_s);
    let color = style.palette.target;
    let line =
        PathElement::new(vec![(0.0, target_ms_value), (x_max, target_ms_value)], style.stroke(color, 2.0));
    chart.draw_series(std::iter::once(line))?;
    let y_max = chart.y_range().end;
    let below = label_spots(y_max, Some(target_ms_value), label_height(chart, style)).line_label_below;
    let (vpos, dy) =
        if below { (VPos::Top, style.px(4.0) as i32) } else { (VPos::Bottom, -(style.px(4.0) as i32)) };
    let font = style.font(13.0).color(&color).pos(Pos::new(HPos::Right, vpos));
    let offset = (-(style.px(6.0) as i32), dy);
    let label = format!("TPOT target {} ms", target_ms(target_s));
    let text = EmptyElement::at((x_max, target_ms_value)) + Text::new(label, offset, font);
    chart.draw_series(std::iter::once(text))?;
    Ok(())
}
