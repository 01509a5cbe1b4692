//! The likely range of a calibrated number: how far the measured profile's TPOT has been off, out of
//! sample, for predictions of the same coverage class, as factors on the predicted time.
//!
//! A prediction's coverage class says what the data hold for it: its GPU fitted, only a GPU of the
//! same vendor and generation, or nothing of its family ("not measured"); and whether a row of the
//! same engine and weight precision ran on that family. The held-out predictions of the
//! cross-validation ([`super::crossval`]: leave one row, one GPU, one engine out) each carry the class
//! their prediction had when made, so each class's range is the 10th to 90th percentile of
//! measured / predicted over the held-out rows of that class (aiming at 80% coverage), widened to
//! hold 1 and every better-covered class's range; a class with fewer than [`MIN_ROWS`] held-out rows
//! also takes in the next wider class's rows. A step time, TPOT or GPU count t lies likely in
//! [t x low, t x high]; a throughput r in [r / high, r / low].

use serde::{Deserialize, Serialize};

use super::coverage::{coverage, ClassRange, Coverage};
use super::crossval::{quantile, Held};
use super::profile::{PROFILE, RANGES};
use super::published::POINTS;
use super::terms::cost_terms;
use super::transfer::scenario_slots;
use super::{CostModel, CostTerms};
use crate::core::presets::GpuSpec;
use crate::core::scenario::Scenario;

/// Fewest held-out rows a class's range is read from before it takes in the next wider class's.
pub const MIN_ROWS: usize = 5;

/// The share of held-out rows a range aims to hold.
pub const COVERAGE_AIM: f64 = 0.8;

/// Each class's range from the held-out predictions (see the module's rule), by [`Coverage::index`].
pub fn class_ranges(held: &[Held]) -> [ClassRange; 6] {
    let mut out = [ClassRange { low: 1.0, high: 1.0, rows: 0 }; 6];
    let mut widest = (1.0_f64, 1.0_f64);
    for i in 0..Coverage::ALL.len() {
        let mut ratios: Vec<f64> = Vec::new();
        for wider in &Coverage::ALL[i..] {
            ratios.extend(
                held.iter().filter(|h| h.coverage == *wider).map(|h| h.error.measured / h.error.predicted),
            );
            if ratios.len() >= MIN_ROWS {
                break;
            }
        }
        ratios.retain(|r| r.is_finite());
        ratios.sort_by(f64::total_cmp);
        let tail = (1.0 - COVERAGE_AIM) / 2.0;
        let (low, high) = (quantile(&ratios, tail).min(1.0), quantile(&ratios, 1.0 - tail).max(1.0));
        widest = (widest.0.min(if ratios.is_empty() { 1.0 } else { low }), widest.1.max(high));
        out[i] = ClassRange { low: widest.0, high: widest.1, rows: ratios.len() };
    }
    out
}

/// A calibrated scenario's likely range: its coverage class and the factors on its predicted times.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LikelyRange {
    pub coverage: Coverage,
    pub low: f64,
    pub high: f64,
}

impl LikelyRange {
    /// A time (step, TPOT, TTFT) of `t_s` as its likely (low, high), in s.
    pub fn time_s(&self, t_s: f64) -> (f64, f64) {
        (t_s * self.low, t_s * self.high)
    }

    /// A rate (tokens/s, requests/s) of `r` as its likely (low, high): the slow end of the time range
    /// gives the low rate.
    pub fn rate(&self, r: f64) -> (f64, f64) {
        (r / self.high, r / self.low)
    }

    /// `scenario` with every step `factor` times as long: the GPU's bandwidths and peaks divided by
    /// it, the cost model's fixed costs multiplied (the measured terms made explicit), so a plan or a
    /// knee can be read at either end of the range.
    pub fn scaled(scenario: &Scenario, factor: f64) -> Scenario {
        let t = cost_terms(scenario);
        let terms = CostTerms {
            step_overhead_s: t.step_overhead_s * factor,
            layer_overhead_s: t.layer_overhead_s * factor,
            collective_latency_s: t.collective_latency_s * factor,
            ..t
        };
        let g = scenario.gpu;
        let gpu = GpuSpec {
            hbm_bandwidth_bytes_per_s: g.hbm_bandwidth_bytes_per_s / factor,
            bf16_flop_per_s: g.bf16_flop_per_s / factor,
            fp8_flop_per_s: g.fp8_flop_per_s.map(|f| f / factor),
            fp4_flop_per_s: g.fp4_flop_per_s.map(|f| f / factor),
            interconnect_bytes_per_s: g.interconnect_bytes_per_s / factor,
            ..g
        };
        Scenario { gpu, calibration: CostModel::Terms(terms), ..*scenario }
    }
}

/// The likely range of `scenario`'s numbers: under the measured engines' cost model, its coverage
/// class and that class's shipped range ([`super::profile::RANGES`]); `None` under any other (the
/// ideal roofline is a bound, custom and fitted calibrations are the user's).
pub fn likely_range(scenario: &Scenario) -> Option<LikelyRange> {
    let CostModel::Measured(engine) = scenario.calibration else { return None };
    let slots = scenario_slots(scenario);
    let coverage = coverage(&PROFILE, POINTS, scenario.gpu.id, engine, scenario.weight_precision, slots);
    let r = RANGES[coverage.index()];
    Some(LikelyRange { coverage, low: r.low, high: r.high })
}
