//! Chart drawing, one file per chart, each a function generic over plotters' `DrawingBackend` so the
//! page draws to a canvas and native tests draw the same charts to SVG.

pub mod attainment;
pub mod frame;
pub mod interactivity;
pub mod rate;
pub mod sim_throughput;
pub mod step;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::core::curves::Curves;
use crate::core::roofline::BatchPoint;
use crate::core::sim::{GoodputBound, LoadMode, RatePoint, Sweep};
use crate::format::{significant, thousands};
pub use attainment::{draw_attainment_chart, AttainmentView};
pub use frame::{ChartFrame, FrameResult};
pub use interactivity::{draw_interactivity_chart, draw_interactivity_chart_marked};
pub use rate::{draw_rate_chart, draw_rate_chart_marked};
pub use sim_throughput::draw_sim_throughput_chart;
pub use step::{draw_step_chart, draw_step_chart_marked};

/// A chart with continuous x and y axes.
pub type XyChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// An [`XyChart`] whose x axis is the batch size.
pub type BatchChart<'a, DB> = XyChart<'a, DB>;

/// The result every drawing function returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Colours for one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub background: RGBColor,
    pub text: RGBColor,
    pub grid: RGBColor,
    pub throughput: RGBColor,
    pub goodput: RGBColor,
    pub memory: RGBColor,
    pub compute: RGBColor,
    pub target: RGBColor,
    pub knee: RGBColor,
    pub pool: RGBColor,
    /// The total step time (roofline max plus all-reduce and overhead).
    pub step_total: RGBColor,
    /// The share meeting the TTFT target alone (simulator).
    pub ttft: RGBColor,
    /// The share meeting the TPOT target alone (simulator).
    pub tpot: RGBColor,
}

impl Palette {
    /// Dark text on white; series colours from the Okabe–Ito colour-blind-safe set (TPOT's reddish
    /// purple darkened to keep 3:1 against white).
    pub const LIGHT: Palette = Palette {
        background: RGBColor(255, 255, 255),
        text: RGBColor(33, 37, 41),
        grid: RGBColor(222, 226, 230),
        throughput: RGBColor(0, 114, 178),
        goodput: RGBColor(0, 158, 115),
        memory: RGBColor(0, 114, 178),
        compute: RGBColor(230, 159, 0),
        target: RGBColor(213, 94, 0),
        knee: RGBColor(0, 158, 115),
        pool: RGBColor(120, 94, 160),
        step_total: RGBColor(204, 121, 167),
        ttft: RGBColor(0, 114, 178),
        tpot: RGBColor(170, 68, 153),
    };

    /// Black on white with saturated, darker series colours: contrast survives a washed-out
    /// projector (every series at least 4.5:1 against white).
    pub const PROJECTOR: Palette = Palette {
        background: RGBColor(255, 255, 255),
        text: RGBColor(0, 0, 0),
        grid: RGBColor(190, 190, 190),
        throughput: RGBColor(0, 78, 150),
        goodput: RGBColor(0, 110, 70),
        memory: RGBColor(0, 78, 150),
        compute: RGBColor(150, 90, 0),
        target: RGBColor(190, 40, 0),
        knee: RGBColor(0, 110, 70),
        pool: RGBColor(95, 50, 150),
        step_total: RGBColor(160, 40, 120),
        ttft: RGBColor(0, 78, 150),
        tpot: RGBColor(140, 30, 120),
    };

    /// Light text on near-black, same hues brightened.
    pub const DARK: Palette = Palette {
        background: RGBColor(22, 25, 29),
        text: RGBColor(233, 236, 239),
        grid: RGBColor(58, 63, 70),
        throughput: RGBColor(86, 180, 233),
        goodput: RGBColor(64, 210, 160),
        memory: RGBColor(86, 180, 233),
        compute: RGBColor(240, 228, 66),
        target: RGBColor(255, 128, 64),
        knee: RGBColor(64, 210, 160),
        pool: RGBColor(204, 170, 235),
        step_total: RGBColor(240, 160, 205),
        ttft: RGBColor(86, 180, 233),
        tpot: RGBColor(225, 140, 210),
    };
}

/// The chart's look: a palette plus how much larger than CSS pixels lines and text are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Look {
    #[default]
    Light,
    Dark,
    /// Black on white, heavier lines and larger text, for projectors that wash colour out.
    Projector,
}

impl Look {
    /// Its name in `<html data-look>` and in messages between the page and its panels.
    pub fn id(self) -> &'static str {
        match self {
            Look::Light => "light",
            Look::Dark => "dark",
            Look::Projector => "projector",
        }
    }

    /// The look an [`id`](Look::id) names.
    pub fn from_id(id: &str) -> Option<Look> {
        [Look::Light, Look::Dark, Look::Projector].into_iter().find(|l| l.id() == id)
    }

    /// The colours.
    pub fn palette(self) -> Palette {
        match self {
            Look::Light => Palette::LIGHT,
            Look::Dark => Palette::DARK,
            Look::Projector => Palette::PROJECTOR,
        }
    }

    /// Lines and text are drawn this many times their CSS size (a projector's back row).
    pub fn zoom(self) -> f64 {
        match self {
            Look::Light | Look::Dark => 1.0,
            Look::Projector => 1.35,
        }
    }

    /// The chart style for a canvas at `device_pixel_ratio`.
    pub fn style(self, device_pixel_ratio: f64) -> ChartStyle {
        ChartStyle { palette: self.palette(), scale: device_pixel_ratio * self.zoom() }
    }
}

/// How to draw: colours, and device pixels per CSS pixel (devicePixelRatio) for crisp HiDPI output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    pub palette: Palette,
    pub scale: f64,
}

impl ChartStyle {
    /// A length in CSS pixels as device pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }

    /// A font of `css_px` in the theme's text colour.
    pub fn font(&self, css_px: f64) -> TextStyle<'static> {
        ("sans-serif", css_px * self.scale).into_font().color(&self.palette.text)
    }

    /// A stroke of `css_px` width.
    pub fn stroke(&self, color: RGBColor, css_px: f64) -> ShapeStyle {
        color.stroke_width(self.px(css_px))
    }

    /// The faded stroke of a dashed reference line (the ideal roofline beside the realistic one).
    pub fn dashed_stroke(&self, color: RGBColor, css_px: f64) -> ShapeStyle {
        color.mix(IDEAL_OPACITY).stroke_width(self.px(css_px))
    }
}

/// Opacity of the dashed reference lines, so the solid series stay in front.
pub const IDEAL_OPACITY: f64 = 0.7;
/// Dash and gap lengths of the dashed reference lines, in CSS pixels.
pub const DASH_CSS_PX: (f64, f64) = (7.0, 5.0);

/// Radius of a measured point's ring marker, in CSS pixels.
pub const MARKER_CSS_PX: f64 = 5.0;

/// One legend entry: a label, its series colour and whether its line is dashed (or a marker).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegendItem<'a> {
    pub label: &'a str,
    pub color: RGBColor,
    pub dashed: bool,
    /// A ring marker instead of a line (measured points).
    pub marker: bool,
}

impl<'a> LegendItem<'a> {
    /// A solid series.
    pub fn solid(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: false, marker: false }
    }

    /// A dashed reference series.
    pub fn dashed(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: true, marker: false }
    }

    /// Points drawn as markers (measured data).
    pub fn marker(label: &'a str, color: RGBColor) -> Self {
        LegendItem { label, color, dashed: false, marker: true }
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
        if item.marker {
            legend.draw(&Circle::new(
                (x + swatch / 2, y),
                style.px(MARKER_CSS_PX),
                style.stroke(item.color, 2.0),
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

/// Tick labels with as many decimals as the axis range needs (`40`, `2.5`, `0.25`).
pub fn tick_label(value: f64, axis_max: f64) -> String {
    let decimals = if axis_max >= 20.0 {
        0
    } else if axis_max >= 2.0 {
        1
    } else {
        2
    };
    crate::format::fixed(value, decimals)
}

/// The axes both batch-axis charts share: batch from 0 to the curves' axis end, `y_desc` from 0 to
/// `y_max`, grid and tick labels, with the batches past the KV pool shaded.
pub fn batch_axes<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    curves: &Curves,
    y_max: f64,
    y_desc: &str,
    style: &ChartStyle,
) -> Result<BatchChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let x_max = f64::from(curves.axis_max_batch.max(1));
    let mut chart = xy_axes(plot, (x_max, y_max), ("Batch size (running sequences)", y_desc), style)?;
    shade_past_pool(&mut chart, curves, x_max, y_max, style)?;
    Ok(chart)
}

/// Axes from 0 to `x_max` and 0 to `y_max`, described by `(x_desc, y_desc)`, with the grid and tick
/// labels every chart shares.
pub fn xy_axes<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    (x_max, y_max): (f64, f64),
    descs: (&str, &str),
    style: &ChartStyle,
) -> Result<XyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    xy_axes_labelled(plot, (x_max, y_max), descs, &|y| tick_label(*y, y_max), style)
}

/// [`xy_axes`] with the y tick labels written by `y_label` (percentages, say).
pub fn xy_axes_labelled<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    (x_max, y_max): (f64, f64),
    (x_desc, y_desc): (&str, &str),
    y_label: &dyn Fn(&f64) -> String,
    style: &ChartStyle,
) -> Result<XyChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let p = style.palette;
    let mut chart = ChartBuilder::on(plot)
        .margin(style.px(12.0))
        .margin_top(style.px(4.0))
        .x_label_area_size(style.px(48.0))
        .y_label_area_size(style.px(64.0))
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style(style.font(15.0))
        .label_style(style.font(13.0))
        .light_line_style(p.grid.mix(0.4))
        .bold_line_style(p.grid)
        .axis_style(p.text)
        .x_label_formatter(&|x| tick_label(*x, x_max))
        .y_label_formatter(y_label)
        .draw()?;
    Ok(chart)
}

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

/// Greys out the batches past the KV pool (they cannot run) and labels the pool's edge.
fn shade_past_pool<DB: DrawingBackend>(
    chart: &mut BatchChart<'_, DB>,
    curves: &Curves,
    x_max: f64,
    y_max: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    let pool = f64::from(curves.kv_pool_batch);
    if pool >= x_max {
        return Ok(());
    }
    let shade = Rectangle::new([(pool, 0.0), (x_max, y_max)], style.palette.pool.mix(0.12).filled());
    chart.draw_series(std::iter::once(shade))?;
    let label = format!("KV pool {}", thousands(pool));
    vertical_marker(chart, pool, y_max * 0.55, &label, style.palette.pool, style)
}

/// The knee's marker, when some batch meets the target.
pub fn mark_knee<DB: DrawingBackend>(
    chart: &mut BatchChart<'_, DB>,
    curves: &Curves,
    y_max: f64,
    style: &ChartStyle,
) -> DrawResult<DB> {
    if curves.knee_batch == 0 {
        return Ok(());
    }
    let label = format!("knee {}", thousands(f64::from(curves.knee_batch)));
    vertical_marker(chart, f64::from(curves.knee_batch), y_max, &label, style.palette.knee, style)
}

/// (batch, value) for every point, ready for a line series.
pub fn batch_series(points: &[BatchPoint], value: impl Fn(&BatchPoint) -> f64) -> Vec<(f64, f64)> {
    points.iter().map(|pt| (f64::from(pt.batch), value(pt))).collect()
}

/// 1.1 x the largest finite value, or 1 when there is none, so an axis never collapses.
pub fn axis_top(values: impl Iterator<Item = f64>) -> f64 {
    let top = values.filter(|v| v.is_finite()).fold(0.0_f64, f64::max);
    if top > 0.0 {
        top * 1.1
    } else {
        1.0
    }
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

/// The end of a sweep chart's rate axis: 1.1 x the highest rate swept or the goodput, so the
/// attainment and throughput charts share it and read side by side.
pub fn sweep_rate_max(sweep: &Sweep) -> f64 {
    let rates = sweep.points.iter().map(|pt| pt.rate_req_per_s);
    axis_top(rates.chain(std::iter::once(sweep.goodput_req_per_s)))
}

/// (rate, value) for every point of a sweep whose rate and value are finite numbers, ready for a
/// line series.
pub fn sweep_series(sweep: &Sweep, value: impl Fn(&RatePoint) -> f64) -> Vec<(f64, f64)> {
    let xy = sweep.points.iter().map(|pt| (pt.rate_req_per_s, value(pt)));
    xy.filter(|(x, y)| x.is_finite() && y.is_finite()).collect()
}

/// What a sweep chart's rate axis shows: the rate offered (open load) or achieved (closed load).
pub fn sweep_rate_desc(load: LoadMode) -> &'static str {
    match load {
        LoadMode::Open => "Offered requests/s",
        LoadMode::Closed => "Achieved requests/s (closed loop)",
    }
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
