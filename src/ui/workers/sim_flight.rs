//! One request in flight over the worker pool: its seed shards' and tail parts' progress, the
//! shards' per-seed sweeps until all are in and combine (in seed order) into the sweep whose chunk
//! level the tail's jobs carry, then the tail's parts until all are in and the result assembles.

use crate::ui::workers::pool::now_ms;
use crate::core::sim::{SimPlan, Sweep};
use crate::protocol::sim::{
    assemble, chunk_level, combine_shards, join_tails, levels_total, tail_jobs, Job, SimResult, TailPart,
};

/// A request: its number and what it simulates (derived once from the page's state, see
/// `state::Inputs::sim_plan`; every job of the request carries it).
#[derive(Clone, Copy)]
pub struct Ask {
    pub seq: u32,
    pub plan: SimPlan,
}

/// The request in flight: its parts' progress and the per-seed sweeps received so far.
pub struct Flight {
    pub ask: Ask,
    /// Levels done by each seed shard, then by each tail part.
    done: Vec<u32>,
    total: u32,
    /// Each shard's per-seed sweeps, once received (none on the page).
    pub shards: Vec<Option<Vec<Sweep>>>,
    /// The combined sweep and the chunk trade-off's level, once every shard is in.
    sweep: Option<(Sweep, f64)>,
    /// Each tail part, once received.
    tails: Vec<Option<TailPart>>,
    pub started_ms: f64,
    /// When the progress bar last moved (the page's clock, in ms).
    shown_ms: f64,
}

/// The progress bar moves at most once per this many ms: each move is a paint of the page on the
/// main thread, which shares the machine's cores with the workers (on 2 cores the bar's 10 or so
/// paints per sweep cost some 5 ms of main-thread time each).
pub const PROGRESS_SHOWN_EVERY_MS: f64 = 50.0;

impl Flight {
    /// A request over `shards` seed shards, then `tails` tail parts (0 and 0 on the page).
    pub fn new(ask: Ask, shards: u8, tails: u8) -> Flight {
        let (n, t) = (usize::from(shards), usize::from(tails));
        let (done, total) = (vec![0; n + t], levels_total(&ask.plan));
        let started_ms = now_ms();
        let (shards, tails) = (vec![None; n], vec![None; t]);
        Flight { ask, done, total, shards, sweep: None, tails, started_ms, shown_ms: started_ms }
    }

    /// (levels done over every part, levels in all).
    pub fn progress(&self) -> (u32, u32) {
        (self.done.iter().sum::<u32>().min(self.total), self.total)
    }

    /// Records that seed shard `shard` (or, `tail`, tail part `shard`) has run `done` levels; the
    /// progress to show if the bar is due to move ([`PROGRESS_SHOWN_EVERY_MS`] since it last did).
    pub fn advance(&mut self, tail: bool, shard: u8, done: u32) -> Option<(u32, u32)> {
        let slot = usize::from(shard) + if tail { self.shards.len() } else { 0 };
        *self.done.get_mut(slot)? = done;
        let now = now_ms();
        (now - self.shown_ms >= PROGRESS_SHOWN_EVERY_MS).then(|| {
            self.shown_ms = now;
            self.progress()
        })
    }

    /// Stores shard `shard`'s sweeps; once all are in, the combined sweep and its tail's jobs (one
    /// per tail part, in part order).
    pub fn store(&mut self, shard: u8, sweeps: Vec<Sweep>) -> Option<Vec<Job>> {
        *self.shards.get_mut(usize::from(shard))? = Some(sweeps);
        if self.shards.iter().any(Option::is_none) {
            return None;
        }
        let Ask { seq, plan } = self.ask;
        let sweep = combine_shards(&plan, self.shards.iter_mut().filter_map(Option::take).collect());
        let level = chunk_level(&plan, &sweep);
        self.sweep = Some((sweep, level));
        Some(tail_jobs(seq, &plan, level, self.tails.len() as u8))
    }

    /// Stores tail part `part`; once all are in (after the sweep), the request's result.
    pub fn store_tail(&mut self, part: u8, tail: TailPart) -> Option<SimResult> {
        *self.tails.get_mut(usize::from(part))? = Some(tail);
        if self.tails.iter().any(Option::is_none) {
            return None;
        }
        let (sweep, level) = self.sweep.take()?;
        let whole = join_tails(self.tails.iter_mut().filter_map(Option::take).collect());
        Some(assemble(&self.ask.plan, sweep, level, whole))
    }
}
