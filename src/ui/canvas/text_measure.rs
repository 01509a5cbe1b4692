//! A plotters backend wrapper that measures text with the canvas 2D API (`measureText`).
//!
//! Left alone, plotters measures every label in the browser by adding a `<span style="…">` to the
//! page and reading its size: an inline style attribute, which the page's Content-Security-Policy
//! (`style-src 'self'`) refuses (the span then measures at the wrong size), and a forced layout per
//! label. [`Measured`] forwards all drawing to the wrapped backend (canvas or SVG) and answers
//! `estimate_text_size` from one off-screen canvas context instead.

use std::cell::RefCell;
use std::collections::HashMap;

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

thread_local! {
    /// The 2D context of a canvas that is never attached (only its text metrics are used), the
    /// font last set on it, and the sizes measured so far by (font, text): a redraw asks again for
    /// the same tick labels, and each `measureText` is a call into the browser.
    static MEASURE: RefCell<Measurer> = RefCell::default();
}

#[derive(Default)]
struct Measurer {
    context: Option<CanvasRenderingContext2d>,
    font: String,
    sizes: HashMap<(String, String), (u32, u32)>,
}

/// Sizes remembered at most; past it the memory starts again (labels change with the scenario).
const SIZES_MAX: usize = 2048;

/// `B` with text measured by the canvas 2D API (see the module documentation).
pub struct Measured<B>(pub B);

/// Width and height in pixels of `text` in `style`, as the canvas lays it out; `None` without a
/// document or a 2D context.
fn measure<S: BackendTextStyle>(text: &str, style: &S) -> Option<(u32, u32)> {
    // The same font string plotters-canvas draws with.
    let font = format!("{} {}px {}", style.style().as_str(), style.size(), style.family().as_str());
    MEASURE.with(|cell| {
        let mut m = cell.borrow_mut();
        let key = (font, text.to_string());
        if let Some(size) = m.sizes.get(&key) {
            return Some(*size);
        }
        if m.context.is_none() {
            let canvas = web_sys::window()?.document()?.create_element("canvas").ok()?;
            let canvas = canvas.dyn_into::<web_sys::HtmlCanvasElement>().ok()?;
            m.context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok();
        }
        let context = m.context.clone()?;
        if m.font != key.0 {
            context.set_font(&key.0);
            m.font = key.0.clone();
        }
        let metrics = context.measure_text(text).ok()?;
        let line = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        let height = if line.is_finite() && line > 0.0 { line } else { style.size() * 1.2 };
        let size = (metrics.width().max(0.0).ceil() as u32, height.ceil() as u32);
        if m.sizes.len() >= SIZES_MAX {
            m.sizes.clear();
        }
        m.sizes.insert(key, size);
        Some(size)
    })
}

impl<B: DrawingBackend> DrawingBackend for Measured<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.present()
    }
    fn draw_pixel(
        &mut self,
        at: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_pixel(at, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        at: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.draw_text(text, style, at)
    }
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        match measure(text, style) {
            Some(size) => Ok(size),
            None => self.0.estimate_text_size(text, style),
        }
    }
    fn blit_bitmap(
        &mut self,
        at: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.0.blit_bitmap(at, size, src)
    }
}
