//! The batch charts' interactive layer: a focusable canvas that turns pointer, touch and arrow keys
//! into the shared hovered batch (inverting the frame the chart was drawn with), and an overlay of
//! absolutely positioned elements (crosshair, ring, read-out) that follows it without a redraw.

use leptos::html::Canvas;
use leptos::prelude::*;
use web_sys::{FocusEvent, HtmlCanvasElement, KeyboardEvent, PointerEvent};

use crate::chart::ChartFrame;
use crate::core::curves::{Curves, MAX_AXIS_BATCH};
use crate::core::goodput::BatchPoint;
use crate::core::nearest::batch_at_speed;
use crate::ui::context::linked::Linked;
use crate::ui::context::page::PageMemos;
use crate::view::batch_chart::BatchChart;
use crate::view::format::calibration::{range_ms, range_rate};
use crate::view::format::references::readout_line;
use crate::view::format::{ms, req_per_s, thousands, yes_no};

/// A drawn chart's frame and the canvas's backing pixels per CSS pixel (devicePixelRatio).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CanvasFrame {
    pub frame: ChartFrame,
    pub px_per_css: f64,
}

impl CanvasFrame {
    /// The frame of `canvas` as just drawn at `css_w` CSS pixels wide.
    pub fn of(frame: ChartFrame, canvas: &HtmlCanvasElement, css_w: f64) -> Self {
        let px_per_css = f64::from(canvas.width()) / css_w.max(1.0);
        CanvasFrame { frame, px_per_css: if px_per_css > 0.0 { px_per_css } else { 1.0 } }
    }

    fn css(&self, px: i32) -> f64 {
        f64::from(px) / self.px_per_css
    }

    /// The plot's (left, top, right, bottom) in CSS pixels from the canvas's top left.
    pub fn plot_css(&self) -> (f64, f64, f64, f64) {
        let f = &self.frame;
        (self.css(f.x_px.0), self.css(f.y_px.1), self.css(f.x_px.1), self.css(f.y_px.0))
    }

    /// The x value a point has on this chart: its batch, or its speed per user.
    fn x_of(kind: BatchChart, p: &BatchPoint) -> f64 {
        match kind {
            BatchChart::Interactivity => p.tokens_per_s_per_user,
            BatchChart::Rate | BatchChart::Step => f64::from(p.batch),
        }
    }

    /// The CSS x of `p`'s column, when it is on the x axis.
    pub fn column(&self, kind: BatchChart, p: &BatchPoint) -> Option<f64> {
        let x = Self::x_of(kind, p);
        let (lo, hi) = self.frame.x_range;
        (x >= lo && x <= hi).then(|| self.css(self.frame.x_to_px(x)))
    }

    /// The CSS (x, y) of `p`'s point on the interactivity chart, when inside the plot.
    pub fn point(&self, kind: BatchChart, p: &BatchPoint) -> Option<(f64, f64)> {
        if kind != BatchChart::Interactivity {
            return None;
        }
        let px = (self.frame.x_to_px(p.tokens_per_s_per_user), self.frame.y_to_px(p.tokens_per_s_per_gpu));
        self.frame.contains_px(px).then(|| (self.css(px.0), self.css(px.1)))
    }
}

/// The batch under a pointer at `client_x`: the nearest whole batch on a batch axis, the batch with
/// the nearest speed per user (within the KV pool) on the interactivity chart.
fn batch_under(
    kind: BatchChart,
    linked: Linked,
    cf: CanvasFrame,
    canvas: &HtmlCanvasElement,
    client_x: f64,
) -> Option<u32> {
    let px = (client_x - canvas.get_bounding_client_rect().left()) * cf.px_per_css;
    match kind {
        BatchChart::Interactivity => {
            let pool = linked.analysis.with_untracked(|analysis| analysis.kv_pool_batch).min(MAX_AXIS_BATCH);
            let speed = cf.frame.x_at(px).max(0.0);
            (pool > 0).then(|| linked.scenario.with_untracked(|s| batch_at_speed(s, speed, pool)))
        }
        BatchChart::Rate | BatchChart::Step => Some(cf.frame.batch_at(px)),
    }
}

/// What the keys do, for the canvas's description.
const KEYS_HELP: &str = "Point at the chart, touch it, or focus it and use the arrow keys to read the values at \
     a batch size; Left and Right move along the axis, Page Up and Page Down move ten batches, Home and End go to \
     batch 1 and the last batch; Enter or Space marks that batch on every chart.";

/// A batch chart's figure: the focusable canvas with its text alternative and key help, the frame
/// exposed as `data-plot-*` attributes (CSS pixels) for tests and tools, and the overlay.
pub fn batch_figure(
    kind: BatchChart,
    canvas_ref: NodeRef<Canvas>,
    frame: ReadSignal<Option<CanvasFrame>>,
    (linked, curves): (Linked, Memo<Curves>),
    description: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    let at = move |ev: PointerEvent| {
        let (Some(cf), Some(canvas)) = (frame.get_untracked(), canvas_ref.get_untracked()) else { return };
        if let Some(b) = batch_under(kind, linked, cf, &canvas, f64::from(ev.client_x())) {
            linked.hover(Some(b));
        }
    };
    // A touch leaves when the finger lifts; its read-out stays until the chart loses focus.
    let leave = move |ev: PointerEvent| {
        if ev.pointer_type() != "touch" {
            linked.hover(None);
        }
    };
    type Edges = (f64, f64, f64, f64);
    let edge =
        move |pick: fn(Edges) -> f64| move || frame.get().map(|cf| format!("{:.2}", pick(cf.plot_css())));
    let range = move |f: fn(&ChartFrame) -> f64| move || frame.get().map(|cf| format!("{}", f(&cf.frame)));
    let keys_id = format!("{}-keys", kind.id());
    view! {
        <figure class="chart">
            <figcaption>{kind.title()}</figcaption>
            <div class="chart-box">
                <canvas id=kind.id() class="batch-chart" node_ref=canvas_ref role="img" aria-label=description
                    tabindex="0" aria-describedby=keys_id.clone()
                    data-plot-left=edge(|e| e.0) data-plot-top=edge(|e| e.1) data-plot-right=edge(|e| e.2) data-plot-bottom=edge(|e| e.3)
                    data-x-min=range(|f| f.x_range.0) data-x-max=range(|f| f.x_range.1)
                    data-y-min=range(|f| f.y_range.0) data-y-max=range(|f| f.y_range.1)
                    on:pointermove=at on:pointerdown=at on:pointerleave=leave
                    on:keydown=move |ev| on_key(&ev, kind, linked, curves)
                    on:blur=move |ev| on_blur(&ev, linked)></canvas>
                <ChartOverlay kind=kind frame=frame linked=linked/>
            </div>
            <p id=keys_id class="chart-keys" hidden>{KEYS_HELP}</p>
        </figure>
    }
}

/// Clears the hovered batch when focus leaves for anything but another batch chart.
fn on_blur(ev: &FocusEvent, linked: Linked) {
    use wasm_bindgen::JsCast;
    let to_chart = ev
        .related_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| el.matches(".batch-chart").unwrap_or(false));
    if !to_chart {
        linked.hover(None);
    }
}

/// Arrow keys, Page Up/Down, Home and End move the hovered batch (starting from the mark, else the
/// knee); Enter and Space mark it. Handled keys go no further (the page's own keys ignore them).
fn on_key(ev: &KeyboardEvent, kind: BatchChart, linked: Linked, curves: Memo<Curves>) {
    let (last, knee) = curves.with_untracked(|c| match kind {
        BatchChart::Interactivity => (c.kv_pool_batch.min(MAX_AXIS_BATCH), c.server_batch),
        BatchChart::Rate | BatchChart::Step => (c.axis_max_batch, c.server_batch),
    });
    if last == 0 {
        return;
    }
    let hovered = linked.hovered.get_untracked();
    let current = i64::from(hovered.or(linked.mark_now()).unwrap_or(knee.max(1)).clamp(1, last));
    // On the interactivity chart faster users (smaller batches) are to the right.
    let right: i64 = if kind == BatchChart::Interactivity { -1 } else { 1 };
    let step = |d: i64| if hovered.is_some() { current + d } else { current };
    let next = match ev.key().as_str() {
        "ArrowRight" => step(right),
        "ArrowLeft" => step(-right),
        "PageUp" => step(10),
        "PageDown" => step(-10),
        "Home" => 1,
        "End" => i64::from(last),
        "Enter" | " " => {
            linked.toggle_mark(current as u32);
            current
        }
        _ => return,
    };
    ev.prevent_default();
    ev.stop_propagation();
    linked.hover(Some(next.clamp(1, i64::from(last)) as u32));
}

/// The crosshair (a vertical line at the hovered batch), the ring on the interactivity chart's
/// point, and the read-out of the shown batch (hovered, else marked) beside its column.
#[component]
fn ChartOverlay(kind: BatchChart, frame: ReadSignal<Option<CanvasFrame>>, linked: Linked) -> impl IntoView {
    let cross = move || frame.get().zip(linked.hovered_point.get()).and_then(|(cf, p)| cf.column(kind, &p));
    let ring = move || frame.get().zip(linked.hovered_point.get()).and_then(|(cf, p)| cf.point(kind, &p));
    let plot = move || frame.get().map(|cf| cf.plot_css()).unwrap_or_default();
    let readout_x = move || frame.get().zip(linked.shown.get()).and_then(|(cf, p)| cf.column(kind, &p));
    // Past the plot's middle the read-out hangs on the column's left.
    let flip = move || readout_x().is_some_and(|x| x > (plot().0 + plot().2) / 2.0);
    let px = |v: f64| format!("{v:.1}px");
    view! {
        <div class="chart-overlay" aria-hidden="true">
            <div class="crosshair" hidden=move || cross().is_none()
                style:left=move || px(cross().unwrap_or_default())
                style:top=move || px(plot().1) style:height=move || px(plot().3 - plot().1)></div>
            <div class="crosshair-ring" hidden=move || ring().is_none()
                style:left=move || px(ring().unwrap_or_default().0)
                style:top=move || px(ring().unwrap_or_default().1)></div>
            <div class="chart-readout" class:flip=flip hidden=move || readout_x().is_none()
                style:left=move || px(readout_x().unwrap_or_default())
                style:top=move || px(plot().1 + 4.0)>
                <Readout linked=linked/>
            </div>
        </div>
    }
}

/// The shown batch's values, one per line, each number in a `data-field` span.
#[component]
fn Readout(linked: Linked) -> impl IntoView {
    let field =
        move |f: fn(&BatchPoint) -> String| move || linked.shown.get().map(|p| f(&p)).unwrap_or_default();
    let is_marked = move || linked.shown.get().is_some_and(|p| linked.view.get().mark_batch == Some(p.batch));
    view! {
        <div class="readout-batch">
            "Batch " <span data-field="batch">{field(|p| thousands(f64::from(p.batch)))}</span>
            <Show when=is_marked>" (marked)"</Show>
        </div>
        <div>
            <span data-field="step">{field(|p| ms(p.step.step_s))}</span>" ms/step · "
            <span data-field="tokens">{field(|p| thousands(p.tokens_per_s))}</span>" tokens/s"
        </div>
        <div>
            <span data-field="req">{field(|p| req_per_s(p.throughput_req_per_s))}</span>" req/s · goodput "
            <span data-field="goodput">{field(|p| req_per_s(p.goodput_req_per_s))}</span>
        </div>
        <div>
            "Meets TPOT: " <span data-field="tpot">{field(|p| yes_no(p.meets_tpot).to_string())}</span>
            " · TTFT: " <span data-field="ttft">{field(|p| yes_no(p.meets_ttft).to_string())}</span>
        </div>
        {move || range_line(linked).map(|line| view! { <div data-field="range">{line}</div> })}
        {move || published_lines(linked).into_iter().map(|line| view! { <div data-field="published">{line}</div> }).collect_view()}
    }
}

/// Under the measured engines, the shown batch's step time and tokens/s as their likely ranges.
fn range_line(linked: Linked) -> Option<String> {
    let (p, memos) = (linked.shown.get()?, use_context::<PageMemos>()?);
    let range = memos.curves.with(|c| c.range)?;
    Some(format!(
        "Likely {} ms/step · {} tokens/s ({})",
        range_ms(&range, p.step.step_s),
        range_rate(&range, p.tokens_per_s),
        range.coverage.word()
    ))
}

/// A line for each published measurement at the shown batch (source on hover).
fn published_lines(linked: Linked) -> Vec<String> {
    let (Some(p), Some(memos)) = (linked.shown.get(), use_context::<PageMemos>()) else { return Vec::new() };
    memos.curves.with(|c| c.references.iter().filter(|r| r.batch == p.batch).map(readout_line).collect())
}
