//! The three batch charts as one closed kind ([`BatchChart`]): their ids and titles, and one
//! [`draw`] that dispatches to each chart's drawing, so the canvas, the SVG export and native tests
//! draw a batch chart the same way.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

use super::hold::HeldEnds;
use super::{
    draw_interactivity_chart_held, draw_rate_chart_held, draw_step_chart_held, ChartStyle, FrameResult,
};
use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;

/// Which batch chart: throughput and goodput, step time, or throughput against speed per user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchChart {
    Rate,
    Step,
    Interactivity,
}

impl BatchChart {
    pub const ALL: [BatchChart; 3] = [BatchChart::Rate, BatchChart::Step, BatchChart::Interactivity];

    /// The canvas's element id.
    pub fn id(self) -> &'static str {
        match self {
            BatchChart::Rate => "chart-rate",
            BatchChart::Step => "chart-step",
            BatchChart::Interactivity => "chart-interactivity",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            BatchChart::Rate => "Throughput and goodput against batch size",
            BatchChart::Step => "Step time against batch size",
            BatchChart::Interactivity => "Throughput per GPU against speed per user",
        }
    }
}

/// Draws `kind` of `curves` with the `mark`ed batch on the `held` ends; returns where its plot landed.
pub fn draw<DB: DrawingBackend>(
    kind: BatchChart,
    root: &DrawingArea<DB, Shift>,
    curves: &Curves,
    style: &ChartStyle,
    (mark, held): (Option<&BatchPoint>, HeldEnds),
) -> FrameResult<DB> {
    match kind {
        BatchChart::Rate => draw_rate_chart_held(root, curves, style, mark, held),
        BatchChart::Step => draw_step_chart_held(root, curves, style, mark, held),
        BatchChart::Interactivity => draw_interactivity_chart_held(root, curves, style, mark, held),
    }
}
