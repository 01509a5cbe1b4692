//! The worker bins the page runs, and a lazily loaded body's workers started ahead of it: when a
//! body that runs a worker pool (the simulator's, the search's) starts loading, the page begins
//! fetching and compiling the bin's module and creates the pool's workers, beside the lazy module's
//! own download; the pool, created in the lazy module once the body mounts, adopts those workers
//! instead of creating its own.
//!
//! Why (BENCHMARKS.md, issue 26): the first sweep after opening the simulator waited 50-70 ms for
//! the worker's module and then about 60 ms for the new workers' threads and boot script, all after
//! the lazy module had loaded, so it took 2.4-3.0x a warm sweep (1.8-2.1x now). What a person gains
//! is the overlap with the network: on loopback, where the two cores were the limit, the click's
//! time to the first result did not change.
//!
//! A worker created ahead gets the same first message (the glue and the compiled module) as one
//! the pool creates: from the page, once the module is compiled, if the worker is still waiting
//! then; otherwise from the pool that adopted it. Whoever holds a worker posts it: the page while
//! it waits, the pool from its adoption, so no worker is booted twice. The pool also learns whether
//! an adopted worker has already said it is ready. The waiting workers are kept, like the compiles,
//! where both of the page's wasm modules see them (an array per bin under a `Symbol.for` key of the
//! global object); a waiting worker that fails (its boot script did not load, its module did not
//! compile) leaves the array and is terminated, so a pool never adopts a dead worker: it creates its
//! own, whose failure it hears and reports.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Worker;

use crate::ui::workers::compiled::WorkerBin;
use crate::ui::workers::pool::Adopted;

/// The simulator's worker bin. Trunk names a worker's files after its bin and never hashes them,
/// so the names are fixed.
pub const SIM_WORKER: WorkerBin = WorkerBin {
    glue_url: "./sim_worker.js",
    wasm_url: "./sim_worker_bg.wasm",
    workers_max: crate::protocol::sim::SHARDS_MAX,
};

/// The configuration search's worker bin.
pub const SEARCH_WORKER: WorkerBin = WorkerBin {
    glue_url: "./search_worker.js",
    wasm_url: "./search_worker_bg.wasm",
    workers_max: crate::protocol::search::SHARDS_MAX,
};

#[wasm_bindgen(inline_js = r#"
function waiting(name) {
  const key = Symbol.for("goodput-lab.workers-ahead");
  if (!globalThis[key]) globalThis[key] = new Map();
  const all = globalThis[key];
  if (!all.has(name)) all.set(name, []);
  return all.get(name);
}
function drop(queue, entry) {
  const at = queue.indexOf(entry);
  if (at < 0) return false;
  queue.splice(at, 1);
  entry.worker.terminate();
  return true;
}
export function wait_for_adoption(name, worker, ready) {
  const queue = waiting(name);
  const entry = { worker, booted: false, ready: false };
  queue.push(entry);
  worker.addEventListener("message", (event) => { if (event.data === ready) entry.ready = true; });
  worker.addEventListener("error", (event) => { if (drop(queue, entry)) event.preventDefault(); }, { once: true });
}
export function boot_if_waiting(name, worker, message) {
  const entry = waiting(name).find((e) => e.worker === worker);
  if (entry && !entry.booted) {
    entry.booted = true;
    worker.postMessage(message);
  }
}
export function drop_if_waiting(name, worker) {
  const queue = waiting(name);
  const entry = queue.find((e) => e.worker === worker);
  if (entry) drop(queue, entry);
}
export function waiting_count(name) { return waiting(name).length; }
export function adopt_oldest(name) { return waiting(name).shift(); }
"#)]
extern "C" {
    /// Takes the oldest waiting worker of bin `name`: `{ worker, booted, ready }`, or `undefined`.
    fn adopt_oldest(name: &str) -> JsValue;
    /// How many workers of bin `name` wait to be adopted.
    #[cfg(feature = "lazy_panels")]
    fn waiting_count(name: &str) -> u32;
    /// Adds `worker` to bin `name`'s waiting workers, noting when it posts `ready`; one that fails
    /// while it waits leaves them and is terminated.
    #[cfg(feature = "lazy_panels")]
    fn wait_for_adoption(name: &str, worker: &Worker, ready: &str);
    /// Posts `message` (the boot message) to `worker` if it still waits and has not been booted.
    #[cfg(feature = "lazy_panels")]
    fn boot_if_waiting(name: &str, worker: &Worker, message: &JsValue);
    /// Terminates `worker` and drops it, if it still waits.
    #[cfg(feature = "lazy_panels")]
    fn drop_if_waiting(name: &str, worker: &Worker);
}

/// The oldest worker of `bin` created ahead and still waiting, if any; it is the caller's now.
pub fn adopt(bin: WorkerBin) -> Option<Adopted> {
    let entry = adopt_oldest(bin.name());
    let field = |name: &str| js_sys::Reflect::get(&entry, &JsValue::from_str(name)).ok();
    let worker = field("worker")?.dyn_into::<Worker>().ok()?;
    let flag = |name: &str| field(name).and_then(|v| v.as_bool()).unwrap_or(false);
    Some(Adopted { worker, booted: flag("booted"), ready: flag("ready") })
}

#[cfg(feature = "lazy_panels")]
pub use starting::start_ahead;

#[cfg(feature = "lazy_panels")]
mod starting {
    use wasm_bindgen_futures::JsFuture;
    use web_sys::Worker;

    use super::{boot_if_waiting, drop_if_waiting, wait_for_adoption, waiting_count};
    use super::{WorkerBin, SEARCH_WORKER, SIM_WORKER};
    use crate::protocol::codec::READY;
    use crate::protocol::panel::PanelKind;
    use crate::ui::workers::compiled::compiled_module;
    use crate::ui::workers::pool::{boot_message, create_worker, has_no_worker, pool_size};

    /// The worker bin a lazily loaded body runs its pool on, if any.
    pub fn worker_of(panel: PanelKind) -> Option<WorkerBin> {
        match panel {
            PanelKind::Sim => Some(SIM_WORKER),
            PanelKind::Search => Some(SEARCH_WORKER),
            PanelKind::Measured
            | PanelKind::Derivation
            | PanelKind::Capacity
            | PanelKind::CustomModel
            | PanelKind::CustomGpu
            | PanelKind::Share
            | PanelKind::Placement => None,
        }
    }

    /// Starts `panel`'s worker module compiling and creates its pool's workers (up to the pool's
    /// size, counting those already waiting), if it runs a pool and the page can start workers,
    /// then boots those still waiting once the module is compiled (drops them if it does not
    /// compile). Called as the body starts loading; a worker that cannot be created is left to the
    /// pool, which reports why.
    pub fn start_ahead(panel: PanelKind) {
        let Some(bin) = worker_of(panel).filter(|_| !has_no_worker()) else { return };
        let compiled = compiled_module(bin.wasm_url);
        let mut started: Vec<Worker> = Vec::new();
        while (waiting_count(bin.name()) as usize) < pool_size(bin.workers_max) {
            let Ok(worker) = create_worker(bin.name()) else { break };
            wait_for_adoption(bin.name(), &worker, READY);
            started.push(worker);
        }
        if started.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            let boot = JsFuture::from(compiled).await.and_then(|module| boot_message(bin.glue_url, &module));
            for worker in &started {
                match &boot {
                    Ok(message) => boot_if_waiting(bin.name(), worker, message),
                    Err(_) => drop_if_waiting(bin.name(), worker),
                }
            }
        });
    }
}
