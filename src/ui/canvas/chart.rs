//! Canvas glue for the charts: size the canvas to its box at devicePixelRatio and draw it (when,
//! `crate::ui::canvas::frame_draw` decides: once per frame, in view). The drawing itself lives in `crate::chart`.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use web_sys::HtmlCanvasElement;

use crate::chart::batch::BatchDraw;
use crate::chart::hold::HeldEnds;
use crate::chart::{ChartFrame, ChartStyle};
use crate::core::curves::Curves;
use crate::state::view::Look;
use crate::ui::canvas::backend::CachedCanvas;
use crate::ui::canvas::export::BatchChartExport;
use crate::ui::canvas::frame_draw::FrameDraw;
use crate::ui::canvas::layers::UnderLayer;
use crate::ui::canvas::overlay::{batch_figure, CanvasFrame};
use crate::ui::canvas::text_measure::Measured;
use crate::ui::context::linked::Linked;
use crate::ui::context::page::PageMemos;
use crate::view::batch_chart::readout_sentence;
use crate::view::batch_chart::{describe, BatchChart};

#[component]
pub fn ChartCanvas(
    kind: BatchChart,
    curves: Memo<Curves>,
    look: Signal<Look>,
    linked: Linked,
) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    let (frame, set_frame) = signal(None::<CanvasFrame>);
    let hold = PageMemos::get().hold;
    // The ends this chart drew before a drag began, kept while it lasts.
    let held = StoredValue::new(None::<HeldEnds>);
    // The part under the data, kept as a bitmap while it would paint the same.
    let under = StoredValue::new_local(UnderLayer::default());
    let redraw = FrameDraw::new(canvas_ref, move |canvas, css| {
        let (Some(look), Some(mark)) = (look.try_get_untracked(), linked.marked.try_get_untracked()) else {
            return false;
        };
        let ends = ends_now(kind, hold.get_untracked().is_held(), held, frame.get_untracked());
        let drawn = curves.try_with_untracked(|data| {
            let style = fit(canvas, css, look)?;
            let what = BatchDraw::new(kind, data, &style).marked(mark.as_ref()).held(ends);
            under.try_update_value(|layer| layer.draw(canvas, &what)).flatten()
        });
        let Some(drawn) = drawn else { return false };
        if drawn.is_some() {
            mark_first_chart();
        }
        // The overlay and the data-plot-* attributes follow the frame: set it only when it moved.
        let next = drawn.map(|f| CanvasFrame::of(f, canvas, css.0));
        if frame.get_untracked() != next {
            set_frame.set(next);
        }
        true
    });
    Effect::new(move |_| {
        curves.track();
        // A release redraws on the chart's own ends even when the curves did not change.
        hold.track();
        linked.marked.track();
        look.track();
        redraw.invalidate();
    });
    let description = move || {
        let text = describe(kind, &curves.get());
        match linked.marked.get() {
            Some(p) => format!("{text} Marked: {}", readout_sentence(&p)),
            None => text,
        }
    };
    let figure = batch_figure(kind, canvas_ref, frame, (linked, curves), description);
    let export = view! { <BatchChartExport kind=kind curves=curves look=look linked=linked/> };
    view! { <div class="panel-slot" data-panel=kind.panel().id()>{figure}{export}</div> }
}

/// Marks `goodput:first-chart` on the page's performance timeline the first time any chart is
/// painted (bench/browser reads it as the time from navigation to the first chart).
fn mark_first_chart() {
    static MARKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !MARKED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            let _ = p.mark("goodput:first-chart");
        }
    }
}

/// A titled figure holding one chart canvas whose text alternative is `description`.
pub(crate) fn chart_figure(
    id: &'static str,
    title: &'static str,
    canvas_ref: NodeRef<Canvas>,
    description: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <figure class="chart">
            <figcaption>{title}</figcaption>
            <div class="chart-box">
                <canvas id=id node_ref=canvas_ref role="img" aria-label=description></canvas>
            </div>
        </figure>
    }
}

/// The most backing pixels per CSS pixel a chart gets: past 2 (phones at 3) lines look no sharper,
/// while the backing store, and the time to clear and fill it, grows with the ratio's square.
const PIXEL_RATIO_MAX: f64 = 2.0;

/// Sizes the canvas to its box ([`fit`]), then lets `draw` paint it in the theme's palette and
/// returns what it returns; a failure is logged, never raised.
pub(crate) fn paint<T, E: std::fmt::Debug>(
    canvas: &HtmlCanvasElement,
    css: (f64, f64),
    look: Look,
    draw: impl FnOnce(&DrawingArea<Measured<CachedCanvas>, Shift>, &ChartStyle) -> Result<T, E>,
) -> Option<T> {
    let style = fit(canvas, css, look)?;
    let Some(backend) = CachedCanvas::new(canvas.clone()) else {
        leptos::logging::warn!("chart {}: the canvas has no 2D context", canvas.id());
        return None;
    };
    let root = Measured(backend).into_drawing_area();
    draw(&root, &style)
        .map_err(|e| leptos::logging::warn!("chart {} failed to draw: {e:?}", canvas.id()))
        .ok()
}

/// Sizes the canvas backing store to its CSS box `css` times devicePixelRatio (at most
/// [`PIXEL_RATIO_MAX`]; only when that changes: resizing reallocates it and dirties the layout);
/// returns the style to draw it in, or `None` for an empty box.
fn fit(canvas: &HtmlCanvasElement, (css_w, css_h): (f64, f64), look: Look) -> Option<ChartStyle> {
    let scale = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| *r > 0.0)
        .map_or(1.0, |r| r.min(PIXEL_RATIO_MAX));
    if css_w < 1.0 || css_h < 1.0 {
        return None;
    }
    let (w_px, h_px) = ((css_w * scale).round() as u32, (css_h * scale).round() as u32);
    if canvas.width() != w_px {
        canvas.set_width(w_px);
    }
    if canvas.height() != h_px {
        canvas.set_height(h_px);
    }
    // Presenting, text and lines grow with the window: the one place chart text is scaled for it.
    Some(look.style(scale * presented_zoom()))
}

/// [`crate::chart::presentation_zoom`] for the window while `<html data-mode="present">`, else 1.
fn presented_zoom() -> f64 {
    let Some(window) = web_sys::window() else { return 1.0 };
    let root = window.document().and_then(|d| d.document_element());
    if root.and_then(|r| r.get_attribute("data-mode")).as_deref() != Some("present") {
        return 1.0;
    }
    let css = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64());
    match (css(window.inner_width()), css(window.inner_height())) {
        (Some(w), Some(h)) => crate::chart::presentation_zoom((w, h)),
        _ => 1.0,
    }
}

/// The ends to draw now: while a drag holds (`dragging`), those `held` from the `last` frame drawn
/// before it began (kept until it ends); else the chart's own.
fn ends_now(
    kind: BatchChart,
    dragging: bool,
    held: StoredValue<Option<HeldEnds>>,
    last: Option<CanvasFrame>,
) -> HeldEnds {
    if !dragging {
        held.set_value(None);
        return HeldEnds::NONE;
    }
    let kept = held.get_value().or_else(|| last.map(|cf| held_ends(kind, &cf.frame)));
    held.set_value(kept);
    kept.unwrap_or(HeldEnds::NONE)
}

/// The ends a drag keeps from the frame `kind` drew before it: the y end, and the interactivity
/// chart's x end too (the batch charts' batch axis is held in their curves).
fn held_ends(kind: BatchChart, frame: &ChartFrame) -> HeldEnds {
    let x = (kind == BatchChart::Interactivity).then_some(frame.x_range.1);
    HeldEnds { x, y: Some(frame.y_range.1) }
}
