//! Chart 3: the interactivity trade-off: tokens/s per GPU against tokens/s per user (1 / TPOT), one
//! point per batch that fits the KV pool, with the TPOT target, the knee and, in realistic mode, the
//! ideal roofline's curve, and published measurements of the configuration (triangles).

mod labels;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::batch_draw::BatchDraw;
use super::frame::{mark_point_ring, ChartFrame, FrameResult};
use super::references;
use super::{axis_top, draw_dashed, legend_and_plot, xy_axes, ChartStyle, DrawResult, LegendItem, XyChart};
use crate::core::goodput::BatchPoint;
use crate::view::format::{target_ms, thousands};
use labels::{label_points, place_label, Clutter, Label, TARGET_PLACEMENTS};

/// Draws tokens/s per GPU against tokens/s per user for the ladder of batches that fit the KV pool
/// (powers of two, the knee and the pool) onto `root`: a line with a marker per batch, coloured by whether it meets the TPOT target, the
/// target as a vertical line at 1 / TPOT, the knee and a few batches labelled.
/// (The one entry point is [`super::batch::draw`].)
pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    what: &BatchDraw<'_>,
) -> FrameResult<DB> {
    let BatchDraw { curves, style, mark, held, .. } = *what;
    let p = style.palette;
    let realistic = !curves.ideal_points.is_empty();
    let plot = legend_and_plot(root, &legend(realistic, !curves.references.is_empty(), style), style)?;
    let published = references::speed_coords(&curves.references);
    let (fitting, ideal) = (curves.ladder.as_slice(), curves.ideal_ladder.as_slice());
    let target_x = target_tokens_per_s_per_user(curves.tpot_target_s);
    let plotted = || fitting.iter().chain(ideal);
    let x_max = held.x_or(axis_top(
        plotted().map(|pt| pt.tokens_per_s_per_user).chain(target_x).chain(published.iter().map(|p| p.0)),
    ));
    let y_max =
        held.y_or(axis_top(plotted().map(|pt| pt.tokens_per_s_per_gpu).chain(published.iter().map(|p| p.1))));
    let descs = ("Tokens/s per user (1 / TPOT)", "Tokens/s per GPU");
    let mut chart = xy_axes(&plot, (x_max, y_max), descs, style)?;
    if !style.layer.has_over() {
        return Ok(ChartFrame::of(&chart));
    }
    let on_plot = |points: &[BatchPoint]| speeds(points).iter().map(|xy| chart.backend_coord(xy)).collect();
    let mut clutter = Clutter { boxes: Vec::new(), paths: vec![on_plot(fitting), on_plot(ideal)] };
    if let Some(x) = target_x {
        draw_target(&mut chart, x, curves.tpot_target_s, style, &mut clutter)?;
    }
    if fitting.is_empty() {
        draw_nothing_fits(&mut chart, style)?;
    } else {
        if realistic {
            draw_dashed(&mut chart, speeds(ideal), p.throughput, style)?;
        }
        chart.draw_series(LineSeries::new(speeds(fitting), style.stroke(p.throughput, 2.0)))?;
        draw_markers(&mut chart, fitting, style)?;
        label_points(&mut chart, curves, fitting, style, &mut clutter)?;
    }
    references::draw_triangles(&mut chart, &published, style)?;
    let ring = mark.map(|pt| (pt.batch, (pt.tokens_per_s_per_user, pt.tokens_per_s_per_gpu)));
    mark_point_ring(&mut chart, ring, style)?;
    root.present()?;
    Ok(ChartFrame::of(&chart))
}

/// The chart's legend: the curve, the marker colours and, in realistic mode, the ideal curve.
fn legend<'a>(realistic: bool, published: bool, style: &ChartStyle) -> Vec<LegendItem<'a>> {
    let p = style.palette;
    let mut items = vec![
        LegendItem::solid("Batch sizes in the KV pool", p.throughput),
        LegendItem::solid("Meets TPOT", p.goodput),
        LegendItem::solid("Misses TPOT", p.target),
    ];
    if realistic {
        items.push(LegendItem::dashed("Ideal roofline", p.throughput));
    }
    if published {
        items.push(LegendItem::triangle(references::LEGEND_LABEL, p.text));
    }
    items
}

/// The per-user speed the target asks for: 1 / tpot_target_s, in tokens/s per user; `None` when that
/// is not a finite positive number.
fn target_tokens_per_s_per_user(tpot_target_s: f64) -> Option<f64> {
    let speed = 1.0 / tpot_target_s;
    (speed.is_finite() && speed > 0.0).then_some(speed)
}

/// (tokens/s per user, tokens/s per GPU) for every point.
fn speeds(points: &[BatchPoint]) -> Vec<(f64, f64)> {
    points.iter().map(|pt| (pt.tokens_per_s_per_user, pt.tokens_per_s_per_gpu)).collect()
}

/// The TPOT target as a vertical line at `x` tokens/s per user, labelled at its top (with its speed
/// per user where the plot is wide enough).
fn draw_target<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    x: f64,
    tpot_target_s: f64,
    style: &ChartStyle,
    clutter: &mut Clutter,
) -> DrawResult<DB> {
    let color = style.palette.target;
    let y_max = chart.y_range().end;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x, 0.0), (x, y_max)],
        style.stroke(color, 2.0),
    )))?;
    let full = format!("TPOT target {} ms = {} tokens/s/user", target_ms(tpot_target_s), thousands(x));
    // A phone's plot is narrower than the whole sentence: then the target alone, kept inside it.
    let plot_w = chart.plotting_area().get_pixel_range().0.len() as u32;
    let fits =
        chart.plotting_area().estimate_text_size(&full, &style.font(13.0)).is_ok_and(|(w, _)| w < plot_w);
    let text = if fits { full } else { format!("TPOT target {} ms", target_ms(tpot_target_s)) };
    let label = Label { text, color, at: (x, y_max), placements: &TARGET_PLACEMENTS, force: true };
    place_label(chart, label, style, clutter)?;
    clutter.paths.push(vec![chart.backend_coord(&(x, 0.0)), chart.backend_coord(&(x, y_max))]);
    Ok(())
}

/// A marker per batch: in the goodput colour where it meets the TPOT target, else in the target's.
fn draw_markers<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    points: &[BatchPoint],
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    let radius = style.px(3.5);
    chart.draw_series(points.iter().map(|pt| {
        let color = if pt.meets_tpot { p.goodput } else { p.target };
        Circle::new((pt.tokens_per_s_per_user, pt.tokens_per_s_per_gpu), radius, color.filled())
    }))?;
    Ok(())
}

/// The empty chart's note, on two lines between the y axis and the target line (which then stands at
/// 1 / 1.1 of the axis): no batch fits the KV pool, so there is no point to draw.
fn draw_nothing_fits<DB: DrawingBackend>(chart: &mut XyChart<'_, DB>, style: &ChartStyle) -> DrawResult<DB> {
    let (x_max, y_max) = (chart.x_range().end, chart.y_range().end);
    let line_px = style.px(20.0) as i32;
    for (row, note) in ["Nothing fits:", "the KV pool holds no sequence"].into_iter().enumerate() {
        let font = style.font(14.0).pos(Pos::new(HPos::Center, VPos::Center));
        let text = Text::new(note, (0, row as i32 * line_px - line_px / 2), font);
        chart.draw_series(std::iter::once(EmptyElement::at((0.45 * x_max, 0.5 * y_max)) + text))?;
    }
    Ok(())
}
