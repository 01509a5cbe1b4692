//! One request in flight over the worker pool: its seed shards' and second-round parts' progress,
//! the shards' per-seed sweeps until all are in and combine (in seed order) into the sweep whose
//! chunk level the second round's jobs carry, then the second round's parts until all are in and the
//! result assembles.

use crate::core::plan::{
    assemble, chunk_level, combine_shards, join_second_round, levels_total, SecondRoundPart, SimPlan,
    SimResult,
};
use crate::core::sim::Sweep;
use crate::protocol::sim::{second_round_jobs, Job};
use crate::ui::workers::start::now_ms;

/// A request: its number and what it simulates (derived once from the page's state, see
/// `state::Inputs::sim_plan`; every job of the request carries it).
#[derive(Clone)]
pub struct Ask {
    pub seq: u32,
    pub plan: SimPlan,
}

/// The request in flight: its parts' progress and the per-seed sweeps received so far.
pub struct Flight {
    pub ask: Ask,
    /// Levels done by each seed shard, then by each second-round part.
    done: Vec<u32>,
    total: u32,
    /// Each shard's per-seed sweeps, once received (none on the page).
    pub shards: Vec<Option<Vec<Sweep>>>,
    /// The combined sweep and the chunk trade-off's level, once every shard is in.
    sweep: Option<(Sweep, f64)>,
    /// Each second-round part, once received.
    second_parts: Vec<Option<SecondRoundPart>>,
    pub started_ms: f64,
    /// When the progress bar last moved (the page's clock, in ms).
    shown_ms: f64,
}

/// The progress bar moves at most once per this many ms: each move is a paint of the page on the
/// main thread, which shares the machine's cores with the workers (on 2 cores the bar's 10 or so
/// paints per sweep cost some 5 ms of main-thread time each).
pub const PROGRESS_SHOWN_EVERY_MS: f64 = 50.0;

impl Flight {
    /// A request over `shards` seed shards, then `second_parts` second-round parts (0 and 0 on the page).
    pub fn new(ask: Ask, shards: u8, second_parts: u8) -> Flight {
        let (n, t) = (usize::from(shards), usize::from(second_parts));
        let (done, total) = (vec![0; n + t], levels_total(&ask.plan));
        let started_ms = now_ms();
        let (shards, second_parts) = (vec![None; n], vec![None; t]);
        Flight { ask, done, total, shards, sweep: None, second_parts, started_ms, shown_ms: started_ms }
    }

    /// (levels done over every part, levels in all).
    pub fn progress(&self) -> (u32, u32) {
        (self.done.iter().sum::<u32>().min(self.total), self.total)
    }

    /// Records that seed shard `shard` (or, `second_round`, second-round part `shard`) has run `done`
    /// levels; the progress to show if the bar is due to move ([`PROGRESS_SHOWN_EVERY_MS`] since it
    /// last did).
    pub fn advance(&mut self, second_round: bool, shard: u8, done: u32) -> Option<(u32, u32)> {
        let slot = usize::from(shard) + if second_round { self.shards.len() } else { 0 };
        *self.done.get_mut(slot)? = done;
        let now = now_ms();
        (now - self.shown_ms >= PROGRESS_SHOWN_EVERY_MS).then(|| {
            self.shown_ms = now;
            self.progress()
        })
    }

    /// Stores shard `shard`'s sweeps; once all are in, the combined sweep and its second round's jobs (one
    /// per second-round part, in part order).
    pub fn store(&mut self, shard: u8, sweeps: Vec<Sweep>) -> Option<Vec<Job>> {
        *self.shards.get_mut(usize::from(shard))? = Some(sweeps);
        if self.shards.iter().any(Option::is_none) {
            return None;
        }
        let Ask { seq, ref plan } = self.ask;
        let sweep = combine_shards(plan, self.shards.iter_mut().filter_map(Option::take).collect());
        let level = chunk_level(plan, &sweep);
        self.sweep = Some((sweep, level));
        Some(second_round_jobs(seq, plan, level, self.second_parts.len() as u8))
    }

    /// Stores second-round part `part`; once all are in (after the sweep), the request's result.
    pub fn store_second_round(&mut self, part: u8, ran: SecondRoundPart) -> Option<SimResult> {
        *self.second_parts.get_mut(usize::from(part))? = Some(ran);
        if self.second_parts.iter().any(Option::is_none) {
            return None;
        }
        let (sweep, level) = self.sweep.take()?;
        let whole = join_second_round(self.second_parts.iter_mut().filter_map(Option::take).collect());
        Some(assemble(&self.ask.plan, sweep, level, whole))
    }
}
