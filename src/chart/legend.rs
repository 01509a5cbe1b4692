//! The legend every chart draws above its plot: entries, and their layout wrapping onto rows.

use super::triangle::Triangle;
use super::{ChartStyle, DASH_CSS_PX, MARKER_CSS_PX};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A legend marker's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerShape {
    Ring,
    Triangle,
}

/// One legend entry: a label, its series colour and whether its line is dashed (or a marker).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegendItem<'a> {
    pub label: &'a str,
    pub color: RGBColor,
    pub dashed: bool,
    /// A marker instead of a line: a ring (your measured points) or a triangle (published ones).
    pub marker: Option<MarkerShape>,
}

impl<'a> LegendItem<'a> {
    /// A solid series.
    pub fn solid(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: false, marker: None }
    }

    /// A dashed reference series.
    pub fn dashed(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: true, marker: None }
    }

    /// Published measurements, drawn as filled triangles.
    pub fn triangle(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: false, marker: Some(MarkerShape::Triangle) }
    }

    /// Points drawn as markers (measured data).
    pub fn marker(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: false, marker: Some(MarkerShape::Ring) }
    }
}

/// Fills the background, draws the legend on top (wrapping onto more rows when the chart is narrow)
/// and returns the area left for the plot.
pub fn legend_and_plot<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[LegendItem<'_>],
    style: &ChartStyle,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    if style.layer.has_under() {
        root.fill(&style.palette.background)?;
    }
    let font = style.font(13.0).pos(Pos::new(HPos::Left, VPos::Center));
    let width = root.dim_in_pixel().0 as i32;
    let room = width - style.px(LEFT_CSS_PX) as i32 - entry_extra(style);
    let text_w = |t: &str| root.estimate_text_size(t, &font).map_or(0, |(w, _)| w as i32);
    let lines: Vec<Vec<String>> = items.iter().map(|item| wrap_label(item.label, room, &text_w)).collect();
    let sizes: Vec<(i32, u32)> =
        lines.iter().map(|l| (l.iter().map(|t| text_w(t)).max().unwrap_or(0), l.len() as u32)).collect();
    let slots = legend_layout(&sizes, width, style);
    let rows = slots.iter().zip(&sizes).map(|(&(_, row), &(_, n))| row + n).max().unwrap_or(1);
    let row_height = style.px(22.0) as i32;
    let (legend, plot) = root.split_vertically(rows * row_height as u32 + style.px(8.0));
    let swatch = style.px(22.0) as i32;
    let drawn = if style.layer.has_under() { items.len() } else { 0 };
    for ((item, (x, row)), label) in items.iter().take(drawn).zip(slots).zip(lines) {
        let y = style.px(4.0) as i32 + row as i32 * row_height + row_height / 2;
        let ends = vec![(x, y), (x + swatch, y)];
        if item.marker == Some(MarkerShape::Ring) {
            legend.draw(&Circle::new(
                (x + swatch / 2, y),
                style.px(MARKER_CSS_PX),
                style.stroke(item.color, 2.0),
            ))?;
        } else if item.marker == Some(MarkerShape::Triangle) {
            legend.draw(&Triangle::new(
                (x + swatch / 2, y),
                style.px(MARKER_CSS_PX) + 1,
                item.color.filled(),
            ))?;
        } else if item.dashed {
            let (dash, gap) = (style.px(DASH_CSS_PX.0), style.px(DASH_CSS_PX.1));
            legend.draw(&DashedPathElement::new(ends, dash, gap, style.dashed_stroke(item.color, 3.0)))?;
        } else {
            legend.draw(&PathElement::new(ends, style.stroke(item.color, 3.0)))?;
        }
        for (i, line) in label.into_iter().enumerate() {
            let label_at = (x + swatch + style.px(4.0) as i32, y + i as i32 * row_height);
            legend.draw(&Text::new(line, label_at, font.clone()))?;
        }
    }
    Ok(plot)
}

/// The legend's left inset, in CSS pixels (about where the plot starts).
const LEFT_CSS_PX: f64 = 56.0;

/// An entry's swatch and the gaps beside its label, in device pixels.
fn entry_extra(style: &ChartStyle) -> i32 {
    (style.px(22.0) + style.px(4.0) + style.px(16.0)) as i32
}

/// `label` as lines no wider than `room` pixels (by `text_w`), broken between words; one line when it
/// fits, and a word wider than `room` keeps a line of its own. A phone's legend wraps its long
/// entries instead of running past the chart.
fn wrap_label(label: &str, room: i32, text_w: &dyn Fn(&str) -> i32) -> Vec<String> {
    if text_w(label) <= room {
        return vec![label.to_string()];
    }
    let mut lines: Vec<String> = Vec::new();
    for word in label.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_w(&format!("{line} {word}")) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Where each legend entry starts: (x in pixels, row), flowing left to right and wrapping at `width`;
/// an entry of `(width, lines)` with more than one line takes rows of its own.
fn legend_layout(entries: &[(i32, u32)], width: i32, style: &ChartStyle) -> Vec<(i32, u32)> {
    let left = style.px(LEFT_CSS_PX) as i32;
    let entry_extra = entry_extra(style);
    let (mut x, mut row) = (left, 0);
    let mut slots = Vec::with_capacity(entries.len());
    for &(w, lines) in entries {
        if x > left && (lines > 1 || x + w + entry_extra > width) {
            (x, row) = (left, row + 1);
        }
        slots.push((x, row));
        if lines > 1 {
            (x, row) = (left, row + lines);
        } else {
            x += w + entry_extra;
        }
    }
    slots
}
