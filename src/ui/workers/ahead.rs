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

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Worker;

use crate::ui::workers::compiled::{shared_map, WorkerBin};
use crate::ui::workers::pool::Adopted;

/// The simulator's worker bin. Trunk names a worker's files after its bin and never hashes them,
/// so the names are fixed.
pub const SIM_WORKER: WorkerBin = WorkerBin {
    glue_url: "./sim_worker.js",
    wasm_url: "./sim_worker_bg.wasm",
    workers_max: crate::core::plan::SHARDS_MAX,
};

/// The configuration search's worker bin.
pub const SEARCH_WORKER: WorkerBin = WorkerBin {
    glue_url: "./search_worker.js",
    wasm_url: "./search_worker_bg.wasm",
    workers_max: crate::core::search::SHARDS_MAX,
};

/// The workers of bin `name` created ahead and not yet adopted, oldest first: entries
/// `{ worker, booted, ready }`, one array per bin for the whole page, whichever of its wasm modules
/// asks.
fn waiting(name: &str) -> Array {
    let all = shared_map("goodput-lab.workers-ahead");
    let key = JsValue::from_str(name);
    if let Ok(queue) = all.get(&key).dyn_into::<Array>() {
        return queue;
    }
    let queue = Array::new();
    all.set(&key, &queue);
    queue
}

fn field(entry: &JsValue, name: &str) -> JsValue {
    Reflect::get(entry, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

#[cfg(feature = "lazy_panels")]
fn set_field(entry: &JsValue, name: &str, value: &JsValue) {
    let _ = Reflect::set(entry, &JsValue::from_str(name), value);
}

/// Bin `name`'s waiting entry for `worker`, if it still waits.
#[cfg(feature = "lazy_panels")]
fn entry_of(name: &str, worker: &Worker) -> Option<JsValue> {
    waiting(name).iter().find(|entry| js_sys::Object::is(&field(entry, "worker"), worker))
}

/// Takes `entry` out of bin `name`'s waiting workers and terminates its worker; false when it no
/// longer waits (adopted: its pool hears about it).
#[cfg(feature = "lazy_panels")]
fn drop_waiting(name: &str, entry: &JsValue) -> bool {
    let queue = waiting(name);
    if queue.index_of(entry, 0) < 0 {
        return false;
    }
    let kept = queue.filter(&mut |other, _, _| !js_sys::Object::is(&other, entry));
    shared_map("goodput-lab.workers-ahead").set(&JsValue::from_str(name), &kept);
    if let Ok(worker) = field(entry, "worker").dyn_into::<Worker>() {
        worker.terminate();
    }
    true
}

/// The oldest worker of `bin` created ahead and still waiting, if any; it is the caller's now.
pub fn adopt(bin: WorkerBin) -> Option<Adopted> {
    let entry = waiting(bin.name()).shift();
    let worker = field(&entry, "worker").dyn_into::<Worker>().ok()?;
    let flag = |name: &str| field(&entry, name).as_bool().unwrap_or(false);
    Some(Adopted { worker, booted: flag("booted"), ready: flag("ready") })
}

#[cfg(feature = "lazy_panels")]
pub use starting::start_ahead;

#[cfg(feature = "lazy_panels")]
mod starting {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{Event, MessageEvent, Worker};

    use super::{drop_waiting, entry_of, field, set_field, waiting, WorkerBin, SEARCH_WORKER, SIM_WORKER};
    use crate::protocol::codec::WorkerSignal;
    use crate::protocol::panel::LazyBody;
    use crate::ui::workers::compiled::compiled_module;
    use crate::ui::workers::start::{boot_message, create_worker, has_no_worker, pool_size};

    /// The worker bin a lazily loaded body runs its pool on, if any.
    pub fn worker_of(panel: LazyBody) -> Option<WorkerBin> {
        match panel {
            LazyBody::Sim => Some(SIM_WORKER),
            LazyBody::Search => Some(SEARCH_WORKER),
            LazyBody::Measured
            | LazyBody::Derivation
            | LazyBody::Capacity
            | LazyBody::CustomModel
            | LazyBody::CustomGpu
            | LazyBody::Share
            | LazyBody::Placement
            | LazyBody::Accuracy => None,
        }
    }

    /// Starts `panel`'s worker module compiling and creates its pool's workers (up to the pool's
    /// size, counting those already waiting), if it runs a pool and the page can start workers,
    /// then boots those still waiting once the module is compiled (drops them if it does not
    /// compile). Called as the body starts loading; a worker that cannot be created is left to the
    /// pool, which reports why.
    pub fn start_ahead(panel: LazyBody) {
        let Some(bin) = worker_of(panel).filter(|_| !has_no_worker()) else { return };
        let compiled = compiled_module(bin.wasm_url);
        let mut started: Vec<Worker> = Vec::new();
        while (waiting(bin.name()).length() as usize) < pool_size(bin.workers_max) {
            let Ok(worker) = create_worker(bin.name()) else { break };
            wait_for_adoption(bin.name(), &worker);
            started.push(worker);
        }
        if started.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            let boot = JsFuture::from(compiled).await.and_then(|module| boot_message(bin.glue_url, &module));
            for worker in &started {
                let Some(entry) = entry_of(bin.name(), worker) else { continue };
                match &boot {
                    Ok(message) if field(&entry, "booted").as_bool() != Some(true) => {
                        set_field(&entry, "booted", &JsValue::TRUE);
                        let _ = worker.post_message(message);
                    }
                    Ok(_) => {}
                    Err(_) => {
                        drop_waiting(bin.name(), &entry);
                    }
                }
            }
        });
    }

    /// Adds `worker` to bin `name`'s waiting workers, noting when it posts `ready`; one that fails
    /// while it waits leaves them and is terminated. Its two listeners live as long as the worker
    /// (their closures are small and kept for the page's life: at most a pool's size per opening).
    fn wait_for_adoption(name: &'static str, worker: &Worker) {
        let entry: JsValue = js_sys::Object::new().into();
        set_field(&entry, "worker", worker);
        set_field(&entry, "booted", &JsValue::FALSE);
        set_field(&entry, "ready", &JsValue::FALSE);
        waiting(name).push(&entry);
        let noted = entry.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if event.data().as_string().and_then(|text| WorkerSignal::parse(&text))
                == Some(WorkerSignal::Ready)
            {
                set_field(&noted, "ready", &JsValue::TRUE);
            }
        });
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            if drop_waiting(name, &entry) {
                event.prevent_default();
            }
        });
        for (kind, listener) in [("message", on_message.as_ref()), ("error", on_error.as_ref())] {
            let _ = worker.add_event_listener_with_callback(kind, listener.unchecked_ref());
        }
        on_message.forget();
        on_error.forget();
    }
}
