//! Sim chart 1: SLO attainment against request rate from a simulator sweep: the shares meeting both
//! targets (the median over seeds, with the band from the lowest to the highest seed), TTFT alone
//! and TPOT alone (by requests or by tokens), the attainment target, goodput, and the overloaded
//! rates (a cross, labelled "overloaded: the queue grows").

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    draw_dashed, legend_and_plot, mark_goodput, sweep_rate_desc, sweep_rate_max, sweep_series as series,
    xy_axes_labelled, ChartStyle, DrawResult, LegendItem, XyChart,
};
use crate::core::sim::{Attainment, Counting, LoadMode, RatePoint, SeedBand, SimConfig, Sweep};
use crate::view::export::OVERLOADED_MARK;
use crate::view::format::percent_trimmed;

/// The top of the attainment axis, in %: a little above 100 so a curve at 100% clears the frame.
pub(super) const ATTAINMENT_AXIS_TOP_PCT: f64 = 105.0;

/// What the sweep charts need from the simulator's config to read a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttainmentView {
    /// Share of requests (or tokens) that must meet both targets, in (0, 1].
    pub attainment_target: f64,
    /// Whether attainment counts requests or tokens.
    pub counting: Counting,
    /// Open load (x is the offered rate) or closed load (x is the rate achieved).
    pub load: LoadMode,
}

impl From<&SimConfig> for AttainmentView {
    fn from(c: &SimConfig) -> Self {
        AttainmentView { attainment_target: c.attainment_target, counting: c.counting, load: c.load }
    }
}

impl AttainmentView {
    /// The shares this view counts at `pt`: by requests or by tokens.
    pub fn attainment(&self, pt: &RatePoint) -> Attainment {
        match self.counting {
            Counting::Requests => pt.requests,
            Counting::Tokens => pt.tokens,
        }
    }

    /// Whether `pt` meets the attainment target on both targets, as the sweep reads goodput.
    pub fn meets_target(&self, pt: &RatePoint) -> bool {
        self.attainment(pt).both >= self.attainment_target - 1e-12
    }
}

/// Draws attainment (%) against request rate onto `root`: meeting both targets thick and solid with
/// a dot per simulated rate, TTFT alone thin and solid and TPOT alone thin and dashed over it; the
/// target as a dashed horizontal line; goodput as a vertical marker (or a note when no rate meets
/// the target).
pub fn draw_attainment_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &Sweep,
    view: &AttainmentView,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let p = style.palette;
    let labels = legend_labels(view.counting);
    let legend = [
        LegendItem::solid(&labels[0], p.goodput),
        LegendItem::solid(&labels[1], p.ttft),
        LegendItem::dashed(&labels[2], p.tpot),
    ];
    let plot = legend_and_plot(root, &legend, style)?;
    let ranges = (sweep_rate_max(sweep), ATTAINMENT_AXIS_TOP_PCT);
    let descs = (sweep_rate_desc(view.load), y_desc(view.counting));
    let mut chart = xy_axes_labelled(&plot, ranges, descs, &|y| percent_trimmed(*y / 100.0), style)?;
    let target_pct = draw_target(&mut chart, view.attainment_target, curves_end_below(sweep, view), style)?;
    let share_pct = |share: fn(&Attainment) -> f64| series(sweep, |pt| 100.0 * share(&view.attainment(pt)));
    if sweep.seeds > 1 {
        let band = band_polygon(sweep, view);
        chart.draw_series(std::iter::once(Polygon::new(band, p.goodput.mix(0.18).filled())))?;
    }
    // Both targets beneath, so the thin curves still show where they coincide with it.
    let both = share_pct(|a| a.both);
    chart.draw_series(LineSeries::new(both.clone(), style.stroke(p.goodput, 3.5)))?;
    chart.draw_series(LineSeries::new(share_pct(|a| a.ttft), style.stroke(p.ttft, 2.0)))?;
    draw_dashed(&mut chart, share_pct(|a| a.tpot), p.tpot, style)?;
    let radius = style.px(3.5);
    let over: Vec<(f64, f64)> =
        both.iter().zip(&sweep.points).filter(|(_, pt)| pt.overloaded).map(|(xy, _)| *xy).collect();
    chart.draw_series(both.into_iter().map(|xy| Circle::new(xy, radius, p.goodput.filled())))?;
    let cross = style.stroke(p.text, 2.0);
    chart.draw_series(over.into_iter().map(|xy| Cross::new(xy, style.px(6.0) as i32, cross)))?;
    mark_overloaded(&mut chart, sweep, 0.5 * target_pct, style)?;
    mark_goodput(&mut chart, sweep, 0.5 * target_pct, style)?;
    root.present()?;
    Ok(())
}

/// The band of "meets both targets" over seeds: the highest seed's share left to right, then the
/// lowest's back, in (rate, %).
fn band_polygon(sweep: &Sweep, view: &AttainmentView) -> Vec<(f64, f64)> {
    let pick = |b: &SeedBand| match view.counting {
        Counting::Requests => b.requests,
        Counting::Tokens => b.tokens,
    };
    let xs = sweep.points.iter().map(|pt| pt.rate_req_per_s);
    let rows: Vec<(f64, f64, f64)> = xs
        .zip(&sweep.bands)
        .map(|(x, b)| (x, 100.0 * pick(b).0.both, 100.0 * pick(b).1.both))
        .filter(|(x, lo, hi)| x.is_finite() && lo.is_finite() && hi.is_finite())
        .collect();
    let upper = rows.iter().map(|&(x, _, hi)| (x, hi));
    upper.chain(rows.iter().rev().map(|&(x, lo, _)| (x, lo))).collect()
}

/// Labels the first overloaded rate "overloaded: the queue grows", just above its cross, on the side
/// with room inside the plot and below the goodput label (its top at `goodput_label_y` %); where
/// neither side has room (a phone's short plot) the crosses go unlabelled rather than overlap.
fn mark_overloaded<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    sweep: &Sweep,
    goodput_label_y: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let Some(first) = sweep.points.iter().find(|pt| pt.overloaded) else { return Ok(()) };
    let (x, y) = (first.rate_req_per_s, 12.0);
    let font = style.font(13.0).color(&style.palette.text);
    let (w, h) = chart.plotting_area().estimate_text_size(OVERLOADED_MARK, &font)?;
    let (w, h) = (w as i32, h as i32);
    let (xs, _) = chart.plotting_area().get_pixel_range();
    let (ax, ay) = chart.backend_coord(&(x, y));
    let goodput_bottom = chart.backend_coord(&(x, goodput_label_y)).1 + style.px(4.0) as i32 + h;
    let sides =
        if x > 0.5 * chart.x_range().end { [HPos::Right, HPos::Left] } else { [HPos::Left, HPos::Right] };
    let fits = |side: &HPos| {
        let left = if matches!(side, HPos::Right) { ax - w } else { ax };
        left >= xs.start && left + w <= xs.end
    };
    let Some(side) = sides.into_iter().find(fits).filter(|_| ay - h > goodput_bottom) else { return Ok(()) };
    let font = font.pos(Pos::new(side, VPos::Bottom));
    chart
        .draw_series(std::iter::once(EmptyElement::at((x, y)) + Text::new(OVERLOADED_MARK, (0, 0), font)))?;
    Ok(())
}

/// The legend's labels for both targets, TTFT alone and TPOT alone, saying so when counting tokens.
fn legend_labels(counting: Counting) -> [String; 3] {
    let by = match counting {
        Counting::Requests => "",
        Counting::Tokens => " (by tokens)",
    };
    ["Meets both targets", "Meets TTFT", "Meets TPOT"].map(|label| format!("{label}{by}"))
}

/// The attainment axis's description: what the percentage counts.
fn y_desc(counting: Counting) -> &'static str {
    match counting {
        Counting::Requests => "Attainment (% of requests)",
        Counting::Tokens => "Attainment (% of tokens)",
    }
}

/// The attainment target as a dashed horizontal line labelled "Target 90%": below its left end,
/// where the low rates meet the target and their curves run above it, or, with `right_clear`
/// (every curve ends well below the target: [`curves_end_below`]), above its right end, where a
/// sweep whose first rate already sits at the top falls steeply through the left end's label.
/// Returns the line's height in %, the target clamped to [0, 100]% (0 when it is not a number).
pub(super) fn draw_target<DB: DrawingBackend>(
    chart: &mut XyChart<'_, DB>,
    attainment_target: f64,
    right_clear: bool,
    style: &ChartStyle,
) -> Result<f64, DrawingAreaErrorKind<DB::ErrorType>> {
    let share = if attainment_target.is_finite() { attainment_target.clamp(0.0, 1.0) } else { 0.0 };
    let (y, x_max) = (100.0 * share, chart.x_range().end);
    let color = style.palette.target;
    draw_dashed(chart, vec![(0.0, y), (x_max, y)], color, style)?;
    let (x, pos, offset) = if right_clear {
        (x_max, Pos::new(HPos::Right, VPos::Bottom), (-(style.px(6.0) as i32), -(style.px(4.0) as i32)))
    } else {
        (0.0, Pos::new(HPos::Left, VPos::Top), (style.px(6.0) as i32, style.px(4.0) as i32))
    };
    let font = style.font(13.0).color(&color).pos(pos);
    let label = format!("Target {}", percent_trimmed(share));
    chart.draw_series(std::iter::once(EmptyElement::at((x, y)) + Text::new(label, offset, font)))?;
    Ok(y)
}

/// Whether every curve (both targets, TTFT alone, TPOT alone) ends at least 20 points below the
/// target at the highest rate swept, leaving the space above the target line's right end free.
pub(super) fn curves_end_below(sweep: &Sweep, view: &AttainmentView) -> bool {
    let Some(last) = sweep.points.iter().rev().find(|pt| pt.rate_req_per_s.is_finite()) else { return false };
    let a = view.attainment(last);
    let highest = a.both.max(a.ttft).max(a.tpot);
    highest.is_finite() && highest <= view.attainment_target - 0.2
}
