//! The simulator's plan for one request: the sweep config and, beside it, the disaggregated split
//! it also sweeps and the fleet it also runs. Derived once from the page's state (`state::Inputs::sim_plan`) and carried by
//! every job of the request, so no worker re-derives it. Also how a plan runs into a [`SimResult`]
//! (the orchestration every side shares: the page, its workers, the native tools): on one thread
//! ([`compute`]) or in two rounds of parts ([`shard_sweeps`], then [`second_round`]) that
//! [`assemble`] puts together into the same result.

mod result; // SimResult, PlacementSim
mod run; // compute, the seed shards and their combination, the chunk level, assemble
mod second_round; // the goodput-dependent parts: step budgets, the split's sweep, the fleet

pub use result::{PlacementSim, SimResult};
pub use run::{assemble, chunk_level, combine_shards, compute, levels_total, shard_sweeps, shards_for};
pub use second_round::{
    join_second_round, second_round, second_round_parts_for, SecondRoundPart, CHUNK_BUDGETS, SHARDS_MAX,
};

use serde::{Deserialize, Serialize};

use super::scenario::Scenario;
use super::sim::{DisaggConfig, SimConfig, StepCost};
use super::spec::Speculation;
use super::traffic::{compare, FleetConfig, FleetRow, FleetWorkload, SessionSpec};

/// What one request simulates, validated and derived.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimPlan {
    /// The colocated sweep (and the step-budget comparison) runs on it.
    pub config: SimConfig,
    /// The disaggregated split swept beside it: only with a disaggregated placement and open load.
    pub placement: Option<DisaggConfig>,
    /// The fleet run beside it: only with `fleet=1`.
    pub fleet: Option<FleetPlan>,
}

/// The fleet run beside the sweep: the fleet, and the synthetic sessions it replays when the plan
/// has no trace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetPlan {
    pub config: FleetConfig,
    pub sessions: SessionSpec,
}

impl SimPlan {
    /// The fleet comparison the plan asks for (None without a fleet): every routing policy without
    /// and, with a tier, with it ([`compare`]), on the plan's trace at its recorded times or else its
    /// synthetic sessions. Priced on the sweep's scenario without speculative decoding: the fleet
    /// keeps one token a step per sequence (`core::traffic`'s stated assumptions).
    pub fn fleet_rows(&self) -> Option<Vec<FleetRow>> {
        let fleet = self.fleet.as_ref()?;
        let scenario = Scenario { speculation: Speculation::OFF, ..self.config.scenario };
        let workload = match &self.config.trace {
            Some(trace) => FleetWorkload::Trace(trace),
            None => FleetWorkload::Sessions(fleet.sessions),
        };
        Some(compare(workload, &fleet.config, &StepCost::new(&scenario)))
    }
}
