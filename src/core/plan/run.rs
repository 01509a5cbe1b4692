//! How a request runs: in one go on one thread ([`compute`]), or split over workers in two rounds:
//! contiguous blocks of the seeds ([`shard_sweeps`]), combined in seed order ([`combine_shards`]),
//! then the goodput-dependent second round at [`chunk_level`] ([`second_round`]). The parts
//! [`assemble`] into exactly what [`compute`] returns.

use super::result::SimResult;
use super::second_round::{second_round, SecondRoundPart, SHARDS_MAX};
use super::SimPlan;
use crate::sim::{
    combine_seed_sweeps, seed_count, seed_sweeps, shard_seeds, sweep_levels, sweep_with_progress,
    DisaggConfig, LoadMode, SimConfig, Sweep,
};

/// Load levels a request runs at most: every seed's sweep plus the disaggregated sweep's.
pub fn levels_total(plan: &SimPlan) -> u32 {
    let c = &plan.config;
    let split_levels =
        |d: DisaggConfig| sweep_levels(&SimConfig { rate_max_req_per_s: d.rate_max_req_per_s, ..c.clone() });
    sweep_levels(c) + plan.placement.map_or(0, split_levels)
}

/// Shards a request is split over with `workers` workers: min(workers, seeds, [`SHARDS_MAX`]), at least 1.
pub fn shards_for(plan: &SimPlan, workers: usize) -> u8 {
    let seeds = seed_count(&plan.config) as usize;
    workers.min(seeds).min(usize::from(SHARDS_MAX)).max(1) as u8
}

/// Runs the sweep and the chunk trade-off the plan describes (and, if it has one, the split's
/// sweep) on this thread, reporting progress after each level: what the shards'
/// [`combine_shards`] and the second round's parts ([`super::join_second_round`]) assemble to.
pub fn compute(plan: &SimPlan, mut progress: impl FnMut(u32, u32)) -> SimResult {
    let (own, all) = (sweep_levels(&plan.config), levels_total(plan));
    let sweep = sweep_with_progress(&plan.config, |done, _| progress(done, all));
    let level = chunk_level(plan, &sweep);
    let whole = second_round(plan, level, 0, 1, |done, _| progress(own + done, all));
    assemble(plan, sweep, level, whole)
}

/// The per-seed sweeps of shard `shard` of `shards`.
pub fn shard_sweeps(plan: &SimPlan, shard: u8, shards: u8, progress: impl FnMut(u32, u32)) -> Vec<Sweep> {
    let c = &plan.config;
    seed_sweeps(c, shard_seeds(seed_count(c), u32::from(shard), u32::from(shards)), progress)
}

/// Every shard's per-seed sweeps, in shard order, combined into the sweep shown.
pub fn combine_shards(plan: &SimPlan, shards: Vec<Vec<Sweep>>) -> Sweep {
    combine_seed_sweeps(&plan.config, shards.into_iter().flatten().collect())
}

/// The load the chunk trade-off runs at: half the goodput rate (open; a quarter of the top rate
/// without one) or half the cap in clients (closed), so queues stay short and the budget shows.
pub fn chunk_level(plan: &SimPlan, sweep: &Sweep) -> f64 {
    let c = &plan.config;
    match (c.load, sweep.at_goodput) {
        (LoadMode::Closed, _) => (f64::from(c.max_concurrency) / 2.0).ceil(),
        (LoadMode::Open, Some(p)) => p.rate_req_per_s / 2.0,
        (LoadMode::Open, None) => c.rate_max_req_per_s / 4.0,
    }
}

/// The one place a [`SimResult`] is put together from its parts.
pub fn assemble(plan: &SimPlan, sweep: Sweep, chunk_level: f64, second: SecondRoundPart) -> SimResult {
    let SecondRoundPart { chunks, placement, recorded, fleet } = second;
    let c = &plan.config;
    let replays = chunks.len() as u64 + u64::from(recorded.is_some());
    let requests_simulated = sweep.requests_simulated
        + replays * u64::from(c.requests_per_level())
        + placement.as_ref().map_or(0, |p| p.sweep.requests_simulated)
        + fleet.iter().flatten().map(|row| u64::from(row.report.requests)).sum::<u64>();
    SimResult {
        chunks,
        requests_simulated,
        sweep,
        chunk_level,
        attainment_target: c.attainment_target,
        counting: c.counting,
        load: c.load,
        cap: c.max_concurrency,
        rate_max_req_per_s: c.rate_max_req_per_s,
        placement,
        recorded,
        requests_per_level: c.requests_per_level(),
        fleet,
    }
}
