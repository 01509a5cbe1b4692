//! The capacity plan: how many replicas (or disaggregated systems) and GPUs serve a target load
//! inside both targets at the page's attainment percentile, with each request's prefill on the
//! GPUs, and what a million output tokens then cost at the GPU's price. The configuration search
//! prices each row with these same functions, so the two give one answer for one configuration.

use serde::{Deserialize, Serialize};

use super::calibration::range::{likely_range, LikelyRange};
use super::energy::{decode_utilization, serving_energy, EnergyPrice, ServingEnergy};
use super::placement::{
    chunked_best, decode_parallel, disaggregated, Binds, Disaggregated, Percentile, PlacementMode, Split,
};
use super::scenario::Scenario;

/// Seconds in an hour, for $/GPU-hour.
pub const S_PER_HOUR: f64 = 3600.0;

/// Where a unit of serving runs: what a plan (and a search row) derives everything else from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// The unit's highest rate inside both targets at the percentile, in requests/s.
    pub rate_req_per_s: f64,
    /// GPUs of one unit: a colocated replica's TP, or x x TP_p + y x TP_d.
    pub gpus: u32,
    /// TPOT's p-quantile there (disaggregated: the decode instances' at their batch), in s.
    pub tpot_s: f64,
    /// TTFT's p-quantile there, in s.
    pub ttft_s: f64,
    /// What stops the rate from rising further.
    pub binds: Binds,
    /// How busy the unit's decode step keeps its GPUs at the operating batch, 0 to 1
    /// ([`crate::energy::decode_utilization`]); every GPU of the unit is taken to draw so.
    pub utilization: f64,
}

impl Point {
    /// A disaggregated system's point, its utilization the decode instances' step at their batch on
    /// `decode_scenario` (the scenario with the decode instances' parallelism); `None` when it has
    /// no TPOT or TTFT.
    pub fn of(d: &Disaggregated, decode_scenario: &Scenario) -> Option<Point> {
        let (tpot_s, ttft_s) = (d.decode_tpot_s?, d.ttft_s?);
        let utilization = decode_utilization(decode_scenario, f64::from(d.decode_batch));
        Some(Point {
            rate_req_per_s: d.rate_req_per_s,
            gpus: d.gpus,
            tpot_s,
            ttft_s,
            binds: d.binds,
            utilization,
        })
    }
}

/// How prefill is placed for a plan: the page's placement control.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placing {
    pub mode: PlacementMode,
    /// The split, when disaggregated.
    pub split: Split,
    /// The colocated replica's step token budget (chunked prefill), in tokens.
    pub chunk_tokens: u32,
    pub percentile: Percentile,
}

/// The unit `placing` describes on `scenario` at its highest rate inside both targets: a colocated
/// replica with chunked prefill ([`chunked_best`]) or the split ([`disaggregated`]); `None` when
/// it serves nothing.
pub fn unit_point(scenario: &Scenario, placing: &Placing) -> Option<Point> {
    let point = match placing.mode {
        PlacementMode::Colocated => {
            let op = chunked_best(scenario, placing.chunk_tokens, &placing.percentile);
            let (tpot_s, ttft_s) = (op.tpot_s?, op.ttft_s?);
            Point {
                rate_req_per_s: op.rate_req_per_s,
                gpus: scenario.parallel.gpus(),
                tpot_s,
                ttft_s,
                binds: op.binds,
                utilization: decode_utilization(scenario, op.batch),
            }
        }
        PlacementMode::Disaggregated => {
            let decode = Scenario { parallel: decode_parallel(scenario, &placing.split), ..*scenario };
            Point::of(&disaggregated(scenario, &placing.split, &placing.percentile), &decode)?
        }
    };
    (point.rate_req_per_s > 0.0 && point.rate_req_per_s.is_finite() && point.gpus > 0).then_some(point)
}

/// A plan for serving a load inside both targets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapacityPlan {
    /// One unit (replica or system) at its operating point.
    pub unit: Point,
    /// ceil(load / unit rate).
    pub replicas: u32,
    /// replicas x the unit's GPUs.
    pub gpus: u32,
    /// The GPU's price, in $ per GPU-hour.
    pub usd_per_gpu_hour: f64,
    /// gpus x price + the energy's $ per hour, in $ per hour.
    pub cost_per_hour: f64,
    /// cost_per_hour / (load x output tokens x 3600) x 1e6, in $ per million output tokens (the
    /// GPU-hours and the energy together).
    pub cost_per_million_tokens: f64,
    /// What the plan's GPUs draw at the unit's utilization and what that costs
    /// ([`crate::energy`]): power (MW = power_w / 1e6), J per output token, and the energy's
    /// share of $ per million output tokens.
    pub energy: ServingEnergy,
}

/// The plan for `rate_req_per_s` with `placing` at `usd_per_gpu_hour` and `energy`'s power price;
/// `None` when the unit serves nothing inside the targets, the load is not positive, or the GPUs
/// would not fit a u32.
pub fn capacity_plan(
    scenario: &Scenario,
    placing: &Placing,
    rate_req_per_s: f64,
    usd_per_gpu_hour: f64,
    energy: &EnergyPrice,
) -> Option<CapacityPlan> {
    let unit = unit_point(scenario, placing)?;
    plan_at(&unit, rate_req_per_s, usd_per_gpu_hour, scenario, energy)
}

/// The plan for a unit of `scenario` already priced at `unit`.
pub fn plan_at(
    unit: &Point,
    rate_req_per_s: f64,
    usd_per_gpu_hour: f64,
    scenario: &Scenario,
    energy: &EnergyPrice,
) -> Option<CapacityPlan> {
    let gpus = gpus_for(rate_req_per_s, unit.rate_req_per_s, unit.gpus);
    if gpus == 0 {
        return None;
    }
    let output_tokens = scenario.output_tokens;
    let tokens_per_s = rate_req_per_s * f64::from(output_tokens);
    let energy = serving_energy(&scenario.gpu, unit.utilization, gpus, tokens_per_s, energy);
    let cost_per_hour = f64::from(gpus) * usd_per_gpu_hour + energy.energy_usd_per_hour;
    Some(CapacityPlan {
        unit: *unit,
        replicas: gpus / unit.gpus.max(1),
        gpus,
        usd_per_gpu_hour,
        cost_per_hour,
        cost_per_million_tokens: usd_per_million_tokens(cost_per_hour, rate_req_per_s, output_tokens),
        energy,
    })
}

/// ceil(load / rate) x gpus; 0 for no load, and 0 (no plan) when that count does not fit a u32: a
/// count clamped to u32::MAX would claim GPUs that do not serve the load (a configuration serving
/// 2e-12 req/s; tests/it/fuzz/search.rs found one).
pub fn gpus_for(load_req_per_s: f64, rate_req_per_s: f64, gpus: u32) -> u32 {
    let count = (load_req_per_s / rate_req_per_s).ceil() * f64::from(gpus);
    if count.is_finite() && count >= 1.0 && count <= f64::from(u32::MAX) {
        count as u32
    } else {
        0
    }
}

/// $ per million output tokens of GPUs costing `usd_per_hour` together while they serve
/// `rate_req_per_s` requests of `output_tokens` each: usd_per_hour / (rate x output x 3600) x 1e6.
pub fn usd_per_million_tokens(usd_per_hour: f64, rate_req_per_s: f64, output_tokens: u32) -> f64 {
    usd_per_hour / (rate_req_per_s * f64::from(output_tokens) * S_PER_HOUR) * 1e6
}

/// The GPUs a plan needs at both ends of the measured engines' likely range (every step
/// [`LikelyRange::low`] and [`LikelyRange::high`] times as long: [`LikelyRange::scaled`]), with the
/// range; `None` off the measured engines. An end with no plan (no rate meets both targets when
/// steps are that slow) is `None`.
pub fn gpus_range(
    scenario: &Scenario,
    placing: &Placing,
    rate_req_per_s: f64,
    usd_per_gpu_hour: f64,
) -> Option<(LikelyRange, Option<u32>, Option<u32>)> {
    let range = likely_range(scenario)?;
    let at = |factor: f64| {
        let scaled = LikelyRange::scaled(scenario, factor);
        capacity_plan(&scaled, placing, rate_req_per_s, usd_per_gpu_hour, &EnergyPrice::FREE).map(|p| p.gpus)
    };
    Some((range, at(range.low), at(range.high)))
}
