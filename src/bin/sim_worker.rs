//! The simulation Web Worker: answers each posted request with `sim_protocol::respond`'s progress
//! and result messages (postcard bytes in a Uint8Array).
//!
//! Trunk builds this bin as a `data-type="worker"` asset (wasm-bindgen `web` target, unhashed names,
//! without default features) and its loader shim runs `main` once the wasm is instantiated. It
//! links only the pure library code it calls: no Leptos, no plotters.

/// Runs on instantiation; outside a worker scope (a page importing this module for its benchmark
/// export, `bench/browser`) it does nothing.
#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    if !worker::in_worker() {
        return;
    }
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
    use goodput_lab::sim_protocol::{decode_request, respond, READY};
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// True in a dedicated worker's global scope.
    pub fn in_worker() -> bool {
        js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
    }

    /// Benchmark hook for `bench/browser`: one open-loop run of the simulator on the state in
    /// `query` (a page URL's query string) at `rate_req_per_s`, the same engine the worker sweeps
    /// with. Returns [requests simulated, served requests/s, share meeting both targets]; the
    /// caller times the call.
    #[wasm_bindgen]
    pub fn bench_simulate(query: &str, rate_req_per_s: f64) -> Vec<f64> {
        let (inputs, _) = goodput_lab::state::from_query(query);
        let config = inputs.sim.config(&inputs.scenario);
        let p = goodput_lab::core::sim::simulate(&config, rate_req_per_s);
        vec![f64::from(config.requests), p.throughput_req_per_s, p.requests.both]
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

    /// Answers one request (postcard bytes) with progress messages and the result; a message that
    /// is not a request counts as request 0 of the default state.
    fn answer(scope: &DedicatedWorkerGlobalScope, event: &MessageEvent) {
        let bytes = event.data().dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default();
        respond(&decode_request(&bytes), |bytes| {
            let message = js_sys::Uint8Array::from(bytes.as_slice());
            if let Err(err) = scope.post_message(&message) {
                web_sys::console::error_2(&"sim_worker: cannot post the reply:".into(), &err);
            }
        });
    }
}
