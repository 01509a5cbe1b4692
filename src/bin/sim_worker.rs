//! The simulation Web Worker: answers each posted request with `sim_protocol::respond`'s progress
//! and result messages (postcard bytes in a Uint8Array).
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

/// Natively there is no worker scope; `cargo test` exercises `sim_protocol` instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("sim_worker runs as a Web Worker in the browser: use `make serve`.");
}

#[cfg(target_arch = "wasm32")]
mod worker {
    use goodput_lab::sim_protocol::{respond, READY};
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

    /// Answers one request with progress messages and the result; a message that is not a string
    /// counts as the default state.
    fn answer(scope: &DedicatedWorkerGlobalScope, event: &MessageEvent) {
        let request = event.data().as_string().unwrap_or_default();
        respond(&request, |bytes| {
            let message = js_sys::Uint8Array::from(bytes.as_slice());
            if let Err(err) = scope.post_message(&message) {
                web_sys::console::error_2(&"sim_worker: cannot post the reply:".into(), &err);
            }
        });
    }
}
