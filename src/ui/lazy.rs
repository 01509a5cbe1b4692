//! Lazily loaded panels: the page's side. A panel's body (the simulator's, the measured points') lives in a second wasm
//! module, `goodput_extras` (src/bin/goodput_extras.rs), that the page fetches only when such a panel
//! first opens, so a first visit downloads none of it. State flows through [`super::island`]'s events.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The second module's wasm-bindgen glue (Trunk names a `data-type="worker"` asset after its bin and
/// never hashes it), relative to the page so the site works under any sub-path.
const EXTRAS_URL: &str = "./goodput_extras.js";

#[wasm_bindgen(inline_js = r#"
let extras;
export function load_extras(url) {
  if (!extras) {
    extras = import(url).then(async (m) => { await m.default(); return m; });
    extras.catch(() => { extras = undefined; });
  }
  return extras;
}
"#)]
extern "C" {
    /// Imports the module once (a failed import is retried next time) and resolves to its exports.
    fn load_extras(url: &str) -> js_sys::Promise;
}

/// The absolute URL of `relative`, resolved against the document (so under any sub-path).
fn resolve(relative: &str) -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    Some(web_sys::Url::new_with_base(relative, &base).ok()?.href())
}

/// Loads the extras module and calls `export(args...)` on it; resolves to what it returns.
pub async fn call_extras(export: &str, args: &js_sys::Array) -> Result<JsValue, String> {
    let url = resolve(EXTRAS_URL).ok_or("the page has no base URL")?;
    let module = JsFuture::from(load_extras(&url)).await.map_err(describe)?;
    let f = js_sys::Reflect::get(&module, &JsValue::from_str(export)).map_err(describe)?;
    let f = f.dyn_into::<js_sys::Function>().map_err(|_| format!("the extras module has no {export}"))?;
    f.apply(&JsValue::NULL, args).map_err(describe)
}

fn describe(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_else(|| format!("{e:?}"))
}

/// A panel body the extras module draws: an empty `<div id="NAME-island">` it mounts into, with a
/// status line while it loads (or why it could not). `query` is the page's state when the body opens.
#[component]
pub fn Island(name: &'static str, query: Memo<String>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let (status, set_status) = signal(Some(String::from("Loading…")));
    // Set once the module failed to load: there is then nothing to unmount, and no import to retry.
    let failed = Arc::new(AtomicBool::new(false));
    let failed_mount = failed.clone();
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let args =
            js_sys::Array::of3(&JsValue::from_str(name), &el, &JsValue::from_str(&query.get_untracked()));
        let failed = failed_mount.clone();
        leptos::task::spawn_local(async move {
            let result = call_extras("mount_panel", &args).await;
            failed.store(result.is_err(), Ordering::Relaxed);
            set_status.set(
                result.err().map(|e| format!("This panel could not load: {e}. Reload the page to retry.")),
            );
        });
    });
    on_cleanup(move || {
        if failed.load(Ordering::Relaxed) {
            return;
        }
        let args = js_sys::Array::of1(&JsValue::from_str(name));
        leptos::task::spawn_local(async move {
            let _ = call_extras("unmount_panel", &args).await;
        });
    });
    view! {
        <p class="hint island-status" role="status" hidden=move || status.get().is_none()>{move || status.get()}</p>
        <div id=format!("{name}-island") class="island" node_ref=node></div>
    }
}
