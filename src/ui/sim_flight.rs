//! The simulator's request in flight over the worker pool: its seed shards' and tail's progress,
//! and the shards' per-seed sweeps until all are in and combine (in seed order) into the sweep
//! whose chunk level the tail's job carries.

use super::worker::now_ms;
use crate::core::sim::Sweep;
use crate::sim_protocol::{chunk_level, combine_shards, levels_total, Job};
use crate::state::Inputs;

/// A request: its number and the state it sweeps.
#[derive(Clone, Copy)]
pub struct Ask {
    pub seq: u32,
    pub inputs: Inputs,
}

/// The request in flight: its parts' progress and the per-seed sweeps received so far.
pub struct Flight {
    pub ask: Ask,
    /// Levels done by each seed shard, then by the tail.
    pub done: Vec<u32>,
    pub total: u32,
    /// Each shard's per-seed sweeps, once received (none on the page).
    pub shards: Vec<Option<Vec<Sweep>>>,
    /// The combined sweep and the chunk trade-off's level, once every shard is in.
    pub sweep: Option<(Sweep, f64)>,
    pub started_ms: f64,
}

impl Flight {
    pub fn new(ask: Ask, shards: u8) -> Flight {
        let n = usize::from(shards);
        let (done, total) = (vec![0; n + 1], levels_total(&ask.inputs));
        Flight { ask, done, total, shards: vec![None; n], sweep: None, started_ms: now_ms() }
    }

    /// (levels done over every part, levels in all).
    pub fn progress(&self) -> (u32, u32) {
        (self.done.iter().sum::<u32>().min(self.total), self.total)
    }

    /// Stores shard `shard`'s sweeps; once all are in, the combined sweep and its tail's job.
    pub fn store(&mut self, shard: u8, sweeps: Vec<Sweep>) -> Option<Job> {
        *self.shards.get_mut(usize::from(shard))? = Some(sweeps);
        if self.shards.iter().any(Option::is_none) {
            return None;
        }
        let Ask { seq, inputs } = self.ask;
        let sweep = combine_shards(&inputs, self.shards.iter_mut().filter_map(Option::take).collect());
        let level = chunk_level(&inputs, &sweep);
        self.sweep = Some((sweep, level));
        Some(Job::Tail { seq, inputs, chunk_level: level })
    }
}
