//! Where a chart's plot sits on its backend and what its axes span: the [`ChartFrame`] each batch
//! chart returns, so the page can turn a pointer's pixel back into a batch; and the marked batch,
//! drawn by the charts themselves so it reaches every export.

use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{vertical_marker, ChartStyle, DrawResult, XyChart};
use crate::view::format::thousands;

/// The plot area of a drawn chart: pixel ends of each axis and the values they stand for. Pixels
/// are the backend's (device pixels on a canvas), measured from its top left; `y_px.0` is the bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartFrame {
    /// Left and right pixel of the x axis (value `x_range.0` and `x_range.1`).
    pub x_px: (i32, i32),
    /// Bottom and top pixel of the y axis (value `y_range.0` and `y_range.1`).
    pub y_px: (i32, i32),
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
}

/// What a chart drawing function returns: where its plot landed.
pub type FrameResult<DB> = Result<ChartFrame, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

impl ChartFrame {
    /// The frame of a chart whose axes are drawn: its corners as plotters maps them.
    pub fn of<DB: DrawingBackend>(chart: &XyChart<'_, DB>) -> ChartFrame {
        let (x, y) = (chart.x_range(), chart.y_range());
        let (left, bottom) = chart.backend_coord(&(x.start, y.start));
        let (right, top) = chart.backend_coord(&(x.end, y.end));
        ChartFrame {
            x_px: (left, right),
            y_px: (bottom, top),
            x_range: (x.start, x.end),
            y_range: (y.start, y.end),
        }
    }

    /// The pixel column of x value `v`, as plotters draws it:
    /// px = left + floor((v - x0) / (x1 - x0) x (right - left) + 0.001).
    pub fn x_to_px(&self, v: f64) -> i32 {
        map_to_px(v, self.x_range, self.x_px)
    }

    /// The pixel row of y value `v` (rows grow downwards), as plotters draws it.
    pub fn y_to_px(&self, v: f64) -> i32 {
        map_to_px(v, self.y_range, self.y_px)
    }

    /// The x value at pixel column `px` (fractional pixels allowed): the inverse of [`Self::x_to_px`]
    /// up to its rounding, v = x0 + (px - left) / (right - left) x (x1 - x0).
    pub fn x_at(&self, px: f64) -> f64 {
        unmap(px, self.x_range, self.x_px)
    }

    /// The y value at pixel row `py`.
    pub fn y_at(&self, py: f64) -> f64 {
        unmap(py, self.y_range, self.y_px)
    }

    /// The whole batch nearest pixel column `px` on a batch axis, clamped to 1..=the axis end.
    pub fn batch_at(&self, px: f64) -> u32 {
        let last = self.x_range.1.floor().max(1.0);
        let b = self.x_at(px).round();
        if b.is_finite() {
            b.clamp(1.0, last) as u32
        } else {
            1
        }
    }

    /// Whether pixel (x, y) lies inside the plot area, edges included.
    pub fn contains_px(&self, (x, y): (i32, i32)) -> bool {
        let within = |v: i32, (a, b): (i32, i32)| v >= a.min(b) && v <= a.max(b);
        within(x, self.x_px) && within(y, self.y_px)
    }
}

/// Plotters' linear map of `v` from `range` onto the pixels `px` (its `Ranged::map` for f64).
fn map_to_px(v: f64, range: (f64, f64), px: (i32, i32)) -> i32 {
    let span = range.1 - range.0;
    let length = px.1 - px.0;
    if span == 0.0 || length == 0 {
        return px.0 + length / 2;
    }
    let share = (v - range.0) / span;
    if !share.is_finite() {
        return if share > 0.0 { px.1 } else { px.0 };
    }
    let offset = if length > 0 {
        (f64::from(length) * share + 1e-3).floor()
    } else {
        (f64::from(length) * share - 1e-3).ceil()
    };
    px.0 + offset.clamp(-1e9, 1e9) as i32
}

/// The value at fractional pixel `p` on an axis mapping `range` onto `px`; the range's start when
/// the axis has no length.
fn unmap(p: f64, range: (f64, f64), px: (i32, i32)) -> f64 {
    let length = f64::from(px.1 - px.0);
    if length == 0.0 {
        return range.0;
    }
    range.0 + (p - f64::from(px.0)) / length * (range.1 - range.0)
}

/// The label of the marked batch's line: "marked 64".
pub fn mark_label(batch: u32) -> String {
    format!("marked {}", thousands(f64::from(batch)))
}

/// The marked batch on a batch-axis chart: a labelled vertical line in the text colour, its label
/// under the top 30% (clear of the knee's label and the read-out); nothing when it is off the axis.
pub fn mark_batch_line<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    batch: Option<u32>,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let Some(batch) = batch.filter(|b| f64::from(*b) <= chart.x_range().end) else { return Ok(()) };
    let label_y = chart.y_range().end * 0.7;
    vertical_marker(chart, f64::from(batch), label_y, &mark_label(batch), style.palette.text, style)
}

/// The marked batch on the interactivity chart: a ring in the text colour around its point at
/// `(tokens/s per user, tokens/s per GPU)`, labelled beneath; nothing when it is off the axes.
pub fn mark_point_ring<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    mark: Option<(u32, (f64, f64))>,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let Some((batch, at)) = mark else { return Ok(()) };
    let (x, y) = (chart.x_range(), chart.y_range());
    if !(x.contains(&at.0) && y.contains(&at.1)) {
        return Ok(());
    }
    let color = style.palette.text;
    chart.draw_series(std::iter::once(Circle::new(at, style.px(10.0), style.stroke(color, 2.5))))?;
    let font = style.font(13.0).color(&color).pos(Pos::new(HPos::Center, VPos::Top));
    let text = EmptyElement::at(at) + Text::new(mark_label(batch), (0, style.px(13.0) as i32), font);
    chart.draw_series(std::iter::once(text))?;
    Ok(())
}
