//! How a worker of a bin comes to be: created from the one boot script (named after its bin), or not
//! at all in the one-file build; the boot message that hands it the bin's compiled module; how many a
//! pool starts; and the page's clock and performance marks the runners time their work with.

use wasm_bindgen::prelude::*;
use web_sys::{Worker, WorkerOptions, WorkerType};

use crate::ui::js_error::message;

/// Every worker's entry script (`public/worker_boot.js`, copied beside the page): it waits for the
/// page's one message naming the bin's glue and carrying its compiled module, then instantiates it.
pub const BOOT_URL: &str = "./worker_boot.js";

/// Workers a pool capped at `cap` starts: the machine's cores (`navigator.hardwareConcurrency`),
/// from 1 to `cap`.
pub fn pool_size(cap: u8) -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, usize::from(cap.max(1)))
}

/// Milliseconds from the page's time origin (0 where there is no clock).
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A mark on the page's performance timeline (bench/browser times sweeps and searches between two).
pub fn performance_mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Starts the boot script as a module worker named `name` (the devtools and `make soak` tell the
/// pools apart by it: every worker runs the same script); only a blocked origin fails here, a load
/// failure arrives later as an `error` event.
pub fn create_worker(name: &str) -> Result<Worker, String> {
    if has_no_worker() {
        return Err("this one-file copy of the page carries no worker".to_owned());
    }
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    options.set_name(name);
    Worker::new_with_options(BOOT_URL, &options).map_err(|e| describe("cannot create the worker", &e))
}

/// The boot script's one message: `{ glue: <the glue's URL>, module: <WebAssembly.Module> }`.
pub fn boot_message(glue_url: &str, module: &JsValue) -> Result<JsValue, JsValue> {
    let message = js_sys::Object::new();
    js_sys::Reflect::set(&message, &JsValue::from_str("glue"), &JsValue::from_str(glue_url))?;
    js_sys::Reflect::set(&message, &JsValue::from_str("module"), module)?;
    Ok(message.into())
}

/// True in the one-file build (`make single`), which marks itself with
/// `<meta name="goodput-lab-worker" content="none">`: a page opened from disk cannot start a worker,
/// so it is not even tried (no failed request, no console error).
pub fn has_no_worker() -> bool {
    let document = web_sys::window().and_then(|w| w.document());
    document
        .and_then(|d| d.query_selector(r#"meta[name="goodput-lab-worker"][content="none"]"#).ok().flatten())
        .is_some()
}

/// `context: <the JS error's message>`.
pub fn describe(context: &str, error: &JsValue) -> String {
    format!("{context}: {}", message(error))
}
