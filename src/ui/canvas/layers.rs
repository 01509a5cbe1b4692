//! A batch chart's canvas in two layers: the part under its data (background, legend, grid, axes
//! and their labels, [`Layer::Under`]) kept as a bitmap, and the part over it painted on that bitmap.
//!
//! Each draw records both parts on a [`Recording`] (no canvas call; text measured as the canvas
//! measures it). When the part under's record equals the one the bitmap was painted from, the
//! bitmap is copied onto the canvas; otherwise that record is replayed on the canvas and copied to
//! the bitmap. Then the part over is replayed on it. Under then over makes the same calls in the
//! same order as the whole chart, and a replay the same calls as drawing directly
//! (`tests/it/chart_layers.rs`); the bitmap is opaque (the background fills it), so the canvas shows
//! what drawing the whole chart shows. The record is the key: a new theme, size, zoom, axis end or
//! legend changes it, so nothing else decides when the bitmap is stale.
//!
//! Why: canvas text (tick labels, axis titles, the legend) was the largest item of a chart's
//! redraw, and most inputs, and every input of a drag (its axes held), leave all of it unchanged.

use plotters::prelude::IntoDrawingArea;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::chart::batch::{draw, BatchDraw};
use crate::chart::recording::{replay, Call, Recording};
use crate::chart::{ChartFrame, FrameResult, Layer};
use crate::ui::canvas::backend::CachedCanvas;
use crate::ui::canvas::text_measure::Measured;

/// One canvas's part under the data: the calls it was painted from and the bitmap they painted.
#[derive(Default)]
pub struct UnderLayer {
    calls: Vec<Call>,
    size: (u32, u32),
    bitmap: Option<HtmlCanvasElement>,
}

impl UnderLayer {
    /// Draws `what` on `canvas` (its backing store already sized), reusing the bitmap of the part
    /// under when it is still what that part would paint; returns where the plot landed, or `None`
    /// (logged) when the canvas cannot be drawn on.
    pub fn draw(&mut self, canvas: &HtmlCanvasElement, what: &BatchDraw<'_>) -> Option<ChartFrame> {
        let size = (canvas.width(), canvas.height());
        let (under, _) = record(size, what, Layer::Under);
        let (over, frame) = record(size, what, Layer::Over);
        let reused = size == self.size && under == self.calls && self.copy_to(canvas);
        if !reused {
            logged(canvas, replay(&under, &mut CachedCanvas::new(canvas.clone())?))?;
            self.keep(canvas, under, size);
        }
        logged(canvas, replay(&over, &mut CachedCanvas::new(canvas.clone())?))?;
        logged(canvas, frame)
    }

    /// Copies the bitmap onto `canvas`; false when there is none or it cannot be copied.
    fn copy_to(&self, canvas: &HtmlCanvasElement) -> bool {
        let Some(bitmap) = &self.bitmap else { return false };
        context(canvas).is_some_and(|c| c.draw_image_with_html_canvas_element(bitmap, 0.0, 0.0).is_ok())
    }

    /// Keeps what `canvas` shows now as the bitmap of `calls` (forgets both when it cannot).
    fn keep(&mut self, canvas: &HtmlCanvasElement, calls: Vec<Call>, size: (u32, u32)) {
        let bitmap = self.bitmap.take().or_else(new_canvas);
        let copied = bitmap.filter(|b| {
            b.set_width(size.0);
            b.set_height(size.1);
            context(b).is_some_and(|c| c.draw_image_with_html_canvas_element(canvas, 0.0, 0.0).is_ok())
        });
        *self = match copied {
            Some(bitmap) => UnderLayer { calls, size, bitmap: Some(bitmap) },
            None => UnderLayer::default(),
        };
    }
}

/// The calls of drawing `layer` of `what` on a surface of `size`, and where its plot landed.
fn record(
    size: (u32, u32),
    what: &BatchDraw<'_>,
    layer: Layer,
) -> (Vec<Call>, FrameResult<Measured<Recording>>) {
    let (recording, calls) = Recording::new(size);
    let area = Measured(recording).into_drawing_area();
    let style = what.style.on_layer(layer);
    let frame = draw(&area, &BatchDraw { style: &style, ..*what });
    drop(area);
    (calls.take(), frame)
}

/// The result of a drawing pass, a failure logged.
fn logged<T, E: std::fmt::Debug>(canvas: &HtmlCanvasElement, drawn: Result<T, E>) -> Option<T> {
    drawn.map_err(|e| leptos::logging::warn!("chart {} failed to draw: {e:?}", canvas.id())).ok()
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// A canvas never attached to the page.
fn new_canvas() -> Option<HtmlCanvasElement> {
    web_sys::window()?.document()?.create_element("canvas").ok()?.dyn_into().ok()
}
