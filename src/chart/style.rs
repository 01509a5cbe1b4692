//! The charts' look: palettes per theme, the look a page picks, the style (colours and device
//! pixels) every chart draws with, and how much a presentation scales chart text with the screen.

use crate::state::view::Look;
use plotters::prelude::*;

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

/// A look's colours and scale, for drawing ([`Look`] itself is view state).
impl Look {
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
        ChartStyle { palette: self.palette(), scale: device_pixel_ratio * self.zoom(), layer: Layer::Whole }
    }
}

/// The screen, in CSS pixels, at which a presented chart's text is drawn at its page size; a larger
/// one scales it up in proportion (the lesser of the two ratios), so a projector's back row reads
/// tick labels at 1920 x 1080 (13 px x 1.35 x 1.67: 29 px) as well as at 1280 x 800.
pub const PRESENT_SCREEN_CSS_PX: (f64, f64) = (1150.0, 650.0);

/// The most a presentation scales chart text and lines up (a 4K window at devicePixelRatio 1).
pub const PRESENT_ZOOM_MAX: f64 = 3.0;

/// The least: on a phone the projector look's larger text (x [`Look::zoom`]) comes back to about the
/// page's, so a 350 px chart keeps its labels apart and inside it.
pub const PRESENT_ZOOM_MIN: f64 = 0.75;

/// How much larger than the projector look on the page a presented chart draws its text and lines in a
/// viewport of `(width, height)` CSS pixels: the smaller of the viewport's ratios to
/// [`PRESENT_SCREEN_CSS_PX`], within [`PRESENT_ZOOM_MIN`] and [`PRESENT_ZOOM_MAX`] (1 for a size
/// that is not a number).
pub fn presentation_zoom((width, height): (f64, f64)) -> f64 {
    let ratio = (width / PRESENT_SCREEN_CSS_PX.0).min(height / PRESENT_SCREEN_CSS_PX.1);
    if ratio.is_finite() {
        ratio.clamp(PRESENT_ZOOM_MIN, PRESENT_ZOOM_MAX)
    } else {
        1.0
    }
}

/// How to draw: colours, and device pixels per CSS pixel (devicePixelRatio) for crisp HiDPI output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    pub palette: Palette,
    pub scale: f64,
    /// The part of a batch chart to paint ([`Layer::Whole`] but on the page's canvases).
    pub layer: Layer,
}

/// Which part of a batch chart a drawing pass paints. The canvas keeps the part under the data as a
/// bitmap and paints only the part over it while the part under would come out the same
/// (`crate::ui::canvas::layers`); exports and native tests draw the whole chart. Under then over, on
/// one surface, paints what the whole chart paints: the same calls in the same order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Whole,
    /// The background, the legend, the grid, the axes and their labels and titles.
    Under,
    /// Everything drawn after the axes: the shading past the KV pool, the series, the marks.
    Over,
}

impl Layer {
    /// This pass paints the part under the data.
    pub fn has_under(self) -> bool {
        self != Layer::Over
    }

    /// This pass paints the part over the data.
    pub fn has_over(self) -> bool {
        self != Layer::Under
    }
}

impl ChartStyle {
    /// The same style for the `layer` of a batch chart.
    pub fn on_layer(self, layer: Layer) -> ChartStyle {
        ChartStyle { layer, ..self }
    }

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
