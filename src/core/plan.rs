//! The simulator's plan for one request: the sweep config and, beside it, the disaggregated split
//! it also sweeps. Derived once from the page's state (`state::Inputs::sim_plan`) and carried by
//! every job of the request, so no worker re-derives it.

use serde::{Deserialize, Serialize};

use super::sim::{DisaggConfig, SimConfig};

/// What one request simulates, validated and derived.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimPlan {
    /// The colocated sweep (and the step-budget comparison) runs on it.
    pub config: SimConfig,
    /// The disaggregated split swept beside it: only with a disaggregated placement and open load.
    pub placement: Option<DisaggConfig>,
}
