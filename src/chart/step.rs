//! Chart 2: step time against batch size: the memory term, the compute term and the TPOT target.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::rate::shade_past_pool;
use super::{axis_top, draw_legend, tick_label, vertical_marker, BatchChart, ChartStyle, DrawResult};
use crate::core::curves::Curves;
use crate::core::units::s_to_ms;
use crate::format::{target_ms, thousands};

/// Draws the two roofline terms of the step time (ms) against batch onto `root`.
pub fn draw_step_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curves: &Curves,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    root.fill(&p.background)?;
    let (legend, plot) = root.split_vertically(style.px(30.0));
    draw_legend(
        &legend,
        &[("Memory term (weights + KV reads)", p.memory), ("Compute term (FLOPs)", p.compute)],
        style,
    )?;
    let x_max = f64::from(curves.axis_max_batch.max(1));
    let target = s_to_ms(curves.tpot_target_s);
    let terms = curves.points.iter().flat_map(|pt| [s_to_ms(pt.step.memory_s), s_to_ms(pt.step.compute_s)]);
    let y_max = axis_top(terms.chain(std::iter::once(target)));
    let mut chart = ChartBuilder::on(&plot)
        .margin(style.px(12.0))
        .margin_top(style.px(4.0))
        .x_label_area_size(style.px(48.0))
        .y_label_area_size(style.px(64.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("Batch size (running sequences)")
        .y_desc("Step time (ms)")
        .axis_desc_style(style.font(15.0))
        .label_style(style.font(13.0))
        .light_line_style(p.grid.mix(0.4))
        .bold_line_style(p.grid)
        .axis_style(p.text)
        .x_label_formatter(&|x| tick_label(*x, x_max))
        .y_label_formatter(&|y| tick_label(*y, y_max))
        .draw()?;
    shade_past_pool(&mut chart, curves, x_max, y_max, style)?;
    let memory = curves.points.iter().map(|pt| (f64::from(pt.batch), s_to_ms(pt.step.memory_s)));
    chart.draw_series(LineSeries::new(memory, style.stroke(p.memory, 3.0)))?;
    let compute = curves.points.iter().map(|pt| (f64::from(pt.batch), s_to_ms(pt.step.compute_s)));
    chart.draw_series(LineSeries::new(compute, style.stroke(p.compute, 3.0)))?;
    draw_target(&mut chart, curves.tpot_target_s, x_max, style)?;
    if curves.knee_batch > 0 {
        let label = format!("knee {}", thousands(f64::from(curves.knee_batch)));
        vertical_marker(&mut chart, f64::from(curves.knee_batch), y_max, &label, p.knee, style)?;
    }
    root.present()?;
    Ok(())
}

/// The horizontal TPOT target line, labelled at its right end.
fn draw_target<DB: DrawingBackend>(
    chart: &mut BatchChart<'_, DB>,
    target_s: f64,
    x_max: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
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
