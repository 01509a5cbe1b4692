//! The main thread's handle on a module Web Worker that speaks postcard bytes (the simulator's,
//! the search's): created on demand from the one boot script, given its bin's compiled module
//! (fetched and compiled once for all workers, [`crate::ui::workers::compiled`]), messages queued
//! until the worker says it is ready, every failure delivered as an `Err` string; how many workers
//! a pool starts (one per core, up to a cap, see [`crate::ui::workers::worker_pool`]) and the clock
//! and performance marks the runners time their work with.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::protocol::codec::READY;
use crate::ui::shell::js_error::message;
use crate::ui::workers::compiled::{compiled_module, WorkerBin};

/// Every worker's entry script (`public/worker_boot.js`, copied beside the page): it waits for the
/// page's one message naming the bin's glue and carrying its compiled module, then instantiates it.
const BOOT_URL: &str = "./worker_boot.js";

/// What the caller hears: one encoded reply from the worker, or why the worker cannot answer.
pub type WorkerMessage = Result<Vec<u8>, String>;

/// Where the worker is in its life.
enum Phase {
    /// Loading; the messages posted so far wait here (a message sent before the worker's handler
    /// is installed would be lost).
    Starting(Vec<Vec<u8>>),
    /// Listening: requests go straight through.
    Ready,
    /// Failed to load, or crashed; it has been terminated.
    Failed(String),
}

/// A worker the page started ahead of its pool (`crate::ui::workers::ahead`), as the pool adopts it.
pub struct Adopted {
    pub worker: Worker,
    /// The page has posted it its boot message (the pool must not post another).
    pub booted: bool,
    /// It has posted `ready`: its handler is installed.
    pub ready: bool,
}

/// A running worker. Dropping the handle terminates the worker.
pub struct ModuleWorker {
    worker: Worker,
    phase: Rc<RefCell<Phase>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl ModuleWorker {
    /// A module worker of `bin` (files relative to the page, so it works under any sub-path): the
    /// one the page started `ahead` if any (booted already, or booted here), else a new one, whose
    /// boot script the browser fetches now, not at page load. The worker instantiates the bin's
    /// module once the page has it compiled (at most one fetch and one compile per bin, however
    /// many workers). Calls `on_reply` with each reply, or with an `Err` once if the module cannot
    /// be fetched or compiled, or the worker fails to start or crashes.
    pub fn spawn(
        bin: WorkerBin,
        ahead: Option<Adopted>,
        on_reply: impl Fn(WorkerMessage) + 'static,
    ) -> Result<ModuleWorker, String> {
        let (worker, booted, ready) = match ahead {
            Some(ahead) => (ahead.worker, ahead.booted, ahead.ready),
            None => (create_worker(bin.name())?, false, false),
        };
        let phase = Rc::new(RefCell::new(if ready { Phase::Ready } else { Phase::Starting(Vec::new()) }));
        let on_reply: Rc<dyn Fn(WorkerMessage)> = Rc::new(on_reply);
        let on_message = message_handler(worker.clone(), phase.clone(), on_reply.clone());
        let on_error = error_handler(worker.clone(), phase.clone(), on_reply.clone(), bin.glue_url);
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if !booted {
            boot(worker.clone(), phase.clone(), on_reply, bin);
        }
        Ok(ModuleWorker { worker, phase, _on_message: on_message, _on_error: on_error })
    }

    /// Sends one message (postcard bytes); its replies arrive through `on_reply`. Before the
    /// worker is ready the message is queued; after a failure this returns that failure.
    pub fn post(&self, message: Vec<u8>) -> Result<(), String> {
        match &mut *self.phase.borrow_mut() {
            Phase::Starting(early) => {
                early.push(message);
                Ok(())
            }
            Phase::Ready => send(&self.worker, &message),
            Phase::Failed(why) => Err(why.clone()),
        }
    }
}

impl Drop for ModuleWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

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

/// Once the bin's module is compiled, posts `{ glue, module }` to the boot script (ahead of any
/// queued job: the worker's own handler is not installed until it has instantiated the module); a
/// fetch or compile failure fails the worker.
fn boot(worker: Worker, phase: Rc<RefCell<Phase>>, on_reply: Rc<dyn Fn(WorkerMessage)>, files: WorkerBin) {
    let compiled = compiled_module(files.wasm_url);
    leptos::task::spawn_local(async move {
        let posted = match wasm_bindgen_futures::JsFuture::from(compiled).await {
            Ok(module) => boot_message(files.glue_url, &module)
                .and_then(|m| worker.post_message(&m))
                .map_err(|e| describe("cannot post to the worker", &e)),
            Err(why) => Err(message(&why)),
        };
        if let Err(why) = posted {
            fail(&worker, &phase, &*on_reply, why);
        }
    });
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

/// Handles the worker's messages: [`READY`] flushes the queue, anything else is a reply.
fn message_handler(
    worker: Worker,
    phase: Rc<RefCell<Phase>>,
    on_reply: Rc<dyn Fn(WorkerMessage)>,
) -> Closure<dyn FnMut(MessageEvent)> {
    Closure::new(move |event: MessageEvent| {
        let data = event.data();
        if data.as_string().is_some_and(|text| text == READY) {
            if let Err(why) = flush(&worker, &phase) {
                fail(&worker, &phase, &*on_reply, why);
            }
        } else if let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>() {
            on_reply(Ok(bytes.to_vec()));
        } else {
            on_reply(Err("the worker sent a message that is neither its ready signal nor bytes".to_owned()));
        }
    })
}

/// Handles the worker's `error` event: its scripts or wasm failed to load, or it threw (a panic).
fn error_handler(
    worker: Worker,
    phase: Rc<RefCell<Phase>>,
    on_reply: Rc<dyn Fn(WorkerMessage)>,
    glue_url: &'static str,
) -> Closure<dyn FnMut(Event)> {
    Closure::new(move |event: Event| {
        // Handled here: the caller hears about it, so the browser need not report it as uncaught.
        event.prevent_default();
        fail(&worker, &phase, &*on_reply, error_message(&event, glue_url));
    })
}

/// Marks the worker ready and posts the requests that waited for it, in order.
fn flush(worker: &Worker, phase: &RefCell<Phase>) -> Result<(), String> {
    let waiting = {
        let mut phase = phase.borrow_mut();
        let Phase::Starting(early) = &mut *phase else { return Ok(()) };
        let waiting = std::mem::take(early);
        *phase = Phase::Ready;
        waiting
    };
    waiting.iter().try_for_each(|message| send(worker, message))
}

/// Terminates the worker, remembers why, and tells the caller (once: later errors are ignored).
fn fail(worker: &Worker, phase: &RefCell<Phase>, on_reply: &dyn Fn(WorkerMessage), why: String) {
    if matches!(*phase.borrow(), Phase::Failed(_)) {
        return;
    }
    worker.terminate();
    *phase.borrow_mut() = Phase::Failed(why.clone());
    on_reply(Err(why));
}

/// Posts one message to the worker, as postcard bytes in a `Uint8Array`.
fn send(worker: &Worker, message: &[u8]) -> Result<(), String> {
    let bytes = js_sys::Uint8Array::from(message);
    worker.post_message(&bytes).map_err(|e| describe("cannot post to the worker", &e))
}

/// The text of an `error` event: an `ErrorEvent`'s message (with its source line when known), or,
/// for the plain `Event` a failed module fetch fires, a note naming the worker's scripts.
fn error_message(event: &Event, glue_url: &str) -> String {
    let Some(error) = event.dyn_ref::<ErrorEvent>() else {
        return format!("the worker failed to load ({BOOT_URL} or {glue_url})");
    };
    match (error.message(), error.filename()) {
        (text, file) if file.is_empty() => format!("worker {glue_url}: {text}"),
        (text, file) => format!("worker {glue_url}: {text} ({file}:{})", error.lineno()),
    }
}

/// `context: <the JS error's message>`.
fn describe(context: &str, error: &JsValue) -> String {
    format!("{context}: {}", message(error))
}
