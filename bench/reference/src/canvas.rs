//! A plotters backend on a canvas 2D context, call for call what plotters-canvas 0.3 draws (a fresh
//! `rgba(...)` string and style per primitive): the stock way to put a plotters chart on a canvas.
//! plotters-canvas itself is not in the app's Cargo.lock, so it cannot resolve offline.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The canvas API never fails in these calls; plotters wants an error type all the same.
#[derive(Debug)]
pub struct CanvasError;

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("canvas error")
    }
}
impl std::error::Error for CanvasError {}

type Drawn = Result<(), DrawingErrorKind<CanvasError>>;

pub struct CanvasBackend {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
}

impl CanvasBackend {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CanvasBackend { canvas, context })
    }

    fn set_line_style(&self, style: &impl BackendStyle) {
        self.context.set_stroke_style_str(&rgba(style.color()));
        self.context.set_line_width(f64::from(style.stroke_width()));
    }
}

fn rgba(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

impl DrawingBackend for CanvasBackend {
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
            self.context.set_fill_style_str(&rgba(color));
            self.context.fill_rect(f64::from(at.0), f64::from(at.1), 1.0, 1.0);
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        if style.color().alpha > 0.0 {
            self.set_line_style(style);
            self.context.begin_path();
            self.context.move_to(f64::from(from.0) + 0.5, f64::from(from.1) + 0.5);
            self.context.line_to(f64::from(to.0) + 0.5, f64::from(to.1) + 0.5);
            self.context.stroke();
        }
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(&mut self, ul: BackendCoord, br: BackendCoord, style: &S, fill: bool) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (x, y, w, h) = (f64::from(ul.0), f64::from(ul.1), f64::from(br.0 - ul.0), f64::from(br.1 - ul.1));
        if fill {
            self.context.set_fill_style_str(&rgba(style.color()));
            self.context.fill_rect(x, y, w, h);
        } else {
            self.set_line_style(style);
            self.context.stroke_rect(x, y, w, h);
        }
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Drawn {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut path = path.into_iter();
        self.set_line_style(style);
        self.context.begin_path();
        if let Some((x, y)) = path.next() {
            self.context.move_to(f64::from(x), f64::from(y));
            for (x, y) in path {
                self.context.line_to(f64::from(x), f64::from(y));
            }
        }
        self.context.stroke();
        Ok(())
    }
    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, at: BackendCoord) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let anchor = style.anchor();
        self.context.set_text_baseline(match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.context.set_text_align(match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.context.set_fill_style_str(&rgba(color));
        self.context.set_font(&format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str()));
        self.context.fill_text(text, f64::from(at.0), f64::from(at.1)).map_err(|_| DrawingErrorKind::DrawingError(CanvasError))
    }
}
