//! The one entry point that draws a batch chart: [`draw`] of a [`BatchDraw`] (which chart, its
//! curves and style, the marked batch and the axis ends a drag holds), dispatching to each chart's
//! file, so the canvas, the SVG export and native tests draw a batch chart the same way.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

pub use super::batch_draw::BatchDraw;
use super::{interactivity, rate, step, FrameResult};
use crate::view::batch_chart::BatchChart;

/// Draws the chart `what` names onto `root`; returns where its plot landed.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, what: &BatchDraw<'_>) -> FrameResult<DB> {
    match what.kind {
        BatchChart::Rate => rate::draw(root, what),
        BatchChart::Step => step::draw(root, what),
        BatchChart::Interactivity => interactivity::draw(root, what),
    }
}
