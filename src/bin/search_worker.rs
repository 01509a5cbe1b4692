//! The configuration search's Web Worker: answers each posted `protocol::search::SearchRequest` (one
//! shard of the search) with progress and then its rows (postcard bytes in a Uint8Array), through
//! `goodput_lab::worker_scope`.
//!
//! Trunk builds this bin as a `data-type="worker"` asset, like `sim_worker`: wasm-bindgen `web`
//! target, unhashed names, no default features, so it links only the pure core it calls. The page
//! starts one per core (at most `core::search::SHARDS_MAX`).

/// Runs on instantiation; outside a worker scope (a page importing this module for its benchmark
/// export, `bench/browser`) it does nothing. Bytes that are not a request are logged and ignored.
#[cfg(target_arch = "wasm32")]
fn main() {
    use goodput_lab::protocol::search::{decode_request, respond};
    goodput_lab::worker_scope::serve("search_worker", |bytes, post| match decode_request(bytes) {
        Some(request) => respond(&request, post),
        None => web_sys::console::error_1(&"search_worker: a message that is not a request".into()),
    });
}

/// Natively there is no worker scope; `cargo test` exercises `protocol::search` instead.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("search_worker runs as a Web Worker in the browser: use `make serve`.");
}

/// Benchmark hook for `bench/browser`: the whole search on one thread for `spec` (a `SearchSpec` as
/// postcard bytes, from `bench_input search "<query>"`: the URL parser stays out of this module).
/// Returns [rows, configurations evaluated], or nothing for bytes that are not a spec; the caller
/// times it.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_search(spec: &[u8]) -> Vec<f64> {
    let Some(spec) = goodput_lab::protocol::codec::from_bytes::<goodput_lab::core::search::SearchSpec>(spec)
    else {
        return Vec::new();
    };
    let found = goodput_lab::core::search::search(&spec);
    vec![found.rows.len() as f64, f64::from(found.evaluated)]
}
