//! Axes held still while a slider is dragged ([`crate::state::drag::AxisHold`]): the batch charts'
//! curves resampled from batch 1 to the held batch axis end, so the lines still reach it and the knee
//! moves across the plot, and the other axis ends a chart keeps from before the drag ([`HeldEnds`]).

use crate::core::curves::{curves_on_axis, Curves};
use crate::core::fit::{overlay, Fit, YourPoint};
use crate::core::roofline::Analysis;
use crate::core::scenario::Scenario;

/// `curves` (of `scenario` and its `analysis`, with the `measured` points and their fit) resampled
/// on a batch axis ending at `axis`; returned as they are when their axis already ends there.
pub fn on_axis(
    curves: Curves,
    scenario: &Scenario,
    analysis: &Analysis,
    measured: (&[YourPoint], Option<&Fit>),
    axis: u32,
) -> Curves {
    if axis == curves.axis_max_batch {
        return curves;
    }
    let held = curves_on_axis(scenario, analysis, axis);
    let batches: Vec<u32> = held.points.iter().map(|p| p.batch).collect();
    let fitted = curves.your_points.as_ref().map(|_| overlay(scenario, measured.0, measured.1, &batches));
    Curves { your_points: fitted, ..held }
}

/// The axis ends a chart keeps during a drag, in its own units; `None` lets the chart compute that
/// end. The batch charts' x is `None`: their curves hold the batch axis ([`on_axis`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeldEnds {
    pub x: Option<f64>,
    pub y: Option<f64>,
}

impl HeldEnds {
    /// Nothing held: every chart computes its own ends.
    pub const NONE: HeldEnds = HeldEnds { x: None, y: None };

    /// The end to draw: the held one, else the chart's own `computed` end.
    pub fn x_or(self, computed: f64) -> f64 {
        self.x.unwrap_or(computed)
    }

    /// As [`HeldEnds::x_or`] for the y axis.
    pub fn y_or(self, computed: f64) -> f64 {
        self.y.unwrap_or(computed)
    }
}
