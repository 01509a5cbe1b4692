//! Runs sweeps off the main thread on a pool of simulation workers (one per core, at most
//! [`crate::core::plan::SHARDS_MAX`]), started on the first request (adopting those the page
//! started ahead, [`crate::ui::workers::ahead`]) and reused: each of min(workers, seeds) workers
//! sweeps a block of the seeds, the page combines their sweeps in seed order, then the workers run
//! the goodput-dependent second round's parts (blocks of the step budgets; the disaggregated sweep)
//! on the same [`WorkerPool`]. One request is in flight at a time and only the latest waits behind
//! it, so stale sweeps are dropped (a superseded one skips its second round) and a slider drag costs
//! at most one extra sweep. Without workers (the one-file build, a failure) sweeps run here.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use leptos::prelude::*;

use crate::core::plan::{compute, second_round_parts_for, shards_for, SimPlan, SimResult};
use crate::protocol::sim::{seed_jobs, Job, Part, SimReply};
use crate::ui::workers::ahead::SIM_WORKER;
use crate::ui::workers::sim_flight::{Ask, Flight};
use crate::ui::workers::start::{now_ms, performance_mark};
use crate::ui::workers::worker_pool::{PoolEvent, WorkerPool};
use crate::view::format::thousands;

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

/// What a worker's reply leads to (not a decode step, nor an animation step).
enum ReplyOutcome {
    /// More replies are due.
    Wait,
    /// The second round's jobs, one per worker in order.
    Post(Vec<Job>),
    /// The request is over: its result, or none if it was superseded.
    Finish(Option<SimResult>),
}

/// The runner's mutable state, shared with the workers' reply handlers.
#[derive(Default)]
struct SimRunnerState {
    workers: WorkerPool<Job, SimReply>,
    /// No worker could be started, or one failed: sweeps run on the main thread.
    local: bool,
    /// The latest request made (what a failed worker's sweep is redone as).
    latest: Option<Ask>,
    /// The request being run.
    in_flight: Option<Flight>,
    /// The latest request, waiting for the one in flight to end (the URL writer's pending write is
    /// another thing).
    waiting: Option<Ask>,
}

/// A handle the panel keeps; cheap to copy into effects.
#[derive(Clone, Copy)]
pub struct SimRunner {
    run: SimRun,
    state: StoredValue<Rc<RefCell<SimRunnerState>>, LocalStorage>,
}

impl SimRunner {
    pub fn new(run: SimRun) -> SimRunner {
        SimRunner { run, state: StoredValue::new_local(Rc::new(RefCell::new(SimRunnerState::default()))) }
    }

    /// Asks for a sweep of `plan` (derived once by the body from the inputs and the loaded trace);
    /// supersedes any request still waiting.
    pub fn request(&self, plan: SimPlan) {
        performance_mark("goodput:sweep-start");
        let state = self.state.get_value();
        let ask = {
            let mut q = state.borrow_mut();
            let seq = q.latest.as_ref().map_or(1, |r| r.seq.wrapping_add(1));
            let ask = Ask { seq, plan };
            q.latest = Some(ask.clone());
            self.run.progress.set(Some((0, 1)));
            if q.in_flight.is_some() {
                q.waiting = Some(ask);
                return;
            }
            ask
        };
        self.send(&state, ask);
    }

    /// Posts the request's seed shards to the workers (starting them first), or runs it here.
    fn send(&self, state: &Rc<RefCell<SimRunnerState>>, ask: Ask) {
        let failed = {
            let mut q = state.borrow_mut();
            if q.workers.is_empty() && !q.local {
                match WorkerPool::spawn(SIM_WORKER, self.reply_handler(Rc::downgrade(state))) {
                    Ok(workers) => q.workers = workers,
                    Err(why) => self.fall_back(&mut q, why),
                }
            }
            let (shards, parts) = match q.local {
                true => (0, 0),
                false => {
                    let n = q.workers.len();
                    (shards_for(&ask.plan, n), second_round_parts_for(&ask.plan, n))
                }
            };
            let jobs = seed_jobs(ask.seq, &ask.plan, shards);
            q.in_flight = Some(Flight::new(ask.clone(), shards, parts));
            q.workers.post_each(&jobs).err()
        };
        if let Some(why) = failed {
            self.worker_failed(state, why);
        } else if state.borrow().local {
            self.run_locally(state.clone(), ask);
        }
    }

    /// Drops the pool (after this event: a failing worker's handler may be running now) and
    /// sweeps on the page from now on.
    fn fall_back(&self, q: &mut SimRunnerState, why: String) {
        q.workers.retire();
        q.local = true;
        self.run.error.set(Some(format!("The simulator's worker could not start ({why}); sweeping on the page instead, so controls may pause briefly.")));
    }

    /// Runs one sweep on the main thread after the current frame, then delivers it.
    fn run_locally(&self, state: Rc<RefCell<SimRunnerState>>, ask: Ask) {
        let this = *self;
        set_timeout(
            move || this.finish(&state, Some(compute(&ask.plan, |_, _| {}))),
            std::time::Duration::ZERO,
        );
    }

    /// A worker's replies, decoded and delivered.
    fn reply_handler(
        &self,
        state: Weak<RefCell<SimRunnerState>>,
    ) -> impl Fn(PoolEvent<SimReply>) + Clone + 'static {
        let this = *self;
        move |event| {
            let Some(state) = state.upgrade() else { return };
            match event {
                PoolEvent::Reply(reply) => this.deliver(&state, reply),
                PoolEvent::Unreadable => this
                    .run
                    .error
                    .set(Some("The simulator's worker sent a reply the page cannot read.".into())),
                PoolEvent::Failed(why) => this.worker_failed(&state, why),
            }
        }
    }

    /// A worker failed to load or crashed: sweep on the page from now on, and redo whatever was
    /// in flight (the latest request). Later failures of the dropped pool's workers are ignored.
    fn worker_failed(&self, state: &Rc<RefCell<SimRunnerState>>, why: String) {
        let redo = {
            let mut q = state.borrow_mut();
            if q.local {
                return;
            }
            self.fall_back(&mut q, why);
            let was_busy = q.in_flight.take().is_some();
            let latest = q.latest.clone();
            q.waiting.take().or(latest.filter(|_| was_busy))
        };
        if let Some(ask) = redo {
            self.send(state, ask);
        }
    }

    /// Progress reaches the page for the latest request; the shards' sweeps, once all are in, go
    /// on to the second round (unless superseded); the second round finishes the request. Stale
    /// replies are dropped.
    fn deliver(&self, state: &Rc<RefCell<SimRunnerState>>, reply: SimReply) {
        let step = {
            let mut q = state.borrow_mut();
            let latest = q.latest.as_ref().map_or(0, |a| a.seq);
            // Once on the page, a dropped pool's last replies are not this flight's.
            let worker_flight =
                q.in_flight.as_mut().filter(|f| f.ask.seq == reply.seq() && !f.shards.is_empty());
            let Some(f) = worker_flight else { return };
            match reply {
                SimReply::Progress { part, done, .. } => {
                    let (second_round, k) = match part {
                        Part::Seeds(k) => (false, k),
                        Part::SecondRound(k) => (true, k),
                    };
                    let shown = f.advance(second_round, k, done);
                    if let Some(p) = shown.filter(|_| f.ask.seq == latest) {
                        self.run.progress.set(Some(p));
                    }
                    ReplyOutcome::Wait
                }
                SimReply::SeedSweeps { .. } if f.ask.seq != latest => ReplyOutcome::Finish(None),
                SimReply::SeedSweeps { shard, sweeps, .. } => {
                    f.store(shard, sweeps).map_or(ReplyOutcome::Wait, ReplyOutcome::Post)
                }
                SimReply::SecondRound { .. } if f.ask.seq != latest => ReplyOutcome::Finish(None),
                SimReply::SecondRound { part, ran, .. } => {
                    let result = f.store_second_round(part, ran);
                    result.map_or(ReplyOutcome::Wait, |r| ReplyOutcome::Finish(Some(r)))
                }
            }
        };
        match step {
            ReplyOutcome::Wait => {}
            ReplyOutcome::Post(jobs) => {
                let posted = state.borrow().workers.post_each(&jobs).err();
                if let Some(why) = posted {
                    self.worker_failed(state, why);
                }
            }
            ReplyOutcome::Finish(result) => self.finish(state, result),
        }
    }

    /// Ends the request in flight: its result reaches the page if it is the latest; then the
    /// request waiting, if any, is sent.
    fn finish(&self, state: &Rc<RefCell<SimRunnerState>>, result: Option<SimResult>) {
        let (delivered, next) = {
            let mut q = state.borrow_mut();
            let Some(flight) = q.in_flight.take() else { return };
            let latest = q.latest.as_ref().map_or(0, |a| a.seq);
            let delivered = result.filter(|_| flight.ask.seq == latest);
            if let Some(r) = &delivered {
                self.report(&flight, r);
            }
            (delivered, q.waiting.take())
        };
        if let Some(result) = delivered {
            performance_mark("goodput:sweep-end");
            self.run.result.set(Some(result));
            self.run.progress.set(None);
            self.run.delivered.update(|n| *n += 1);
        }
        if let Some(ask) = next {
            self.send(state, ask);
        }
    }

    /// The sweep's size and speed, as the status line prints it.
    fn report(&self, flight: &Flight, r: &SimResult) {
        let elapsed_ms = (now_ms() - flight.started_ms).max(0.0);
        let simulated = r.requests_simulated as f64;
        let per_s = if elapsed_ms > 0.0 { simulated / (elapsed_ms / 1e3) } else { 0.0 };
        let place = match flight.shards.len() {
            0 => "on the page".to_owned(),
            1 => "in a Web Worker".to_owned(),
            n => format!("in {n} Web Workers"),
        };
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
