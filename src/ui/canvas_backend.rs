//! A plotters backend on a canvas 2D context that draws what plotters-canvas 0.3 draws, call for
//! call, but sets the context's styles only when they change: plotters-canvas formats a fresh
//! `rgba(...)` string, sends it across the wasm boundary and has the canvas parse it for every
//! primitive (each grid line, tick and label), and sets the font, alignment and baseline per label.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A failed canvas call, as the browser described it.
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "canvas error: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

fn failed(e: JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(format!("{e:?}")))
}

/// A colour as plotters hands it over: (red, green, blue) and alpha.
type Rgba = ((u8, u8, u8), f64);

/// The context state last set by this backend (`None`: not set yet, so unknown).
#[derive(Clone, Default)]
struct Set {
    fill: Option<Rgba>,
    stroke: Option<Rgba>,
    line_width: Option<u32>,
    font: Option<(String, f64, String)>,
    align: Option<&'static str>,
    baseline: Option<&'static str>,
}

/// The canvas and its 2D context, with the styles already set on it.
pub struct CachedCanvas {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    set: Set,
}

impl CachedCanvas {
    /// A backend drawing on `canvas`, or `None` when it has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CachedCanvas { canvas, context, set: Set::default() })
    }

    fn fill(&mut self, color: BackendColor) {
        if self.set.fill != Some((color.rgb, color.alpha)) {
            self.context.set_fill_style_str(&css_color(color));
            self.set.fill = Some((color.rgb, color.alpha));
        }
    }

    fn stroke(&mut self, style: &impl BackendStyle) {
        let color = style.color();
        if self.set.stroke != Some((color.rgb, color.alpha)) {
            self.context.set_stroke_style_str(&css_color(color));
            self.set.stroke = Some((color.rgb, color.alpha));
        }
        if self.set.line_width != Some(style.stroke_width()) {
            self.context.set_line_width(f64::from(style.stroke_width()));
            self.set.line_width = Some(style.stroke_width());
        }
    }

    fn text_style(&mut self, style: &impl BackendTextStyle) {
        let anchor = style.anchor();
        let baseline = match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if self.set.baseline != Some(baseline) {
            self.context.set_text_baseline(baseline);
            self.set.baseline = Some(baseline);
        }
        let align = match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        if self.set.align != Some(align) {
            self.context.set_text_align(align);
            self.set.align = Some(align);
        }
        self.fill(style.color());
        let (family, size, weight) = (style.family(), style.size(), style.style());
        let same = self
            .set
            .font
            .as_ref()
            .is_some_and(|(f, s, w)| f == family.as_str() && *s == size && w == weight.as_str());
        if !same {
            self.context.set_font(&format!("{} {}px {}", weight.as_str(), size, family.as_str()));
            self.set.font = Some((family.as_str().to_string(), size, weight.as_str().to_string()));
        }
    }
}

/// The colour as plotters-canvas writes it.
fn css_color(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

/// A horizontal or vertical line moved half a pixel, as plotters-canvas does (crisp 1 px lines).
fn half_pixel(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut from, mut to) = ((f64::from(from.0), f64::from(from.1)), (f64::from(to.0), f64::from(to.1)));
    if from.0 == to.0 {
        from.0 -= 0.5;
        to.0 -= 0.5;
    }
    if from.1 == to.1 {
        from.1 -= 0.5;
        to.1 -= 0.5;
    }
    (from, to)
}

type Drawn = Result<(), DrawingErrorKind<CanvasError>>;

impl DrawingBackend for CachedCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }
    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }
    fn present(&mut self) -> Drawn {
        Ok(())
    }
    fn draw_pixel(&mut self, at: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha > 0.0 {
            self.fill(color);
            self.context.fill_rect(f64::from(at.0), f64::from(at.1), 1.0, 1.0);
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        if style.color().alpha > 0.0 {
            let (from, to) = half_pixel(from, to);
            self.stroke(style);
            self.context.begin_path();
            self.context.move_to(from.0, from.1);
            self.context.line_to(to.0, to.1);
            self.context.stroke();
        }
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        ul: BackendCoord,
        br: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (x, y, w, h) = (f64::from(ul.0), f64::from(ul.1), f64::from(br.0 - ul.0), f64::from(br.1 - ul.1));
        if fill {
            self.fill(style.color());
            self.context.fill_rect(x, y, w, h);
        } else {
            self.stroke(style);
            self.context.stroke_rect(x, y, w, h);
        }
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut path = path.into_iter();
        self.context.begin_path();
        if let Some(start) = path.next() {
            self.stroke(style);
            self.context.move_to(f64::from(start.0), f64::from(start.1));
            for next in path {
                self.context.line_to(f64::from(next.0), f64::from(next.1));
            }
        }
        self.context.stroke();
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut vert = vert.into_iter();
        self.context.begin_path();
        if let Some(start) = vert.next() {
            self.fill(style.color());
            self.context.move_to(f64::from(start.0), f64::from(start.1));
            for next in vert {
                self.context.line_to(f64::from(next.0), f64::from(next.1));
            }
            self.context.close_path();
        }
        self.context.fill();
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        if fill {
            self.fill(style.color());
        } else {
            self.stroke(style);
        }
        self.context.begin_path();
        let (x, y) = (f64::from(center.0), f64::from(center.1));
        self.context.arc(x, y, f64::from(radius), 0.0, std::f64::consts::TAU).map_err(failed)?;
        if fill {
            self.context.fill();
        } else {
            self.context.stroke();
        }
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, at: BackendCoord) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let degrees = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        let (x, y) = (f64::from(at.0), f64::from(at.1));
        if degrees == 0.0 {
            self.text_style(style);
            return self.context.fill_text(text, x, y).map_err(failed);
        }
        // save() and restore() bracket the rotation; restore() also puts back the styles set in between.
        let before = self.set.clone();
        self.context.save();
        self.context.translate(x, y).map_err(failed)?;
        self.context.rotate(degrees / 180.0 * std::f64::consts::PI).map_err(failed)?;
        self.text_style(style);
        let drawn = self.context.fill_text(text, 0.0, 0.0).map_err(failed);
        self.context.restore();
        self.set = before;
        drawn
    }
}
