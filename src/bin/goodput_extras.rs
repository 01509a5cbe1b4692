//! The lazily loaded panels' module: the page imports it (src/ui/island.rs) when such a panel first
//! opens and calls these exports; the panels themselves live in `goodput_lab::ui::extras`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// Mounts panel `name`'s body into `el`, starting from the page's state `query`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn mount_panel(name: &str, el: web_sys::HtmlElement, query: String) {
    goodput_lab::ui::extras::mount_panel(name, el, query);
}

/// Unmounts panel `name`'s body.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn unmount_panel(name: &str) {
    goodput_lab::ui::extras::unmount_panel(name);
}

/// The page's batch chart `kind` for the page state `query` as SVG (the page's wasm has no SVG
/// backend); `None` if it cannot be drawn.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn chart_svg(kind: &str, query: &str, look: &str, width: u32, height: u32) -> Option<String> {
    goodput_lab::ui::extras::chart_svg(kind, query, look, (width, height))
}

/// Runs once when the module is instantiated: panics report to the console and show the page's
/// error banner, as the page's own do.
#[cfg(target_arch = "wasm32")]
fn main() {
    goodput_lab::ui::extras::start();
}

/// Natively there is no page to draw into.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("goodput_extras is a browser module: use `make serve`.");
}
