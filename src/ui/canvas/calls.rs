//! The canvas calls the chart backend (`crate::ui::canvas::backend`) makes besides web-sys' own: a
//! `Path2D` from SVG path data and `stroke(path)`; its error type; colours and crisp lines as
//! plotters-canvas writes them.

use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

#[wasm_bindgen]
extern "C" {
    /// A canvas path (`Path2D`) from SVG path data, and the context's `stroke(path)`: one call
    /// each for a whole batch of lines.
    pub type Path2D;
    #[wasm_bindgen(constructor, catch)]
    pub fn new(data: &str) -> Result<Path2D, JsValue>;
    /// The 2D context, seen only for `stroke(path)`.
    pub type Context2d;
    #[wasm_bindgen(method, js_name = stroke)]
    pub fn stroke_path(this: &Context2d, path: &Path2D);
}

/// A failed canvas call, as the browser described it.
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "canvas error: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

pub fn failed(e: JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(format!("{e:?}")))
}

/// A colour as plotters hands it over: (red, green, blue) and alpha.
pub type Rgba = ((u8, u8, u8), f64);

/// The colour as plotters-canvas writes it.
pub fn css_color(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

/// A horizontal or vertical line moved half a pixel, as plotters-canvas does (crisp 1 px lines).
pub fn half_pixel(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
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
