//! Export buttons: each chart as PNG (the canvas as drawn) and as SVG (the same draw function through
//! plotters' SVG backend at the canvas's CSS size and the current look), and the tables as CSV.
//! Downloads go through a Blob, an object URL and a temporary `<a download>`; names come from
//! `crate::view::export::file_name`.

use std::time::Duration;

use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};
use wasm_bindgen::prelude::*;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement};

use crate::chart::batch::{draw, BatchDraw};
use crate::chart::ChartStyle;
use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;
use crate::core::plan::SimResult;
use crate::state::view::Look;
use crate::state::Inputs;
use crate::ui::canvas::text_measure::Measured;
use crate::ui::context::linked::Linked;
use crate::ui::context::panel::PanelContext;
use crate::view::batch_chart::BatchChart;
use crate::view::export::{file_name, sim_sweep_csv};

/// The inputs of the [`PanelContext`] the export sits in (the page's, or the lazy module's mirror
/// of it), so every download is named after the scenario on screen.
fn inputs() -> Inputs {
    PanelContext::get().inputs.get_untracked()
}

/// PNG and SVG buttons for one of the batch charts.
#[component]
pub fn BatchChartExport(
    kind: BatchChart,
    curves: Memo<Curves>,
    look: Signal<Look>,
    linked: Linked,
) -> impl IntoView {
    let svg = move |size, look, name: String| {
        let here = move || {
            let mark = linked.marked.get_untracked();
            batch_chart_svg(kind, &curves.get_untracked(), mark.as_ref(), size, look)
        };
        svg_of_page(kind, size, look, name, here);
    };
    export_buttons(kind.id(), kind.panel().id(), kind.title(), look, svg)
}

/// Draws the page's batch chart as SVG and downloads it as `name`. With the `lazy_panels` feature
/// the lazy module draws it from the page's state (an [`SvgRequest`]: it holds the SVG backend,
/// so the page's module does without; `here` is never called, so its code stays out); without it,
/// `here` draws it.
#[cfg(feature = "lazy_panels")]
fn svg_of_page<F: FnOnce() -> Option<String>>(
    kind: BatchChart,
    size_px: (u32, u32),
    look: Look,
    name: String,
    _here: F,
) {
    use crate::protocol::panel::SvgRequest;
    let state = PanelContext::get().state_untracked();
    let request = SvgRequest { chart: kind.panel(), state, look, size_px };
    leptos::task::spawn_local(async move {
        deliver_svg(crate::ui::lazy::exports::chart_svg(&request).await, &name);
    });
}

/// Draws the page's batch chart as SVG with `here` and downloads it as `name` (the one-file build).
#[cfg(not(feature = "lazy_panels"))]
fn svg_of_page<F: FnOnce() -> Option<String>>(_: BatchChart, _: (u32, u32), _: Look, name: String, here: F) {
    deliver_svg(here(), &name);
}

/// Downloads the batch table of `inputs` as CSV named `name`. With the `lazy_panels` feature the
/// lazy module writes it (its `table_csv` export, given the page's state): the page's module has
/// no CSV writer.
#[cfg(feature = "lazy_panels")]
fn table_csv_of_page(_: Inputs, name: String) {
    let state = PanelContext::get().state_untracked();
    leptos::task::spawn_local(async move {
        match crate::ui::lazy::exports::table_csv(&state).await {
            Some(csv) => download_text(&csv, "text/csv;charset=utf-8", &name),
            None => leptos::logging::warn!("{name}: nothing to export"),
        }
    });
}

/// Downloads the batch table of `inputs` as CSV named `name` (the one-file build).
#[cfg(not(feature = "lazy_panels"))]
fn table_csv_of_page(inputs: Inputs, name: String) {
    download_text(&crate::view::export::table_csv(&inputs), "text/csv;charset=utf-8", &name);
}

/// The batch chart `kind` of `curves` with `mark` as an SVG string of `size` CSS pixels in `look`.
pub fn batch_chart_svg(
    kind: BatchChart,
    c: &Curves,
    mark: Option<&BatchPoint>,
    size: (u32, u32),
    look: Look,
) -> Option<String> {
    render_svg(size, look, kind.title(), |root, style| {
        draw(root, &BatchDraw::new(kind, c, style).marked(mark)).map(drop)
    })
}

/// Downloads `svg` as `name`, or says there was nothing to export.
pub(crate) fn deliver_svg(svg: Option<String>, name: &str) {
    match svg {
        Some(text) => download_text(&text, "image/svg+xml", name),
        None => leptos::logging::warn!("{name}: nothing to export"),
    }
}

/// A small toolbar under a chart: download the canvas as PNG, or the chart redrawn as SVG by `svg`
/// (given the canvas's CSS size, the look and the file name; it downloads the file itself).
pub(crate) fn export_buttons(
    canvas_id: &'static str,
    what: &'static str,
    title: &'static str,
    look: Signal<Look>,
    svg: impl Fn((u32, u32), Look, String) + 'static,
) -> impl IntoView {
    let png = move |_| {
        if let Some(canvas) = canvas(canvas_id) {
            // A draw may be waiting for the next frame (or for the chart to scroll into view).
            crate::ui::canvas::frame_draw::flush_canvas(canvas_id);
            download_canvas_png(&canvas, file_name(&inputs(), what, "png"));
        }
    };
    let svg = move |_| {
        let size =
            canvas(canvas_id).map(|c| (c.client_width().max(0) as u32, c.client_height().max(0) as u32));
        match size.filter(|(w, h)| *w > 0 && *h > 0) {
            Some(size) => svg(size, look.get_untracked(), file_name(&inputs(), what, "svg")),
            None => leptos::logging::warn!("chart {canvas_id}: nothing to export"),
        }
    };
    view! {
        <div class="export-bar" role="group" aria-label=format!("Download: {title}")>
            <button type="button" id=format!("export-{what}-png") on:click=png
                aria-label=format!("Download “{title}” as PNG")>"PNG"</button>
            <button type="button" id=format!("export-{what}-svg") on:click=svg
                aria-label=format!("Download “{title}” as SVG")>"SVG"</button>
        </div>
    }
}

/// The batch table's CSV button; hidden while no batch can run (there is no table then). The CSV is
/// [`crate::view::export::table_csv`] of the page's inputs (the rows the table shows).
#[component]
pub fn TableExport(shown: Signal<bool>) -> impl IntoView {
    let download = move |_| {
        let i = inputs();
        table_csv_of_page(i, file_name(&i, "table", "csv"));
    };
    view! {
        <Show when=move || shown.get()>
            <div class="export-bar table-export">
                <button type="button" id="export-table-csv" on:click=download>"Download the table (CSV)"</button>
            </div>
        </Show>
    }
}

/// The simulator data table's CSV button, once a sweep has landed.
#[component]
pub fn SimTableExport(result: Signal<Option<SimResult>>) -> impl IntoView {
    let download = move |_| {
        let Some(r) = result.get_untracked() else { return };
        let csv = sim_sweep_csv(&r.sweep, r.load, r.counting);
        download_text(&csv, "text/csv;charset=utf-8", &file_name(&inputs(), "sim-table", "csv"));
    };
    view! {
        <div class="export-bar table-export">
            <button type="button" id="export-sim-table-csv" on:click=download
                disabled=move || result.get().is_none()>"Download the data (CSV)"</button>
        </div>
    }
}

/// `draw` rendered into an SVG string of `size` CSS pixels in `look` (device pixel ratio 1), with
/// the chart's title as the SVG's `<title>`; `None` if drawing failed.
pub(crate) fn render_svg<E: std::fmt::Debug>(
    size: (u32, u32),
    look: Look,
    title: &str,
    draw: impl FnOnce(&DrawingArea<Measured<SVGBackend<'_>>, Shift>, &ChartStyle) -> Result<(), E>,
) -> Option<String> {
    let mut svg = String::new();
    {
        let root = Measured(SVGBackend::with_string(&mut svg, size)).into_drawing_area();
        if let Err(e) = draw(&root, &look.style(1.0)) {
            leptos::logging::warn!("SVG export of {title} failed: {e:?}");
            return None;
        }
    }
    Some(with_title(&svg, title))
}

/// The SVG with `<title>` (escaped) as its first child, so the file names its chart.
fn with_title(svg: &str, title: &str) -> String {
    let escaped = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    match svg.find("<svg").and_then(|start| svg[start..].find('>').map(|end| start + end + 1)) {
        Some(at) => format!("{}\n<title>{escaped}</title>{}", &svg[..at], &svg[at..]),
        None => svg.to_string(),
    }
}

/// The canvas with this id, if the page has it.
fn canvas(id: &str) -> Option<HtmlCanvasElement> {
    let document = web_sys::window()?.document()?;
    document.get_element_by_id(id)?.dyn_into::<HtmlCanvasElement>().ok()
}

/// The canvas's pixels as a PNG file (the browser encodes it off the main path, then calls back).
fn download_canvas_png(canvas: &HtmlCanvasElement, name: String) {
    let callback = Closure::once_into_js(move |blob: JsValue| match blob.dyn_into::<Blob>() {
        Ok(blob) => download_blob(&blob, &name),
        Err(_) => leptos::logging::warn!("the canvas gave no PNG"),
    });
    if canvas.to_blob(callback.unchecked_ref()).is_err() {
        leptos::logging::warn!("the canvas could not be encoded as PNG");
    }
}

/// `text` as a file of type `mime`.
pub(crate) fn download_text(text: &str, mime: &str, name: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    match Blob::new_with_str_sequence_and_options(&parts, &options) {
        Ok(blob) => download_blob(&blob, name),
        Err(_) => leptos::logging::warn!("could not make a {mime} file"),
    }
}

/// Saves `blob` as `name`: an object URL on a temporary `<a download>`, clicked, then released.
fn download_blob(blob: &Blob, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    let link = document.create_element("a").ok().and_then(|a| a.dyn_into::<HtmlAnchorElement>().ok());
    if let (Some(link), Some(body)) = (link, document.body()) {
        link.set_href(&url);
        link.set_download(name);
        let _ = body.append_child(&link);
        link.click();
        link.remove();
    }
    // Released a little later: some browsers start reading the URL after click() returns.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        Duration::from_secs(10),
    );
}
