//! The interactivity chart's point labels: placed beside each point where they overlap neither another
//! label nor a drawn line, else left out.

use crate::chart::{ChartStyle, DrawResult, XyChart};
use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;
use crate::view::format::thousands;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A text's box in backend pixels: (left, top, right, bottom).
pub(super) type PixelBox = (i32, i32, i32, i32);

/// A drawn line in backend pixels.
pub(super) type PixelPath = Vec<(i32, i32)>;

/// What a label must keep clear of, in backend pixels: the labels already drawn and the lines.
pub(super) struct Clutter {
    pub(super) boxes: Vec<PixelBox>,
    pub(super) paths: Vec<PixelPath>,
}

impl Clutter {
    /// Whether box `b` overlaps a drawn label or comes within `margin` pixels of a line.
    fn blocks(&self, b: PixelBox, margin: i32) -> bool {
        let grown = (b.0 - margin, b.1 - margin, b.2 + margin, b.3 + margin);
        self.boxes.iter().any(|t| overlaps(*t, b)) || self.paths.iter().any(|path| crosses(path, grown))
    }
}

/// Where a label may sit relative to its anchor: its alignment and offset in CSS pixels.
pub(super) type Placement = (HPos, VPos, (f64, f64));

/// Above and to the right of a point, outside the curve's bulge, first; then its left (for the
/// curve's steep right-hand part near the plot's right edge), its right and the diagonals. Offsets
/// clear the knee's ring.
pub(super) const POINT_PLACEMENTS: [Placement; 7] = [
    (HPos::Left, VPos::Bottom, (8.0, -6.0)),
    (HPos::Right, VPos::Center, (-10.0, 0.0)),
    (HPos::Left, VPos::Center, (10.0, 0.0)),
    (HPos::Right, VPos::Top, (-8.0, 6.0)),
    (HPos::Left, VPos::Top, (8.0, 6.0)),
    (HPos::Right, VPos::Bottom, (-8.0, -6.0)),
    (HPos::Center, VPos::Bottom, (0.0, -10.0)),
];

/// How near a label may come to a line, in CSS pixels: clear of the markers on it.
pub(super) const LINE_CLEARANCE_CSS_PX: f64 = 5.0;

/// A label to place: its text and colour, the point it belongs to, where it may sit, and whether it
/// is drawn even when every placement collides or leaves the plot.
pub(super) struct Label<'a> {
    pub(super) text: String,
    pub(super) color: RGBColor,
    pub(super) at: (f64, f64),
    pub(super) placements: &'a [Placement],
    pub(super) force: bool,
}

/// At the top of the target line, on its right, else on its left.
pub(super) const TARGET_PLACEMENTS: [Placement; 2] =
    [(HPos::Left, VPos::Top, (4.0, 4.0)), (HPos::Right, VPos::Top, (-4.0, 4.0))];

/// Rings and labels the knee, then labels the last batch (the KV pool's when it is on the axis)
/// and batch 1 wherever their labels do not collide with one already drawn.
pub(super) fn label_points<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    curves: &Curves,
    points: &[BatchPoint],
    style: &ChartStyle,
    clutter: &mut Clutter,
) -> DrawResult<DB> {
    let p = style.palette;
    let knee = points.iter().find(|pt| curves.server_batch > 0 && pt.batch == curves.server_batch);
    if let Some(k) = knee {
        let at = (k.tokens_per_s_per_user, k.tokens_per_s_per_gpu);
        chart.draw_series(std::iter::once(Circle::new(at, style.px(7.0), style.stroke(p.knee, 2.0))))?;
        let text = format!("knee: batch {}", thousands(f64::from(k.batch)));
        let label = Label { text, color: p.knee, at, placements: &POINT_PLACEMENTS, force: true };
        place_label(chart, label, style, clutter)?;
    }
    let others = [points.last(), points.first()].into_iter().flatten();
    for pt in others.filter(|pt| Some(pt.batch) != knee.map(|k| k.batch)) {
        let batch = thousands(f64::from(pt.batch));
        let text = if pt.batch == curves.kv_pool_batch {
            format!("batch {batch} (KV pool)")
        } else {
            format!("batch {batch}")
        };
        let at = (pt.tokens_per_s_per_user, pt.tokens_per_s_per_gpu);
        let label = Label { text, color: p.text, at, placements: &POINT_PLACEMENTS, force: false };
        place_label(chart, label, style, clutter)?;
    }
    Ok(())
}

/// Draws the label at the first of its placements that stays inside the plot and clear of the
/// `clutter` (the labels and lines drawn), and records its box. With none such, a forced label takes
/// the first placement inside the plot clear of the labels (crossing a line), else goes where it
/// leaves the plot least, shifted back inside; any other is not drawn, so labels never pile up.
pub(super) fn place_label<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    label: Label<'_>,
    style: &ChartStyle,
    clutter: &mut Clutter,
) -> DrawResult<DB> {
    let font = style.font(13.0).color(&label.color);
    let (w, h) = chart.plotting_area().estimate_text_size(&label.text, &font)?;
    let anchor = chart.backend_coord(&label.at);
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let plot_box = (xs.start, ys.start, xs.end, ys.end);
    let candidates: Vec<(Pos, (i32, i32), PixelBox)> = label
        .placements
        .iter()
        .map(|&(hpos, vpos, (dx, dy))| {
            let offset = ((dx * style.scale).round() as i32, (dy * style.scale).round() as i32);
            (Pos::new(hpos, vpos), offset, text_box(anchor, offset, (w as i32, h as i32), (hpos, vpos)))
        })
        .collect();
    let placed = &*clutter;
    let inside_clear_of = |margin: Option<i32>| {
        let blocked = |b: PixelBox| match margin {
            Some(m) => placed.blocks(b, m),
            None => placed.boxes.iter().any(|t| overlaps(*t, b)),
        };
        candidates.iter().find(|&&(.., b)| into_box(b, plot_box) == (0, 0) && !blocked(b)).copied()
    };
    let free = inside_clear_of(Some(style.px(LINE_CLEARANCE_CSS_PX) as i32));
    // A forced label may cross a line (text over a line still reads) but never another label.
    let forced = label.force.then(|| inside_clear_of(None)).flatten();
    let chosen = match free.or(forced) {
        Some(c) => c,
        None if label.force => {
            let shift = |b: PixelBox| into_box(b, plot_box);
            let least = candidates.iter().min_by_key(|&&(.., b)| shift(b).0.abs() + shift(b).1.abs());
            let Some(&(pos, (ox, oy), b)) = least else { return Ok(()) };
            let (dx, dy) = shift(b);
            (pos, (ox + dx, oy + dy), (b.0 + dx, b.1 + dy, b.2 + dx, b.3 + dy))
        }
        None => return Ok(()),
    };
    let (pos, offset, b) = chosen;
    clutter.boxes.push(b);
    let element = EmptyElement::at(label.at) + Text::new(label.text, offset, font.pos(pos));
    chart.draw_series(std::iter::once(element))?;
    Ok(())
}

/// The (dx, dy) in pixels that moves box `b` inside `outer` (its top left first when it is bigger);
/// (0, 0) when it is inside already.
pub(super) fn into_box(b: PixelBox, outer: PixelBox) -> (i32, i32) {
    let axis = |lo: i32, hi: i32, outer_lo: i32, outer_hi: i32| {
        if lo < outer_lo {
            outer_lo - lo
        } else if hi > outer_hi {
            (outer_hi - hi).max(outer_lo - lo)
        } else {
            0
        }
    };
    (axis(b.0, b.2, outer.0, outer.2), axis(b.1, b.3, outer.1, outer.3))
}

/// The box of a `size` text drawn `offset` from `anchor` with alignment `pos`, in pixels.
pub(super) fn text_box(
    anchor: (i32, i32),
    offset: (i32, i32),
    size: (i32, i32),
    pos: (HPos, VPos),
) -> PixelBox {
    let (x, y) = (anchor.0 + offset.0, anchor.1 + offset.1);
    let left = match pos.0 {
        HPos::Left => x,
        HPos::Center => x - size.0 / 2,
        HPos::Right => x - size.0,
    };
    let top = match pos.1 {
        VPos::Top => y,
        VPos::Center => y - size.1 / 2,
        VPos::Bottom => y - size.1,
    };
    (left, top, left + size.0, top + size.1)
}

/// Whether two pixel boxes share any area.
pub(super) fn overlaps(a: PixelBox, b: PixelBox) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Whether any segment of `path` passes through box `b` (checked at every pixel along it).
pub(super) fn crosses(path: &[(i32, i32)], b: PixelBox) -> bool {
    let inside = |x: f64, y: f64| {
        x >= f64::from(b.0) && x <= f64::from(b.2) && y >= f64::from(b.1) && y <= f64::from(b.3)
    };
    path.windows(2).any(|seg| {
        let ((x0, y0), (x1, y1)) = (seg[0], seg[1]);
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
        (0..=steps).any(|i| {
            let t = f64::from(i) / f64::from(steps);
            inside(f64::from(x0) + t * f64::from(x1 - x0), f64::from(y0) + t * f64::from(y1 - y0))
        })
    }) || path.iter().any(|&(x, y)| inside(f64::from(x), f64::from(y)))
}
