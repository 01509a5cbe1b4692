//! Runs the configuration search off the main thread: a pool of min(cores, SHARDS_MAX) search
//! workers, created on the first request and reused; each request goes to every worker as one
//! shard, and the shards' replies are merged. A request made while one runs supersedes it: replies
//! with an older seq are ignored. Without workers (the one-file build, a failure) the whole search
//! runs on the main thread at once, after a zero timeout so the status shows first.

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;

use crate::core::search::{search, shard_groups, Found, SearchSpec};
use crate::protocol::search::{SearchReply, SearchRequest};
use crate::ui::workers::ahead::SEARCH_WORKER;
use crate::ui::workers::start::{now_ms, performance_mark};
use crate::ui::workers::worker_pool::{PoolEvent, WorkerPool};

/// The signals a search reports into.
#[derive(Clone, Copy)]
pub struct SearchRun {
    /// The latest finished search's rows (merged from every shard).
    pub found: RwSignal<Option<Found>>,
    /// (groups done, groups in all) of the search running now or last finished.
    pub progress: RwSignal<(u32, u32)>,
    /// A search is running.
    pub busy: RwSignal<bool>,
    /// Searches of the latest spec finished so far (tests wait on it).
    pub searches: RwSignal<u32>,
    /// The last search's time from request to merged rows, in ms.
    pub elapsed_ms: RwSignal<f64>,
    /// Workers used by the last search (0: on the main thread).
    pub workers: RwSignal<u32>,
    pub error: RwSignal<Option<String>>,
}

impl SearchRun {
    pub fn new() -> SearchRun {
        SearchRun {
            found: RwSignal::new(None),
            progress: RwSignal::new((0, 0)),
            busy: RwSignal::new(false),
            searches: RwSignal::new(0),
            elapsed_ms: RwSignal::new(0.0),
            workers: RwSignal::new(0),
            error: RwSignal::new(None),
        }
    }
}

/// The search under way: its shards' progress and the rows merged so far.
struct SearchInFlight {
    seq: u32,
    spec: SearchSpec,
    done: Vec<u32>,
    total: u32,
    finished: usize,
    merged: Found,
    started_ms: f64,
}

/// The runner's mutable state, shared with the workers' reply handlers.
#[derive(Default)]
struct SearchRunnerState {
    workers: WorkerPool<SearchRequest, SearchReply>,
    /// No worker could be started: searches run on the main thread.
    local: bool,
    seq: u32,
    in_flight: Option<SearchInFlight>,
}

/// A handle the panel keeps; cheap to copy into effects.
#[derive(Clone, Copy)]
pub struct SearchRunner {
    run: SearchRun,
    state: StoredValue<Rc<RefCell<SearchRunnerState>>, LocalStorage>,
}

impl SearchRunner {
    pub fn new(run: SearchRun) -> SearchRunner {
        let state = Rc::new(RefCell::new(SearchRunnerState::default()));
        SearchRunner { run, state: StoredValue::new_local(state) }
    }

    /// Searches `spec`, superseding any search still running.
    pub fn request(&self, spec: SearchSpec) {
        performance_mark("goodput:search-start");
        let state = self.state.get_value();
        let seq = {
            let mut p = state.borrow_mut();
            if p.workers.is_empty() && !p.local {
                self.spawn_workers(&mut p, &state);
            }
            p.seq = p.seq.wrapping_add(1);
            let shards = if p.local { 1 } else { p.workers.len() };
            let total: u32 = (0..shards).map(|k| shard_groups(k as u8, shards as u8).len() as u32).sum();
            let (seq, started_ms) = (p.seq, now_ms());
            let done = vec![0; shards];
            let merged = Found::default();
            p.in_flight = Some(SearchInFlight { seq, spec, done, total, finished: 0, merged, started_ms });
            self.run.progress.set((0, total));
            self.run.busy.set(true);
            seq
        };
        self.post_all(&state, seq, spec);
    }

    /// Starts min(cores, [`crate::core::search::SHARDS_MAX`]) workers; none at all: search on the main thread.
    fn spawn_workers(&self, p: &mut SearchRunnerState, state: &Rc<RefCell<SearchRunnerState>>) {
        let handler = self.reply_handler(Rc::downgrade(state));
        p.workers = WorkerPool::spawn(SEARCH_WORKER, handler).unwrap_or_default();
        p.local = p.workers.is_empty();
    }

    /// Posts shard k of n to worker k, or runs the search here.
    fn post_all(&self, state: &Rc<RefCell<SearchRunnerState>>, seq: u32, spec: SearchSpec) {
        let failed = {
            let p = state.borrow();
            let shards = p.workers.len() as u8;
            let requests: Vec<SearchRequest> =
                (0..shards).map(|shard| SearchRequest { seq, shard, shards, spec }).collect();
            p.workers.post_each(&requests).err()
        };
        if let Some(why) = failed {
            self.fall_back(state, why);
        } else if state.borrow().local {
            self.run_locally(state.clone(), seq, spec);
        }
    }

    /// A worker failed: drop the state and redo the latest search on the main thread.
    fn fall_back(&self, state: &Rc<RefCell<SearchRunnerState>>, why: String) {
        let redo = {
            let mut p = state.borrow_mut();
            p.workers.retire();
            p.local = true;
            p.in_flight.as_ref().map(|q| q.spec)
        };
        self.run
            .error
            .set(Some(format!("The search workers could not run ({why}); searching on the page instead.")));
        if let Some(spec) = redo {
            self.request(spec);
        }
    }

    fn run_locally(&self, state: Rc<RefCell<SearchRunnerState>>, seq: u32, spec: SearchSpec) {
        let this = *self;
        set_timeout(
            move || {
                let found = search(&spec);
                this.deliver(&state, SearchReply::Done { seq, shard: 0, found });
            },
            std::time::Duration::ZERO,
        );
    }

    fn reply_handler(
        &self,
        state: std::rc::Weak<RefCell<SearchRunnerState>>,
    ) -> impl Fn(PoolEvent<SearchReply>) + Clone + 'static {
        let this = *self;
        move |event| {
            let Some(state) = state.upgrade() else { return };
            match event {
                PoolEvent::Reply(reply) => this.deliver(&state, reply),
                PoolEvent::Unreadable => {
                    this.run.error.set(Some("A search worker sent a reply the page cannot read.".into()))
                }
                PoolEvent::Failed(why) => this.fall_back(&state, why),
            }
        }
    }

    /// Progress and rows of the latest search reach the page; older ones are dropped.
    fn deliver(&self, state: &Rc<RefCell<SearchRunnerState>>, reply: SearchReply) {
        let outcome = {
            let mut p = state.borrow_mut();
            let workers = p.workers.len() as u32;
            let Some(q) = p.in_flight.as_mut().filter(|q| q.seq == reply.seq()) else { return };
            match reply {
                SearchReply::Progress { shard, done, .. } => {
                    if let Some(d) = q.done.get_mut(usize::from(shard)) {
                        *d = done;
                    }
                    Err(q.done.iter().sum::<u32>().min(q.total))
                }
                SearchReply::Done { shard, found, .. } => {
                    let shards = q.done.len() as u8;
                    if let Some(d) = q.done.get_mut(usize::from(shard)) {
                        *d = shard_groups(shard, shards).len() as u32;
                    }
                    q.merged.merge(found);
                    q.finished += 1;
                    if q.finished < q.done.len() {
                        Err(q.done.iter().sum::<u32>().min(q.total))
                    } else {
                        let q = p.in_flight.take().expect("the in_flight search was just read");
                        Ok((q.merged, now_ms() - q.started_ms, workers, q.total))
                    }
                }
            }
        };
        self.report(state, outcome);
    }

    /// Progress (`Err(groups done)`) or the merged rows, their time, workers and groups.
    fn report(&self, state: &Rc<RefCell<SearchRunnerState>>, outcome: Result<(Found, f64, u32, u32), u32>) {
        match outcome {
            Err(done) => {
                let total = state.borrow().in_flight.as_ref().map_or(done, |q| q.total);
                self.run.progress.set((done, total));
            }
            Ok((found, elapsed_ms, workers, total)) => {
                performance_mark("goodput:search-end");
                self.run.found.set(Some(found));
                self.run.elapsed_ms.set(elapsed_ms.max(0.0));
                self.run.workers.set(workers);
                self.run.progress.set((total, total));
                self.run.busy.set(false);
                self.run.searches.update(|n| *n += 1);
            }
        }
    }
}
