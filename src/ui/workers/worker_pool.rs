//! The one pool type both runners use: min(cores, cap) module workers of one bin, each job
//! posted as postcard bytes, each reply decoded and dispatched to the runner's handler unless it
//! answers a request other than the last one posted (a stale `seq`, dropped here), the workers
//! terminated when the pool is retired or dropped.

use std::cell::Cell;
use std::marker::PhantomData;
use std::rc::Rc;

use leptos::prelude::set_timeout;
use serde::{Deserialize, Serialize};

use crate::protocol::codec::{from_bytes, to_bytes, Numbered};
use crate::ui::workers::ahead::adopt;
use crate::ui::workers::compiled::WorkerBin;
use crate::ui::workers::pool::{ModuleWorker, WorkerMessage};
use crate::ui::workers::start::pool_size;

/// What a pool's handler hears.
pub enum PoolEvent<R> {
    /// A reply to the request last posted, decoded.
    Reply(R),
    /// A worker sent bytes that are not a reply.
    Unreadable,
    /// A worker failed to load or crashed (it has been terminated).
    Failed(String),
}

/// Workers that take jobs `J` and answer with replies `R`. Dropping it terminates them.
pub struct WorkerPool<J, R> {
    workers: Vec<ModuleWorker>,
    /// The request last posted (`None` before the first): replies naming another are stale.
    posted: Rc<Cell<Option<u32>>>,
    /// Retired: the workers' replies and failures are no longer heard.
    retired: Rc<Cell<bool>>,
    _protocol: PhantomData<fn(&J) -> R>,
}

impl<J, R> Default for WorkerPool<J, R> {
    /// No workers.
    fn default() -> Self {
        WorkerPool {
            workers: Vec::new(),
            posted: Rc::new(Cell::new(None)),
            retired: Rc::new(Cell::new(false)),
            _protocol: PhantomData,
        }
    }
}

impl<J: Serialize + Numbered + 'static, R: for<'de> Deserialize<'de> + Numbered + 'static> WorkerPool<J, R> {
    /// Starts min(cores, `bin.workers_max`) workers of `bin` (its module fetched and compiled once
    /// for all of them; workers created ahead adopted first), all dispatching to `on_event`; stops
    /// at the first that cannot be created, and fails with why if that is the first.
    pub fn spawn(
        bin: WorkerBin,
        on_event: impl Fn(PoolEvent<R>) + Clone + 'static,
    ) -> Result<WorkerPool<J, R>, String> {
        let mut pool = WorkerPool::default();
        for _ in 0..pool_size(bin.workers_max) {
            let handler = dispatch(pool.posted.clone(), pool.retired.clone(), on_event.clone());
            match ModuleWorker::spawn(bin, adopt(bin), handler) {
                Ok(worker) => pool.workers.push(worker),
                Err(why) if pool.workers.is_empty() => return Err(why),
                Err(_) => break,
            }
        }
        Ok(pool)
    }

    /// Workers running.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Posts job k to worker k (jobs past the last worker are not posted) and makes their request
    /// the one whose replies are heard; the first failure, if any.
    pub fn post_each(&self, jobs: &[J]) -> Result<(), String> {
        if let Some(job) = jobs.first() {
            self.posted.set(Some(job.seq()));
        }
        self.workers.iter().zip(jobs).try_for_each(|(w, job)| w.post(to_bytes(job)))
    }

    /// Stops hearing the workers now and terminates them after this event (a failing worker's
    /// handler may be running now), leaving an empty pool.
    pub fn retire(&mut self) {
        self.retired.set(true);
        let old = std::mem::take(self);
        set_timeout(move || drop(old), std::time::Duration::ZERO);
    }
}

/// A worker's messages, decoded: replies to the request last posted and failures reach
/// `on_event`; stale replies, and everything once retired, are dropped.
fn dispatch<R: for<'de> Deserialize<'de> + Numbered>(
    posted: Rc<Cell<Option<u32>>>,
    retired: Rc<Cell<bool>>,
    on_event: impl Fn(PoolEvent<R>),
) -> impl Fn(WorkerMessage) {
    move |message| {
        if retired.get() {
            return;
        }
        match message.map(|bytes| from_bytes::<R>(&bytes)) {
            Ok(Some(reply)) if posted.get() == Some(reply.seq()) => on_event(PoolEvent::Reply(reply)),
            Ok(Some(_)) => {}
            Ok(None) => on_event(PoolEvent::Unreadable),
            Err(why) => on_event(PoolEvent::Failed(why)),
        }
    }
}
