//! Each worker's WebAssembly module fetched and compiled once, on the main thread, and shared by
//! every worker started on it: the page keeps one `WebAssembly.Module` per wasm file (a promise of
//! it, so workers started while it compiles wait on the same one) and posts it to each new worker,
//! which instantiates it without fetching or compiling anything (`public/worker_boot.js`).
//!
//! Why here and not in each worker: a pool of N workers that each ran wasm-bindgen's `init()` asked
//! for the file N times and compiled it N times (BENCHMARKS.md, issue 26). V8 also tiers a module's
//! hot functions up once for all its instances, so the workers share the optimised code too.
//!
//! The bytes are read whole and compiled with `WebAssembly.compile`, not `compileStreaming`, so a
//! host that serves `.wasm` without the `application/wasm` type (some wiki hosts) still works.
//!
//! The compiles are kept where both of the page's wasm modules see them (a `Map` under a
//! `Symbol.for` key of the global object), because they are asked for from two: the page starts a
//! lazily loaded body's worker compile when that body starts loading
//! ([`crate::ui::workers::ahead`]), beside the lazy module's own download, and the body's pool, in
//! the lazy module, later takes the same promise. Nothing else is shared there: no state, only the
//! compiled modules of fixed files.

use js_sys::{Map, Promise, Uint8Array, WebAssembly};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::Response;

use crate::ui::js_error::message;

/// A worker bin: its two files as Trunk names them (fixed and unhashed for a `data-type="worker"`
/// link), relative to the page, its wasm-bindgen glue (`web` target) and its wasm; and how many
/// workers a pool of it starts at most (one per core up to this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerBin {
    pub glue_url: &'static str,
    pub wasm_url: &'static str,
    pub workers_max: u8,
}

impl WorkerBin {
    /// The bin's name: the glue's file name without `./` and `.js` (`sim_worker`).
    pub fn name(self) -> &'static str {
        let file = self.glue_url.rsplit('/').next().unwrap_or(self.glue_url);
        file.strip_suffix(".js").unwrap_or(file)
    }
}

/// The `Map` under `key` (`Symbol.for(key)`) of the global object, created on first use: one for
/// the whole page, whichever of its wasm modules asks (see the module documentation). Plain
/// `js_sys` calls, no JS snippet: the one-file build cannot load a snippet module from disk.
pub fn shared_map(key: &str) -> Map {
    let (global, symbol) = (js_sys::global(), js_sys::Symbol::for_(key));
    if let Ok(known) =
        js_sys::Reflect::get(&global, &symbol).and_then(|v| v.dyn_into::<Map>().map_err(Into::into))
    {
        return known;
    }
    let map = Map::new();
    let _ = js_sys::Reflect::set(&global, &symbol, &map);
    map
}

/// The compile of each worker wasm asked for so far, by URL: a promise of its `Module`.
fn compiles() -> Map {
    shared_map("goodput-lab.worker-compiles")
}

/// The promise of `wasm_url`'s compiled `WebAssembly.Module`: started on the first call (from
/// either of the page's wasm modules), the same promise on every later one. It rejects with a
/// sentence naming the file when the fetch or the compile fails; a failed compile is forgotten, so
/// a later pool tries again.
pub fn compiled_module(wasm_url: &'static str) -> Promise {
    let key = JsValue::from_str(wasm_url);
    if let Ok(known) = compiles().get(&key).dyn_into::<Promise>() {
        return known;
    }
    let promise = future_to_promise(async move {
        let result = fetch_and_compile(wasm_url).await;
        if result.is_err() {
            compiles().delete(&JsValue::from_str(wasm_url));
        }
        result.map_err(|why| JsValue::from_str(&why))
    });
    compiles().set(&key, &promise);
    promise
}

/// Fetches `wasm_url` (the HTTP cache may answer) and compiles it.
async fn fetch_and_compile(wasm_url: &str) -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window to fetch the worker's wasm from")?;
    let response: Response = JsFuture::from(window.fetch_with_str(wasm_url))
        .await
        .map_err(|e| describe(wasm_url, "could not be fetched", &e))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("{wasm_url} could not be fetched (HTTP {})", response.status()));
    }
    let buffer = response.array_buffer().map_err(|e| describe(wasm_url, "could not be read", &e))?;
    let bytes = JsFuture::from(buffer).await.map_err(|e| describe(wasm_url, "could not be read", &e))?;
    let bytes = Uint8Array::new(&bytes);
    JsFuture::from(WebAssembly::compile(&bytes)).await.map_err(|e| describe(wasm_url, "does not compile", &e))
}

/// `<file> <what>: <the JS error's message>`.
fn describe(wasm_url: &str, what: &str, error: &JsValue) -> String {
    format!("{wasm_url} {what}: {}", message(error))
}
