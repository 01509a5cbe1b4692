//! Published measurements on the step-time and interactivity charts: a filled triangle per point in
//! the text colour (data, not model), distinct from the user's own measured points (rings).

use plotters::prelude::*;

use super::triangle::Triangle;
use super::{ChartStyle, DrawResult, XyChart, MARKER_CSS_PX};
use crate::core::calibration::references::Reference;
use crate::core::units::s_to_ms;

/// The legend entry both charts use.
pub const LEGEND_LABEL: &str = "Published (its own lengths)";

/// (batch, TPOT ms) of each reference: the step chart's coordinates.
pub fn step_coords(references: &[Reference]) -> Vec<(f64, f64)> {
    references.iter().map(|r| (f64::from(r.batch), s_to_ms(r.tpot_s))).collect()
}

/// (tokens/s per user, tokens/s per GPU) of each reference: the interactivity chart's coordinates.
pub fn speed_coords(references: &[Reference]) -> Vec<(f64, f64)> {
    references.iter().map(|r| (r.tokens_per_s_per_user(), r.tokens_per_s_per_gpu)).collect()
}

/// A filled triangle at each point inside the chart's ranges.
pub fn draw_triangles<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    points: &[(f64, f64)],
    style: &ChartStyle,
) -> DrawResult<DB> {
    let (x, y) = (chart.x_range(), chart.y_range());
    let color = style.palette.text;
    let size = style.px(MARKER_CSS_PX) + 1;
    let inside = points.iter().copied().filter(|(px, py)| x.contains(px) && y.contains(py));
    chart.draw_series(inside.map(|at| Triangle::new(at, size, color.filled())))?;
    Ok(())
}
