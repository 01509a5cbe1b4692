//! The goodput-dependent rest of a request, split into parts (one per worker): the step-budget comparison's
//! budgets ([`CHUNK_BUDGETS`]) in contiguous blocks, one per part, and the disaggregated sweep (when
//! the plan has one) on a part of its own. Its parts, joined in part order, are exactly the
//! one-part second round.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::result::PlacementSim;
use super::SimPlan;
use crate::placement::disaggregated;
use crate::sim::{
    chunk_tradeoff, shard_seeds, simulate, sweep_disaggregated, ChunkPoint, DisaggConfig, LoadMode,
    RatePoint, SimConfig,
};
use crate::traffic::FleetRow;

/// Step budgets the chunked-prefill trade-off compares, in tokens.
pub const CHUNK_BUDGETS: [u32; 7] = [128, 256, 512, 1024, 2048, 4096, 8192];
/// The most workers one sweep's seeds (and its second round's budgets) are split over.
pub const SHARDS_MAX: u8 = 4;

/// What one part of the second round ran.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SecondRoundPart {
    /// Its block of [`CHUNK_BUDGETS`], in budget order.
    pub chunks: Vec<ChunkPoint>,
    /// The disaggregated sweep, from the part that ran it.
    pub placement: Option<PlacementSim>,
    /// A trace replayed as recorded (open load), from part 0.
    pub recorded: Option<RatePoint>,
    /// The fleet comparison ([`SimPlan::fleet_rows`]), from the last part.
    pub fleet: Option<Vec<FleetRow>>,
}

/// Parts the second round is split over with `workers` workers: min(workers, the budgets plus one for the
/// disaggregated sweep if it runs, [`SHARDS_MAX`]), at least 1.
pub fn second_round_parts_for(plan: &SimPlan, workers: usize) -> u8 {
    let jobs =
        CHUNK_BUDGETS.len() + usize::from(plan.placement.is_some()) + usize::from(plan.fleet.is_some());
    workers.min(jobs).min(usize::from(SHARDS_MAX)).max(1) as u8
}

/// What part `part` of `parts` runs: a block of [`CHUNK_BUDGETS`]' indices, and whether it runs the
/// disaggregated sweep (`split`): with one part, everything; otherwise part 0 runs the split's
/// sweep alone (it is the longest job) and the other parts share the budgets.
fn share(split: bool, part: u8, parts: u8) -> (Range<usize>, bool) {
    let (p, n, budgets) = (u32::from(part), u32::from(parts.max(1)), CHUNK_BUDGETS.len() as u32);
    match (split, n, p) {
        (false, _, _) => (shard_seeds(budgets, p, n), false),
        (true, 1, _) => (shard_seeds(budgets, p, 1), p == 0),
        (true, _, 0) => (0..0, true),
        (true, _, _) => (shard_seeds(budgets, p - 1, n - 1), false),
    }
}

/// Part `part` of `parts` of the goodput-dependent rest: its block of the chunk trade-off at
/// `chunk_level` and, if it is the part that runs it, the split's sweep (with its progress).
pub fn second_round(
    plan: &SimPlan,
    chunk_level: f64,
    part: u8,
    parts: u8,
    progress: impl FnMut(u32, u32),
) -> SecondRoundPart {
    let (c, d) = (&plan.config, plan.placement);
    let (budgets, runs_split) = share(d.is_some(), part, parts);
    let placement = d.filter(|_| runs_split).and_then(|d| placement_sim(c, &d, progress));
    let budgets = CHUNK_BUDGETS.get(budgets).unwrap_or_default();
    let recorded = if part == 0 { replay_as_recorded(c) } else { None };
    let fleet = if part + 1 >= parts { plan.fleet_rows() } else { None };
    SecondRoundPart { chunks: chunk_tradeoff(c, chunk_level, budgets), placement, recorded, fleet }
}

/// The plan's trace replayed at the rate it was recorded at (open load; None without a trace, with
/// closed load, or when the trace has no rate: every request at once).
fn replay_as_recorded(c: &SimConfig) -> Option<RatePoint> {
    let rate = c.trace.as_ref()?.recorded_rate_req_per_s()?;
    (c.load == LoadMode::Open).then(|| simulate(c, rate))
}

/// The second round's parts, in part order, joined into the one-part second round.
pub fn join_second_round(parts: Vec<SecondRoundPart>) -> SecondRoundPart {
    parts.into_iter().fold(SecondRoundPart::default(), |mut whole, part| {
        whole.chunks.extend(part.chunks);
        whole.placement = whole.placement.or(part.placement);
        whole.recorded = whole.recorded.or(part.recorded);
        whole.fleet = whole.fleet.take().or(part.fleet);
        whole
    })
}

/// The split's sweep and its per-GPU reading.
fn placement_sim(c: &SimConfig, d: &DisaggConfig, progress: impl FnMut(u32, u32)) -> Option<PlacementSim> {
    Some(PlacementSim {
        split: d.split,
        decode_cap: d.decode_cap,
        gpus: d.gpus(&c.scenario),
        colocated_gpus: c.scenario.parallel.gpus(),
        sweep: sweep_disaggregated(c, d, progress)?,
        analytic: disaggregated(&c.scenario, &d.split, &c.percentile()),
    })
}
