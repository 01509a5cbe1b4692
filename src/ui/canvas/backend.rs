//! A plotters backend on a canvas 2D context that draws what plotters-canvas 0.3 draws, call for
//! call, but sets the context's styles only when they change: plotters-canvas formats a fresh
//! `rgba(...)` string, sends it across the wasm boundary and has the canvas parse it for every
//! primitive (each grid line, tick and label), and sets the font, alignment and baseline per label.
//! Runs of lines of one colour and width are stroked as one path (`crate::chart::path_batch`).

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::ui::canvas::calls::{css_color, failed, half_pixel, CanvasError, Context2d, Path2D, Rgba};

use crate::chart::path_batch::{PathBatch, StrokeKey};

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
    /// Lines waiting to be stroked together; stroked before anything else is drawn.
    batch: PathBatch,
}

impl CachedCanvas {
    /// A backend drawing on `canvas`, or `None` when it has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CachedCanvas { canvas, context, set: Set::default(), batch: PathBatch::default() })
    }

    /// Strokes the waiting lines, if any.
    fn flush(&mut self) -> Drawn {
        let Some((((r, g, b), alpha, width), data)) = self.batch.take() else { return Ok(()) };
        self.stroke_with(((r, g, b), alpha), width);
        let path = Path2D::new(&data).map_err(failed)?;
        self.context.unchecked_ref::<Context2d>().stroke_path(&path);
        Ok(())
    }

    /// Adds a polyline through `points` to the waiting lines, stroking those first when they
    /// differ from `style`.
    fn add_stroke(
        &mut self,
        style: &impl BackendStyle,
        points: impl IntoIterator<Item = (f64, f64)>,
    ) -> Drawn {
        let color = style.color();
        let key: StrokeKey = (color.rgb, color.alpha, style.stroke_width());
        if !self.batch.accepts(key) {
            self.flush()?;
        }
        self.batch.add(key, points);
        Ok(())
    }

    fn fill(&mut self, color: BackendColor) {
        if self.set.fill != Some((color.rgb, color.alpha)) {
            self.context.set_fill_style_str(&css_color(color));
            self.set.fill = Some((color.rgb, color.alpha));
        }
    }

    fn stroke(&mut self, style: &impl BackendStyle) {
        let color = style.color();
        self.stroke_with((color.rgb, color.alpha), style.stroke_width());
    }

    fn stroke_with(&mut self, color: Rgba, width: u32) {
        if self.set.stroke != Some(color) {
            let (rgb, alpha) = color;
            self.context.set_stroke_style_str(&css_color(BackendColor { rgb, alpha }));
            self.set.stroke = Some(color);
        }
        if self.set.line_width != Some(width) {
            self.context.set_line_width(f64::from(width));
            self.set.line_width = Some(width);
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
        self.flush()
    }
    fn draw_pixel(&mut self, at: BackendCoord, color: BackendColor) -> Drawn {
        self.flush()?;
        if color.alpha > 0.0 {
            self.fill(color);
            self.context.fill_rect(f64::from(at.0), f64::from(at.1), 1.0, 1.0);
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        if style.color().alpha > 0.0 {
            let (from, to) = half_pixel(from, to);
            self.add_stroke(style, [from, to])?;
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
        self.flush()?;
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
        self.add_stroke(style, path.into_iter().map(|(x, y)| (f64::from(x), f64::from(y))))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.flush()?;
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
        self.flush()?;
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
        self.flush()?;
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

impl Drop for CachedCanvas {
    /// A drawing that ends without `present` still shows its last lines.
    fn drop(&mut self) {
        let _ = self.flush();
    }
}
