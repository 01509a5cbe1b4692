//! Runs sweeps off the main thread: the worker starts on the first request; one sweep is in flight
//! at a time and only the latest request waits behind it, so stale sweeps are dropped and a slider
//! drag costs at most one extra sweep. Without a worker (file://, a failure) sweeps run here.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use super::sim_worker::SimWorker;
use crate::format::thousands;
use crate::sim_protocol::{compute, decode, Reply, Request, SimResult};
use crate::state::Inputs;

/// The signals a sweep reports into.
#[derive(Clone, Copy)]
pub struct SimRun {
    pub result: RwSignal<Option<SimResult>>,
    /// (levels done, levels in all) while a sweep runs.
    pub progress: RwSignal<Option<(u32, u32)>>,
    pub error: RwSignal<Option<String>>,
    /// How long the last sweep took and how fast it simulated.
    pub speed: RwSignal<Option<String>>,
    /// Sweeps of the latest state delivered so far (tests wait on it).
    pub delivered: RwSignal<u32>,
}

impl SimRun {
    pub fn new() -> SimRun {
        SimRun {
            result: RwSignal::new(None),
            progress: RwSignal::new(None),
            error: RwSignal::new(None),
            speed: RwSignal::new(None),
            delivered: RwSignal::new(0),
        }
    }
}

/// The runner's mutable state, shared with the worker's reply handler.
#[derive(Default)]
struct Queue {
    worker: Option<SimWorker>,
    /// No worker could be started: sweeps run on the main thread.
    local: bool,
    /// The latest request made (what a failed worker's sweep is redone as).
    latest: Option<Request>,
    in_flight: Option<u32>,
    pending: Option<Request>,
    started_ms: f64,
}

/// A handle the panel keeps; cheap to copy into effects.
#[derive(Clone, Copy)]
pub struct SimRunner {
    run: SimRun,
    queue: StoredValue<Rc<RefCell<Queue>>, LocalStorage>,
}

impl SimRunner {
    pub fn new(run: SimRun) -> SimRunner {
        SimRunner { run, queue: StoredValue::new_local(Rc::new(RefCell::new(Queue::default()))) }
    }

    /// Asks for a sweep of `inputs`; supersedes any request still waiting.
    pub fn request(&self, inputs: &Inputs) {
        performance_mark("goodput:sweep-start");
        let queue = self.queue.get_value();
        let mut q = queue.borrow_mut();
        let seq = q.latest.map_or(1, |r| r.seq.wrapping_add(1));
        let message = Request { seq, inputs: *inputs };
        q.latest = Some(message);
        self.run.progress.set(Some((0, 1)));
        if q.in_flight.is_some() {
            q.pending = Some(message);
            return;
        }
        drop(q);
        self.send(&queue, message);
    }

    /// Posts `message` to the worker (starting it first), or runs it here without one.
    fn send(&self, queue: &Rc<RefCell<Queue>>, message: Request) {
        let mut q = queue.borrow_mut();
        if q.worker.is_none() && !q.local {
            match SimWorker::spawn(self.reply_handler(queue.clone())) {
                Ok(w) => q.worker = Some(w),
                Err(why) => self.fall_back(&mut q, why),
            }
        }
        q.in_flight = Some(message.seq);
        q.started_ms = now_ms();
        let posted = q.worker.as_ref().map(|w| w.post(&message));
        if let Some(Err(why)) = posted {
            self.fall_back(&mut q, why);
        }
        if q.local {
            drop(q);
            self.run_locally(queue.clone(), message);
        }
    }

    fn fall_back(&self, q: &mut Queue, why: String) {
        q.worker = None;
        q.local = true;
        self.run.error.set(Some(format!("The simulator's worker could not start ({why}); sweeping on the page instead, so controls may pause briefly.")));
    }

    /// Runs one sweep on the main thread after the current frame, then delivers it.
    fn run_locally(&self, queue: Rc<RefCell<Queue>>, message: Request) {
        let this = *self;
        set_timeout(
            move || {
                let result = compute(&message.inputs, |_, _| {});
                this.deliver(&queue, Reply::Done { seq: message.seq, result: Box::new(result) });
            },
            std::time::Duration::ZERO,
        );
    }

    /// The worker's replies, decoded and delivered.
    fn reply_handler(&self, queue: Rc<RefCell<Queue>>) -> impl Fn(Result<Vec<u8>, String>) + 'static {
        let this = *self;
        move |reply| match reply {
            Ok(bytes) => match decode(&bytes) {
                Some(reply) => this.deliver(&queue, reply),
                None => this
                    .run
                    .error
                    .set(Some("The simulator's worker sent a reply the page cannot read.".into())),
            },
            Err(why) => this.worker_failed(&queue, why),
        }
    }

    /// The worker failed to load or crashed: sweep on the page from now on, and redo whatever
    /// was in flight (the latest request).
    fn worker_failed(&self, queue: &Rc<RefCell<Queue>>, why: String) {
        let redo = {
            let mut q = queue.borrow_mut();
            self.fall_back(&mut q, why);
            let was_busy = q.in_flight.take().is_some();
            let latest = q.latest;
            q.pending.take().or(latest.filter(|_| was_busy))
        };
        if let Some(message) = redo {
            self.send(queue, message);
        }
    }

    /// Progress and results of the latest request reach the page; older ones are dropped.
    fn deliver(&self, queue: &Rc<RefCell<Queue>>, reply: Reply) {
        let latest = queue.borrow().latest.map_or(0, |r| r.seq);
        match reply {
            Reply::Progress { seq, done, total } => {
                if seq == latest {
                    self.run.progress.set(Some((done, total)));
                }
            }
            Reply::Done { seq, result } => {
                let next = {
                    let mut q = queue.borrow_mut();
                    q.in_flight = None;
                    if seq == latest {
                        self.report(&q, &result);
                    }
                    q.pending.take()
                };
                if seq == latest {
                    performance_mark("goodput:sweep-end");
                    self.run.result.set(Some(*result));
                    self.run.progress.set(None);
                    self.run.delivered.update(|n| *n += 1);
                }
                if let Some(message) = next {
                    self.send(queue, message);
                }
            }
        }
    }

    /// The sweep's size and speed, as the status line prints it.
    fn report(&self, q: &Queue, r: &SimResult) {
        let elapsed_ms = (now_ms() - q.started_ms).max(0.0);
        let simulated = r.requests_simulated as f64;
        let per_s = if elapsed_ms > 0.0 { simulated / (elapsed_ms / 1e3) } else { 0.0 };
        let place = if q.local { "on the page" } else { "in a Web Worker" };
        let split = r
            .placement
            .as_ref()
            .map_or(String::new(), |p| format!(", {} of the disaggregated split", p.sweep.points.len()));
        self.run.speed.set(Some(format!(
            "Simulated {} requests ({} load levels{split} and the step-budget comparison) in {} ms {place}: {} requests/s.",
            thousands(simulated),
            r.sweep.points.len(),
            thousands(elapsed_ms),
            thousands(per_s)
        )));
    }
}

/// Milliseconds from the page's time origin (0 where there is no clock).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A mark on the page's performance timeline (bench/browser times sweeps between two marks).
fn performance_mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
