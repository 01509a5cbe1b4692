//! The simulation Web Worker: answers each posted `protocol::sim::Job` (a block of the seeds, or a part of the
//! second round) with `protocol::sim::respond`'s progress and result messages (postcard bytes in a
//! Uint8Array), through `goodput_lab::worker_scope`. The page starts one per core (at most
//! `core::plan::SHARDS_MAX`).
//!
//! Trunk builds this bin as a `data-type="worker"` asset (wasm-bindgen `web` target, unhashed names,
//! without default features); every worker runs `public/worker_boot.js`, which instantiates the module
//! the page compiled once for the pool, and wasm-bindgen's start runs `main`. It
//! links only the pure library code it calls: no Leptos, no plotters.

/// Runs on instantiation; outside a worker scope (a page importing this module for its benchmark
/// export, `bench/browser`) it does nothing. Bytes that are not a job are logged and ignored.
#[cfg(target_arch = "wasm32")]
fn main() {
    use goodput_lab::protocol::sim::{decode_job, respond};
    use goodput_lab::worker_scope::now_ms;
    goodput_lab::worker_scope::serve("sim_worker", |bytes, post| match decode_job(bytes) {
        Some(job) => respond(&job, now_ms, post),
        None => web_sys::console::error_1(&"sim_worker: a message that is not a job".into()),
    });
}

/// Natively there is no worker scope; `cargo test` exercises `protocol::sim` instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("sim_worker runs as a Web Worker in the browser: use `make serve`.");
}

/// Benchmark hook for `bench/browser`: one open-loop run of the simulator on `plan` (a `SimPlan` as
/// postcard bytes, from `bench_input sim "<query>"`: the URL parser stays out of this module) at
/// `rate_req_per_s`, the same engine the worker sweeps with. Returns [requests simulated, served
/// requests/s, share meeting both targets], or nothing for bytes that are not a plan; the caller
/// times the call.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_simulate(plan: &[u8], rate_req_per_s: f64) -> Vec<f64> {
    let Some(plan) = goodput_lab::protocol::codec::from_bytes::<goodput_lab::core::plan::SimPlan>(plan)
    else {
        return Vec::new();
    };
    let p = goodput_lab::core::sim::simulate(&plan.config, rate_req_per_s);
    vec![f64::from(plan.config.requests_per_level()), p.throughput_req_per_s, p.requests.both]
}

/// Benchmark hook for `bench/browser`: the whole result for `plan` (postcard bytes, as for
/// [`bench_simulate`]) computed on one thread (`core::plan::compute`: every seed's sweep, then the
/// second round), so the bench can say how much of the page's sweep is the engine and how much the
/// pool saves. Returns [requests simulated, goodput in requests/s], or nothing for bytes that are
/// not a plan; the caller times the call.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_sweep(plan: &[u8]) -> Vec<f64> {
    let Some(plan) = goodput_lab::protocol::codec::from_bytes::<goodput_lab::core::plan::SimPlan>(plan)
    else {
        return Vec::new();
    };
    let r = goodput_lab::core::plan::compute(&plan, |_, _| {});
    vec![r.requests_simulated as f64, r.sweep.goodput_req_per_s]
}
