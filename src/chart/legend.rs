//! The legend every chart draws above its plot: entries, and their layout wrapping onto rows.

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
    root.fill(&style.palette.background)?;
    let font = style.font(13.0).pos(Pos::new(HPos::Left, VPos::Center));
    let widths: Vec<i32> = items
        .iter()
        .map(|item| root.estimate_text_size(item.label, &font).map_or(0, |(w, _)| w as i32))
        .collect();
    let slots = legend_layout(&widths, root.dim_in_pixel().0 as i32, style);
    let rows = slots.iter().map(|&(_, row)| row + 1).max().unwrap_or(1);
    let row_height = style.px(22.0) as i32;
    let (legend, plot) = root.split_vertically(rows * row_height as u32 + style.px(8.0));
    let swatch = style.px(22.0) as i32;
    for (item, (x, row)) in items.iter().zip(slots) {
        let y = style.px(4.0) as i32 + row as i32 * row_height + row_height / 2;
        let ends = vec![(x, y), (x + swatch, y)];
        if item.marker == Some(MarkerShape::Ring) {
            legend.draw(&Circle::new(
                (x + swatch / 2, y),
                style.px(MARKER_CSS_PX),
                style.stroke(item.color, 2.0),
            ))?;
        } else if item.marker == Some(MarkerShape::Triangle) {
            legend.draw(&TriangleMarker::new(
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
        let label_at = (x + swatch + style.px(4.0) as i32, y);
        legend.draw(&Text::new(item.label.to_string(), label_at, font.clone()))?;
    }
    Ok(plot)
}

/// Where each legend entry starts: (x in pixels, row), flowing left to right and wrapping at `width`.
fn legend_layout(label_widths: &[i32], width: i32, style: &ChartStyle) -> Vec<(i32, u32)> {
    let left = style.px(56.0) as i32;
    let entry_extra = (style.px(22.0) + style.px(4.0) + style.px(16.0)) as i32;
    let (mut x, mut row) = (left, 0);
    let mut slots = Vec::with_capacity(label_widths.len());
    for &w in label_widths {
        if x > left && x + w + entry_extra > width {
            (x, row) = (left, row + 1);
        }
        slots.push((x, row));
        x += w + entry_extra;
    }
    slots
}
