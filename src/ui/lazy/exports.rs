//! The lazy module's exports as typed functions of the page: [`mount_panel`], [`chart_svg`] and
//! [`table_csv`] each take their `crate::protocol::panel` message, load the module once and call
//! the export of the same name in `src/bin/goodput_lazy.rs` (`tests/it/layers.rs` holds the two
//! lists equal). No other code names an export: this file is the whole page side of that call.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::protocol::panel::{to_bytes, Mount, PanelState, SvgRequest};
use crate::ui::js_error::message;

/// The second module's wasm-bindgen glue (Trunk names a `data-type="worker"` asset after its bin and
/// never hashes it), relative to the page so the site works under any sub-path.
const LAZY_URL: &str = "./goodput_lazy.js";

#[wasm_bindgen(inline_js = r#"
let lazy;
export function load_lazy(url) {
  if (!lazy) {
    lazy = import(url).then(async (m) => { await m.default(); return m; });
    lazy.catch(() => { lazy = undefined; });
  }
  return lazy;
}
"#)]
extern "C" {
    /// Imports the module once (a failed import is retried next time) and resolves to its exports.
    fn load_lazy(url: &str) -> js_sys::Promise;
}

/// Mounts the body `mount` names into `el`; an error says why the module or the call failed.
pub async fn mount_panel(el: &web_sys::HtmlElement, mount: &Mount) -> Result<(), String> {
    let bytes = js_sys::Uint8Array::from(to_bytes(mount).as_slice());
    call_lazy("mount_panel", &js_sys::Array::of2(el, &bytes)).await.map(drop)
}

/// The batch chart `request` names as SVG, drawn by the lazy module (the page has no SVG backend).
pub async fn chart_svg(request: &SvgRequest) -> Option<String> {
    let bytes = js_sys::Uint8Array::from(to_bytes(request).as_slice());
    call_lazy("chart_svg", &js_sys::Array::of1(&bytes)).await.ok()?.as_string()
}

/// The batch table of `state` as CSV, written by the lazy module (the page has no CSV writer).
pub async fn table_csv(state: &PanelState) -> Option<String> {
    let bytes = js_sys::Uint8Array::from(to_bytes(state).as_slice());
    call_lazy("table_csv", &js_sys::Array::of1(&bytes)).await.ok()?.as_string()
}

/// Loads the lazy module and calls `export(args...)` on it; resolves to what it returns.
async fn call_lazy(export: &str, args: &js_sys::Array) -> Result<JsValue, String> {
    let url = resolve(LAZY_URL).ok_or("the page has no base URL")?;
    let module = JsFuture::from(load_lazy(&url)).await.map_err(|e| message(&e))?;
    let f = js_sys::Reflect::get(&module, &JsValue::from_str(export)).map_err(|e| message(&e))?;
    let f = f.dyn_into::<js_sys::Function>().map_err(|_| format!("the lazy module has no {export}"))?;
    f.apply(&JsValue::NULL, args).map_err(|e| message(&e))
}

/// The absolute URL of `relative`, resolved against the document (so under any sub-path).
fn resolve(relative: &str) -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    Some(web_sys::Url::new_with_base(relative, &base).ok()?.href())
}
