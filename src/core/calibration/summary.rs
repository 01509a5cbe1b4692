//! The page's cost model beside the measured engines': the planning figures each panel prints (the
//! knee, its TPOT and goodput per GPU, the fastest TPOT any batch reaches, the capacity plan's GPUs
//! and cost) for one scenario, priced once with the scenario's own cost model and once with
//! [`CostModel::Measured`], so a page on the ideal roofline can say how far its bounds are from what
//! engines reach. Total: a scenario in which nothing runs gives `None` fields, never a panic.

use serde::{Deserialize, Serialize};

use super::{CostModel, Engine};
use crate::capacity::{capacity_plan, Placing};
use crate::energy::EnergyPrice;
use crate::goodput::evaluate;
use crate::roofline::{analyze, step_time, Analysis, Limit};
use crate::scenario::Scenario;

/// One cost model's planning figures for a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The knee as a server runs it: the largest batch meeting both targets that the KV pool holds
    /// ([`Analysis::server_batch`], the batch the capacity plan runs at); `None` when no batch does.
    pub knee_batch: Option<u32>,
    /// TPOT (the step time per output token) at that batch, in s.
    pub knee_tpot_s: Option<f64>,
    /// Goodput per GPU at that batch (requests/s meeting both targets, over the replica's TP GPUs).
    pub knee_goodput_per_gpu_req_per_s: Option<f64>,
    /// The fastest TPOT any batch reaches: the step at batch 1, in s (the floor the search's
    /// "tokens/s per user" cannot beat); `None` when not even one sequence fits in memory.
    pub floor_tpot_s: Option<f64>,
    /// GPUs the capacity plan needs to serve the load inside both targets (replicas x TP).
    pub gpus: Option<u32>,
    /// What those GPUs cost per million output tokens at the load, in $.
    pub usd_per_million_tokens: Option<f64>,
}

/// The target load, GPU price and placement the capacity plan's figures are for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// Requests per second to serve.
    pub rate_req_per_s: f64,
    /// $ per GPU-hour.
    pub usd_per_gpu_hour: f64,
    /// Where prefill runs and the percentile the plan is read at.
    pub placing: Placing,
    /// The power's price, PUE and host power the plan's $/Mtok adds.
    pub energy: EnergyPrice,
}

/// The scenario's own figures beside the measured engines' for the same scenario.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The engine whose measured profile prices `measured`.
    pub engine: Engine,
    /// Priced with the scenario's own cost model (the ideal roofline while the page shows it).
    pub own: Figures,
    /// Priced with [`CostModel::Measured`]`(engine)`, everything else unchanged.
    pub measured: Figures,
}

/// [`Figures`] for `scenario` under its own cost model, with the capacity plan for `load`.
pub fn figures(scenario: &Scenario, load: Load) -> Figures {
    let analysis = analyze(scenario);
    let knee = (analysis.server_batch > 0).then(|| evaluate(scenario, analysis.server_batch));
    let plan =
        capacity_plan(scenario, &load.placing, load.rate_req_per_s, load.usd_per_gpu_hour, &load.energy);
    Figures {
        knee_batch: knee.map(|p| p.batch),
        knee_tpot_s: knee.and_then(|p| finite(p.step.step_s)),
        knee_goodput_per_gpu_req_per_s: knee.and_then(|p| finite(p.goodput_per_gpu_req_per_s)),
        floor_tpot_s: floor_tpot_s(scenario, &analysis),
        gpus: plan.map(|p| p.gpus),
        usd_per_million_tokens: plan.and_then(|p| finite(p.cost_per_million_tokens)),
    }
}

/// The scenario's figures and the measured engines' (`engine`'s profile) side by side.
pub fn summary(scenario: &Scenario, engine: Engine, load: Load) -> Summary {
    let measured = Scenario { calibration: CostModel::Measured(engine), ..*scenario };
    Summary { engine, own: figures(scenario, load), measured: figures(&measured, load) }
}

/// step(1) when at least one sequence fits beside the weights, else `None`.
fn floor_tpot_s(scenario: &Scenario, analysis: &Analysis) -> Option<f64> {
    match analysis.limit {
        Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. } => None,
        _ => finite(step_time(scenario, 1).step_s),
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}
