//! The lazily loaded panels' module: the page imports it (src/ui/lazy.rs) when such a panel first
//! opens and calls these exports with postcard-encoded `goodput_lab::protocol::panel` messages; the
//! panels themselves live in `goodput_lab::ui::shell::lazy_module`, and later messages travel over
//! `goodput_lab::ui::context::channel`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// Mounts the panel body a `Mount` message (`mount`, postcard bytes) names into `el`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn mount_panel(el: web_sys::HtmlElement, mount: Vec<u8>) {
    goodput_lab::ui::shell::lazy_module::mount_panel(el, &mount);
}

/// The page's batch chart an `SvgRequest` (postcard bytes) asks for, as SVG (the page's wasm has
/// no SVG backend); `None` if it cannot be drawn.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn chart_svg(request: Vec<u8>) -> Option<String> {
    goodput_lab::ui::shell::lazy_module::chart_svg(&request)
}

/// The page's batch table as CSV, from its state (`PanelState`, postcard bytes); `None` if the
/// bytes are not one (the page's wasm has no CSV writer).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn table_csv(state: Vec<u8>) -> Option<String> {
    goodput_lab::ui::shell::lazy_module::table_csv(&state)
}

/// Runs once when the module is instantiated: panics report to the console and show the page's
/// error banner, as the page's own do.
#[cfg(target_arch = "wasm32")]
fn main() {
    goodput_lab::ui::shell::lazy_module::start();
}

/// Natively there is no page to draw into.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("goodput_lazy is a browser module: use `make serve`.");
}
