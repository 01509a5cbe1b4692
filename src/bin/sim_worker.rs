//! The simulation Web Worker: answers each posted query string with `worker_api::respond`'s JSON.
//!
//! Trunk builds this bin as a `data-type="worker"` asset (wasm-bindgen `web` target, unhashed names,
//! without default features) and its loader shim runs `main` once the wasm is instantiated. It
//! links only the pure library code it calls: no Leptos, no plotters.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    if let Err(err) = worker::listen() {
        web_sys::console::error_2(&"sim_worker: cannot listen:".into(), &err);
    }
}

/// Natively there is no worker scope; `cargo test` exercises `worker_api` instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("sim_worker runs as a Web Worker in the browser: use `make serve`.");
}

#[cfg(target_arch = "wasm32")]
mod worker {
    use goodput_lab::worker_api::{respond, READY};
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

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

    /// Answers one request; a message that is not a string counts as the empty query.
    fn answer(scope: &DedicatedWorkerGlobalScope, event: &MessageEvent) {
        let request = event.data().as_string().unwrap_or_default();
        let reply = respond(&request);
        if let Err(err) = scope.post_message(&JsValue::from_str(&reply)) {
            web_sys::console::error_2(&"sim_worker: cannot post the reply:".into(), &err);
        }
    }
}
