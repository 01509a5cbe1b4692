//! The main thread's handle on a module Web Worker that speaks postcard bytes (the simulator's,
//! the search's): created on demand from the one boot script, given its bin's compiled module
//! (fetched and compiled once for all workers, [`crate::ui::workers::compiled`]), messages queued
//! until the worker says it is ready, every failure delivered as an `Err` string, and a worker whose
//! memory grew replaced by a fresh one once idle.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::time::Duration;

use leptos::prelude::set_timeout;

use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

use crate::protocol::codec::WorkerSignal;
use crate::ui::js_error::message;
use crate::ui::workers::compiled::{compiled_module, WorkerBin};
use crate::ui::workers::start::{boot_message, create_worker, describe, BOOT_URL};

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

/// How long a worker that grew waits idle before a fresh one replaces it: long enough that a run of
/// changes (each a new request) keeps its workers, short enough that an idle page soon holds only
/// fresh ones.
const RECYCLE_IDLE: Duration = Duration::from_secs(5);

/// A running worker. Dropping the handle terminates the worker. A linear memory never shrinks, so a
/// worker whose memory grew (a large job's high water) is replaced by a fresh one of its bin once it
/// has been idle for [`RECYCLE_IDLE`]: an idle page holds its workers' start memory, not the largest
/// job's since it opened. The fresh worker is instantiated from the bin's compiled module (no fetch,
/// no compile); messages posted meanwhile wait for its `ready`, as for any new worker.
pub struct ModuleWorker {
    slot: Rc<Slot>,
}

/// What a [`ModuleWorker`] handle owns: the worker running now, and what a fresh one needs.
struct Slot {
    bin: WorkerBin,
    on_reply: Rc<dyn Fn(WorkerMessage)>,
    live: RefCell<Live>,
    /// Messages posted and not yet answered (each answered message ends with `answered`).
    in_flight: Cell<u32>,
    /// Messages posted so far: a replacement scheduled before a later post is called off.
    posts: Cell<u64>,
}

/// One worker with its handlers. Dropping it terminates the worker.
struct Live {
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
        let ahead = match ahead {
            Some(ahead) => ahead,
            None => Adopted { worker: create_worker(bin.name())?, booted: false, ready: false },
        };
        let on_reply: Rc<dyn Fn(WorkerMessage)> = Rc::new(on_reply);
        let slot = Rc::new_cyclic(|me: &Weak<Slot>| Slot {
            bin,
            live: RefCell::new(Live::start(me.clone(), bin, on_reply.clone(), ahead)),
            on_reply,
            in_flight: Cell::new(0),
            posts: Cell::new(0),
        });
        Ok(ModuleWorker { slot })
    }

    /// Sends one message (postcard bytes); its replies arrive through `on_reply`. Before the
    /// worker is ready the message is queued; after a failure this returns that failure.
    pub fn post(&self, message: Vec<u8>) -> Result<(), String> {
        let slot = &self.slot;
        slot.posts.set(slot.posts.get() + 1);
        slot.in_flight.set(slot.in_flight.get() + 1);
        let live = slot.live.borrow();
        let mut phase = live.phase.borrow_mut();
        match &mut *phase {
            Phase::Starting(early) => {
                early.push(message);
                Ok(())
            }
            Phase::Ready => send(&live.worker, &message),
            Phase::Failed(why) => Err(why.clone()),
        }
    }
}

impl Slot {
    /// Counts one message answered; once none is in flight and the worker grew, schedules its
    /// replacement after [`RECYCLE_IDLE`], called off by any post in between.
    fn answered(me: &Weak<Slot>, signal: WorkerSignal) {
        let Some(slot) = me.upgrade() else { return };
        slot.in_flight.set(slot.in_flight.get().saturating_sub(1));
        if slot.in_flight.get() > 0 || !signal.grew() {
            return;
        }
        let (me, posts) = (me.clone(), slot.posts.get());
        set_timeout(
            move || {
                if let Some(slot) = me.upgrade().filter(|s| s.posts.get() == posts && s.in_flight.get() == 0)
                {
                    slot.replace(&me);
                }
            },
            RECYCLE_IDLE,
        );
    }

    /// Swaps the (idle, ready) worker for a fresh one of the same bin; the old one is terminated.
    /// Keeps the old one if it failed or a new one cannot be created.
    fn replace(&self, me: &Weak<Slot>) {
        if !matches!(*self.live.borrow().phase.borrow(), Phase::Ready) {
            return;
        }
        let Ok(worker) = create_worker(self.bin.name()) else { return };
        let fresh = Adopted { worker, booted: false, ready: false };
        let fresh = Live::start(me.clone(), self.bin, self.on_reply.clone(), fresh);
        drop(self.live.replace(fresh));
    }
}

impl Live {
    /// Installs the handlers on `ahead`'s worker and boots it unless the page already has.
    fn start(me: Weak<Slot>, bin: WorkerBin, on_reply: Rc<dyn Fn(WorkerMessage)>, ahead: Adopted) -> Live {
        let Adopted { worker, booted, ready } = ahead;
        let phase = Rc::new(RefCell::new(if ready { Phase::Ready } else { Phase::Starting(Vec::new()) }));
        let on_message = message_handler(me, worker.clone(), phase.clone(), on_reply.clone());
        let on_error = error_handler(worker.clone(), phase.clone(), on_reply.clone(), bin.glue_url);
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if !booted {
            boot(worker.clone(), phase.clone(), on_reply, bin);
        }
        Live { worker, phase, _on_message: on_message, _on_error: on_error }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
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

/// Handles the worker's messages: its [`WorkerSignal`]s (`ready` flushes the queue, `answered`
/// counts an answer and may schedule the worker's replacement), and replies, as bytes.
fn message_handler(
    me: Weak<Slot>,
    worker: Worker,
    phase: Rc<RefCell<Phase>>,
    on_reply: Rc<dyn Fn(WorkerMessage)>,
) -> Closure<dyn FnMut(MessageEvent)> {
    Closure::new(move |event: MessageEvent| {
        let data = event.data();
        let signal = data.as_string().and_then(|text| WorkerSignal::parse(&text));
        if signal == Some(WorkerSignal::Ready) {
            if let Err(why) = flush(&worker, &phase) {
                fail(&worker, &phase, &*on_reply, why);
            }
        } else if let Some(answered) = signal {
            Slot::answered(&me, answered);
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
