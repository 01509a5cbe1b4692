//! What the charts draw on a plot besides its curves' data: dashed reference lines, the knee and
//! goodput markers, vertical markers, notes, and the series helpers.

use super::{ChartStyle, DrawResult, XyChart, DASH_CSS_PX};
use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;
use crate::core::sim::{GoodputBound, RatePoint, Sweep};
use crate::view::format::{significant, thousands};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A dashed, faded line through `points` in `color`: how the ideal roofline is drawn beside the
/// realistic one.
pub fn draw_dashed<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    points: Vec<(f64, f64)>,
    color: RGBColor,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let (dash, gap) = (style.px(DASH_CSS_PX.0), style.px(DASH_CSS_PX.1));
    chart.draw_series(DashedLineSeries::new(points, dash, gap, style.dashed_stroke(color, 2.0)))?;
    Ok(())
}

/// The knee's marker, when some batch meets the target.
pub fn mark_knee<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    curves: &Curves,
    y_max: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    if curves.server_batch == 0 {
        return Ok(());
    }
    let label = format!("knee {}", thousands(f64::from(curves.server_batch)));
    vertical_marker(chart, f64::from(curves.server_batch), y_max, &label, style.palette.knee, style)
}

/// (batch, value) for every point, ready for a line series.
pub fn batch_series(points: &[BatchPoint], value: impl Fn(&BatchPoint) -> f64) -> Vec<(f64, f64)> {
    points.iter().map(|pt| (f64::from(pt.batch), value(pt))).collect()
}

/// A vertical marker across the whole plot at `x`, labelled beside it at height `label_y`.
pub fn vertical_marker<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    x: f64,
    label_y: f64,
    label: &str,
    color: RGBColor,
    style: &ChartStyle,
) -> DrawResult<DB> {
    // Near the right edge the label goes on the line's left so it is not clipped.
    let left = x > 0.75 * chart.x_range().end;
    vertical_marker_on(chart, x, (label_y, left), label, color, style)
}

/// [`vertical_marker`] with its label on the line's left when `left`, else on its right, its top at
/// `label_y`.
pub fn vertical_marker_on<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    x: f64,
    (label_y, left): (f64, bool),
    label: &str,
    color: RGBColor,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let line = PathElement::new(vec![(x, 0.0), (x, chart.y_range().end)], style.stroke(color, 1.5));
    chart.draw_series(std::iter::once(line))?;
    let (side, dx) = if left { (HPos::Right, -4.0) } else { (HPos::Left, 4.0) };
    let font = style.font(13.0).color(&color).pos(Pos::new(side, VPos::Top));
    let offset = ((dx * style.scale).round() as i32, style.px(4.0) as i32);
    let text = EmptyElement::at((x, label_y)) + Text::new(label.to_string(), offset, font);
    chart.draw_series(std::iter::once(text))?;
    Ok(())
}

/// (rate, value) for every point of a sweep whose rate and value are finite numbers, ready for a
/// line series.
pub fn sweep_series(sweep: &Sweep, value: impl Fn(&RatePoint) -> f64) -> Vec<(f64, f64)> {
    let xy = sweep.points.iter().map(|pt| (pt.rate_req_per_s, value(pt)));
    xy.filter(|(x, y)| x.is_finite() && y.is_finite()).collect()
}

/// The goodput marker's label: "Goodput 25.3 req/s", or "Goodput ≥ 25.3 req/s" when every rate swept
/// met the target; `None` when no rate did or the figure is not a finite number.
pub fn goodput_label(sweep: &Sweep) -> Option<String> {
    let rate =
        if sweep.goodput_req_per_s == 0.0 { "0".to_string() } else { significant(sweep.goodput_req_per_s) };
    let finite = sweep.goodput_req_per_s.is_finite() && sweep.goodput_req_per_s >= 0.0;
    match sweep.bound {
        GoodputBound::Exact if finite => Some(format!("Goodput {rate} req/s")),
        GoodputBound::AtLeast if finite => Some(format!("Goodput ≥ {rate} req/s")),
        _ => None,
    }
}

/// Shown in place of the goodput marker when even the lowest rate swept misses the target.
pub const NO_GOODPUT_NOTE: &str = "No rate swept meets the target";

/// Marks goodput on a sweep chart: a vertical marker at the goodput rate, labelled at height
/// `label_y` on the line's left where it fits (the rates there meet the target, so the curves are
/// out of the way), else on its right; when no rate swept meets the target, a note hung from that
/// height.
pub fn mark_goodput<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    sweep: &Sweep,
    label_y: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let color = style.palette.goodput;
    let Some(label) = goodput_label(sweep) else {
        if sweep.bound == GoodputBound::BelowLowest {
            let at = (0.5 * chart.x_range().end, label_y);
            return draw_note(chart, at, NO_GOODPUT_NOTE, style);
        }
        return Ok(());
    };
    let x = sweep.goodput_req_per_s;
    let font = style.font(13.0);
    let (label_w, _) = chart.plotting_area().estimate_text_size(&label, &font)?;
    let room_px = chart.backend_coord(&(x, label_y)).0 - chart.plotting_area().get_pixel_range().0.start;
    let left = room_px >= label_w as i32 + style.px(8.0) as i32;
    vertical_marker_on(chart, x, (label_y, left), &label, color, style)
}

/// A one-line note centred under `at` (its top a few pixels below), on a box of the background
/// colour so it reads over the curves.
pub fn draw_note<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    at: (f64, f64),
    note: &str,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let font = style.font(14.0).pos(Pos::new(HPos::Center, VPos::Top));
    let (w, h) = chart.plotting_area().estimate_text_size(note, &font)?;
    let (pad, top) = (style.px(6.0) as i32, style.px(4.0) as i32);
    let corners = [(-(w as i32) / 2 - pad, top), (w as i32 / 2 + pad, top + h as i32 + 2 * pad)];
    let backing = Rectangle::new(corners, style.palette.background.filled());
    let element = EmptyElement::at(at) + backing + Text::new(note.to_string(), (0, top + pad), font);
    chart.draw_series(std::iter::once(element))?;
    Ok(())
}

/// The likely range as a shaded band under the curves: each point's (low, high) from `bounds`, the
/// lows left to right and the highs back.
pub fn draw_band<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    points: &[BatchPoint],
    bounds: impl Fn(&BatchPoint) -> (f64, f64),
    color: RGBColor,
) -> DrawResult<DB> {
    let lows = points.iter().map(|pt| (f64::from(pt.batch), bounds(pt).0));
    let highs = points.iter().rev().map(|pt| (f64::from(pt.batch), bounds(pt).1));
    let outline: Vec<(f64, f64)> = lows.chain(highs).collect();
    chart.draw_series(std::iter::once(Polygon::new(outline, color.mix(BAND_OPACITY).filled())))?;
    Ok(())
}

/// The band's fill opacity: the curve stays legible over it.
const BAND_OPACITY: f64 = 0.16;

/// The band's legend label for a coverage word ("fitted", "transferred", "not measured").
pub fn band_label(word: &str) -> &'static str {
    match word {
        "fitted" => "Likely range (fitted)",
        "transferred" => "Likely range (transferred)",
        _ => "Likely range (not measured)",
    }
}
