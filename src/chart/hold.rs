//! The batch charts' curves on a held batch axis (while a slider is dragged,
//! [`crate::state::drag::AxisHold`]): the same curves resampled from batch 1 to the held end, so the
//! axes stand still, the lines still reach the axis's end and the knee moves across the plot.

use crate::core::curves::{sampled_batches, Curves};
use crate::core::fit::{overlay, Fit, MeasuredPoint};
use crate::core::roofline::{evaluate, Analysis, Scenario};

/// `curves` (of `scenario` and its `analysis`, with the `measured` points and their fit) resampled
/// on a batch axis ending at `axis`; returned as they are when their axis already ends there.
pub fn on_axis(
    curves: Curves,
    scenario: &Scenario,
    analysis: &Analysis,
    measured: (&[MeasuredPoint], Option<&Fit>),
    axis: u32,
) -> Curves {
    if axis == curves.axis_max_batch {
        return curves;
    }
    let batches = sampled_batches(axis, analysis);
    let points = batches.iter().map(|&b| evaluate(scenario, b)).collect();
    let ideal = scenario.ideal();
    let ideal_points = if curves.ideal_points.is_empty() {
        Vec::new()
    } else {
        batches.iter().map(|&b| evaluate(&ideal, b)).collect()
    };
    let fitted = curves.measured.as_ref().map(|_| overlay(scenario, measured.0, measured.1, &batches));
    Curves { points, ideal_points, axis_max_batch: axis, measured: fitted, ..curves }
}
