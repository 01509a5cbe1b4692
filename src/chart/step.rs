//! Chart 2: step time against batch size: the memory term, the compute term and the TPOT target.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{axis_top, batch_axes, legend_and_plot, mark_knee, BatchChart, ChartStyle, DrawResult};
use crate::core::curves::Curves;
use crate::core::units::s_to_ms;
use crate::format::target_ms;

/// Draws the two roofline terms of the step time (ms) against batch onto `root`.
pub fn draw_step_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &Curves,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    let plot = legend_and_plot(
        root,
        &[("Memory term (weights + KV reads)", p.memory), ("Compute term (FLOPs)", p.compute)],
        style,
    )?;
    let target = s_to_ms(curves.tpot_target_s);
    let terms = curves.points.iter().flat_map(|pt| [s_to_ms(pt.step.memory_s), s_to_ms(pt.step.compute_s)]);
    let y_max = axis_top(terms.chain(std::iter::once(target)));
    let mut chart = batch_axes(&plot, curves, y_max, "Step time (ms)", style)?;
    let memory = curves.points.iter().map(|pt| (f64::from(pt.batch), s_to_ms(pt.step.memory_s)));
    chart.draw_series(LineSeries::new(memory, style.stroke(p.memory, 3.0)))?;
    let compute = curves.points.iter().map(|pt| (f64::from(pt.batch), s_to_ms(pt.step.compute_s)));
    chart.draw_series(LineSeries::new(compute, style.stroke(p.compute, 3.0)))?;
    draw_target(&mut chart, curves.tpot_target_s, style)?;
    mark_knee(&mut chart, curves, y_max, style)?;
    root.present()?;
    Ok(())
}

/// The horizontal TPOT target line, labelled at its right end.
fn draw_target<DB: DrawingBackend>(
    chart: &mut BatchChart<'_, DB>,
    target_s: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let x_max = chart.x_range().end;
    let target_ms_value = s_to_ms(target_s);
    let color = style.palette.target;
    let line =
        PathElement::new(vec![(0.0, target_ms_value), (x_max, target_ms_value)], style.stroke(color, 2.0));
    chart.draw_series(std::iter::once(line))?;
    let font = style.font(13.0).color(&color).pos(Pos::new(HPos::Right, VPos::Bottom));
    let offset = (-(style.px(6.0) as i32), -(style.px(4.0) as i32));
    let label = format!("TPOT target {} ms", target_ms(target_s));
    let text = EmptyElement::at((x_max, target_ms_value)) + Text::new(label, offset, font);
    chart.draw_series(std::iter::once(text))?;
    Ok(())
}
