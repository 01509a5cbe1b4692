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

use std::cell::RefCell;
use std::collections::HashMap;

use js_sys::{Promise, Uint8Array, WebAssembly};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::Response;

use crate::ui::shell::js_error::message;

/// A worker bin's two files as Trunk names them (fixed and unhashed for a `data-type="worker"`
/// link), relative to the page: its wasm-bindgen glue (`web` target) and its wasm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkerFiles {
    pub glue_url: &'static str,
    pub wasm_url: &'static str,
}

impl WorkerFiles {
    /// The bin's name: the glue's file name without `./` and `.js` (`sim_worker`).
    pub fn name(self) -> &'static str {
        let file = self.glue_url.rsplit('/').next().unwrap_or(self.glue_url);
        file.strip_suffix(".js").unwrap_or(file)
    }
}

thread_local! {
    /// The compile of each wasm file asked for so far (by URL): pending, or its `Module`. A failed
    /// compile is forgotten, so a later pool tries again.
    static COMPILES: RefCell<HashMap<&'static str, Promise>> = RefCell::new(HashMap::new());
}

/// The promise of `wasm_url`'s compiled `WebAssembly.Module`: started on the first call, the same
/// promise on every later one. It rejects with a sentence naming the file when the fetch or the
/// compile fails.
pub fn compiled_module(wasm_url: &'static str) -> Promise {
    if let Some(known) = COMPILES.with(|c| c.borrow().get(wasm_url).cloned()) {
        return known;
    }
    let promise = future_to_promise(async move {
        let result = fetch_and_compile(wasm_url).await;
        if result.is_err() {
            COMPILES.with(|c| c.borrow_mut().remove(wasm_url));
        }
        result.map_err(|why| JsValue::from_str(&why))
    });
    COMPILES.with(|c| c.borrow_mut().insert(wasm_url, promise.clone()));
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
