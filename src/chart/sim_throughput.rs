//! Sim chart 2: served throughput against request rate from a simulator sweep, beside goodput per
//! rate (the rate where attainment meets the target, else 0) and, under open load, the offered rate.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::attainment::AttainmentView;
use super::{
    axis_top, draw_dashed, legend_and_plot, mark_goodput, sweep_rate_desc, sweep_rate_max,
    sweep_series as series, xy_axes, ChartStyle, DrawResult, LegendItem,
};
use crate::core::sim::{Counting, LoadMode, Sweep};

/// Draws requests/s served against request rate onto `root` (the same rate axis as the attainment
/// chart) with a dot per simulated rate; goodput per rate thick beneath it; under open load the
/// offered rate (y = x) dashed, so the eye sees where served stops following offered; and the
/// goodput marker (or a note when no rate meets the target).
pub fn draw_sim_throughput_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &Sweep,
    view: &AttainmentView,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    let open = view.load == LoadMode::Open;
    let goodput_label = goodput_legend(view.counting);
    let mut legend = vec![
        LegendItem::solid("Served throughput (req/s)", p.throughput),
        LegendItem::solid(goodput_label, p.goodput),
    ];
    if open {
        legend.push(LegendItem::dashed("Offered rate (y = x)", p.text));
    }
    let plot = legend_and_plot(root, &legend, style)?;
    let x_max = sweep_rate_max(sweep);
    let served = series(sweep, |pt| pt.throughput_req_per_s);
    let y_max = x_max.max(axis_top(served.iter().map(|&(_, y)| y)));
    let mut chart = xy_axes(&plot, (x_max, y_max), (sweep_rate_desc(view.load), "Requests/s"), style)?;
    if open {
        draw_dashed(&mut chart, vec![(0.0, 0.0), (x_max, x_max)], p.text, style)?;
    }
    let goodput = series(sweep, |pt| if view.meets_target(pt) { pt.rate_req_per_s } else { 0.0 });
    chart.draw_series(LineSeries::new(goodput, style.stroke(p.goodput, 3.5)))?;
    chart.draw_series(LineSeries::new(served.clone(), style.stroke(p.throughput, 2.0)))?;
    let radius = style.px(3.0);
    chart.draw_series(served.into_iter().map(|xy| Circle::new(xy, radius, p.throughput.filled())))?;
    mark_goodput(&mut chart, sweep, y_max, style)?;
    root.present()?;
    Ok(())
}

/// The goodput series' legend label, saying so when attainment counts tokens.
fn goodput_legend(counting: Counting) -> &'static str {
    match counting {
        Counting::Requests => "Goodput (rate if it meets the target, else 0)",
        Counting::Tokens => "Goodput by tokens (rate if it meets the target, else 0)",
    }
}
