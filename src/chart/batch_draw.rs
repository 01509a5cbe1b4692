//! [`BatchDraw`]: everything one batch chart is drawn from, the argument of `chart::batch::draw`
//! and of each batch chart's own drawing (kept apart from the dispatch so those files need not
//! name it).

use super::hold::HeldEnds;
use super::ChartStyle;
use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;
use crate::view::batch_chart::BatchChart;

/// Everything one batch chart is drawn from.
#[derive(Clone, Copy, Debug)]
pub struct BatchDraw<'a> {
    pub kind: BatchChart,
    pub curves: &'a Curves,
    pub style: &'a ChartStyle,
    /// The batch marked on the chart (a labelled line, or a ringed point), if any.
    pub mark: Option<&'a BatchPoint>,
    /// The axis ends a slider drag holds in place of the chart's own ([`HeldEnds::NONE`]: its own).
    pub held: HeldEnds,
}

impl<'a> BatchDraw<'a> {
    /// `kind` of `curves` in `style`, nothing marked, on its own axis ends.
    pub fn new(kind: BatchChart, curves: &'a Curves, style: &'a ChartStyle) -> BatchDraw<'a> {
        BatchDraw { kind, curves, style, mark: None, held: HeldEnds::NONE }
    }

    /// The same chart with `mark` marked.
    pub fn marked(self, mark: Option<&'a BatchPoint>) -> BatchDraw<'a> {
        BatchDraw { mark, ..self }
    }

    /// The same chart on the `held` axis ends.
    pub fn held(self, held: HeldEnds) -> BatchDraw<'a> {
        BatchDraw { held, ..self }
    }
}
