//! The configuration search's Web Worker: answers each posted `search_protocol::Request` (one
//! shard of the search) with progress and then its rows (postcard bytes in a Uint8Array).
//!
//! Trunk builds this bin as a `data-type="worker"` asset, like `sim_worker`: wasm-bindgen `web`
//! target, unhashed names, no default features, so it links only the pure core it calls. The page
//! starts one per core (at most `search_protocol::SHARDS_MAX`).

/// Runs on instantiation; outside a worker scope (a page importing this module for its benchmark
/// export, `bench/browser`) it does nothing.
#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    if !worker::in_worker() {
        return;
    }
    if let Err(err) = worker::listen() {
        web_sys::console::error_2(&"search_worker: cannot listen:".into(), &err);
    }
}

/// Natively there is no worker scope; `cargo test` exercises `search_protocol` instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("search_worker runs as a Web Worker in the browser: use `make serve`.");
}

#[cfg(target_arch = "wasm32")]
mod worker {
    use goodput_lab::search_protocol::{decode_request, respond, READY};
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// True in a dedicated worker's global scope.
    pub fn in_worker() -> bool {
        js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
    }

    /// Benchmark hook for `bench/browser`: the whole search on one thread for the state in `query`
    /// (a page URL's query string). Returns [rows, configurations evaluated]; the caller times it.
    #[wasm_bindgen]
    pub fn bench_search(query: &str) -> Vec<f64> {
        let (inputs, _) = goodput_lab::state::from_query(query);
        let found = goodput_lab::core::search::search(&inputs.search_spec());
        vec![found.rows.len() as f64, f64::from(found.evaluated)]
    }

    /// Installs the message handler on the worker's global scope, then posts [`READY`].
    pub fn listen() -> Result<(), JsValue> {
        let scope: DedicatedWorkerGlobalScope = js_sys::global().dyn_into()?;
        let reply_to = scope.clone();
        let on_message =
            Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| answer(&reply_to, &event));
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The handler lives as long as the worker does.
        on_message.forget();
        scope.post_message(&JsValue::from_str(READY))
    }

    /// Answers one request (postcard bytes); bytes that are not one are logged and ignored.
    fn answer(scope: &DedicatedWorkerGlobalScope, event: &MessageEvent) {
        let bytes = event.data().dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
        let Some(request) = decode_request(&bytes) else {
            web_sys::console::error_1(&"search_worker: a message that is not a request".into());
            return;
        };
        respond(&request, |bytes| {
            let message = js_sys::Uint8Array::from(bytes.as_slice());
            if let Err(err) = scope.post_message(&message) {
                web_sys::console::error_2(&"search_worker: cannot post the reply:".into(), &err);
            }
        });
    }
}
