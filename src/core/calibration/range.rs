//! The likely range of a calibrated number: how far the measured profile's TPOT has been off, out of
//! sample, for predictions of the same coverage class, as factors on the predicted time.
//!
//! A prediction's coverage class says what the data hold for it: its GPU fitted, only a GPU of the
//! same vendor and generation, or nothing of its family ("not measured"); and whether a row of the
//! same engine and weight precision ran on that family. The held-out predictions of the
//! out-of-sample procedure ([`super::holdout`]: a GPU family's engine release left out, and the rows
//! after a date predicted from those before) each carry the class their prediction had when made, so
//! each class's range is the split-conformal 10th to 90th percentile of measured / predicted over the
//! held-out rows of that class ([`conformal_bounds`], aiming at 80% coverage), widened to hold 1 and
//! every better-covered class's range; a class with fewer than [`MIN_ROWS`] held-out rows
//! also takes in the next wider class's rows. A step time, TPOT or GPU count t lies likely in
//! [t x low, t x high]; a throughput r in [r / high, r / low].

use serde::{Deserialize, Serialize};

use super::coverage::{coverage, ClassRange, Config, Coverage};
use super::crossval::{quantile, Held};
use super::profile::{PROFILE, RANGES};
use super::published::POINTS;
use super::terms::cost_terms;
use super::transfer::scenario_slots;
use super::{CostModel, CostTerms};
use crate::core::parallel::Cluster;
use crate::core::presets::GpuSpec;
use crate::core::scenario::Scenario;

/// Fewest held-out rows a class's range is read from before it takes in the next wider class's.
/// The smallest n for which the split-conformal upper bound at [`COVERAGE_AIM`] is an order
/// statistic rather than infinity: ceil((n + 1) x 0.9) <= n holds from n = 9 ((1 - tail) / tail with
/// tail = 0.1). Below it [`conformal_bounds`] could only clamp to the extremes, so a class pools.
pub const MIN_ROWS: usize = 9;

/// The share of held-out rows a range aims to hold.
pub const COVERAGE_AIM: f64 = 0.8;

/// Each class's range from the held-out predictions (see the module's rule), by [`Coverage::index`].
pub fn class_ranges(held: &[Held]) -> [ClassRange; 6] {
    class_ranges_with(held, conformal_bounds)
}

/// Each class's range with `bounds` reading a sorted set of ratios' (low, high) for a tail on each
/// side: [`conformal_bounds`] now, the plain 10th and 90th percentiles before issue 48.
pub fn class_ranges_with(held: &[Held], bounds: fn(&[f64], f64) -> (f64, f64)) -> [ClassRange; 6] {
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
        let (low, high) = bounds(&ratios, tail);
        let (low, high) = (low.min(1.0), high.max(1.0));
        widest = (widest.0.min(if ratios.is_empty() { 1.0 } else { low }), widest.1.max(high));
        out[i] = ClassRange { low: widest.0, high: widest.1, rows: ratios.len() };
    }
    out
}

/// The plain percentiles of sorted `ratios` (linear between order statistics): the rule before the
/// conformal one, kept for the report's before-and-after table.
pub fn percentile_bounds(sorted: &[f64], tail: f64) -> (f64, f64) {
    (quantile(sorted, tail), quantile(sorted, 1.0 - tail))
}

/// The split-conformal bounds of sorted `ratios` for a two-sided range leaving `tail` out on each
/// side: the k-th smallest with k = floor((n + 1) x tail) and the k-th with k = ceil((n + 1) x (1 -
/// tail)), so a new ratio exchangeable with these falls inside with probability at least 1 - 2 tail;
/// where n is too small for an order statistic the extreme one stands (1 when empty).
pub fn conformal_bounds(sorted: &[f64], tail: f64) -> (f64, f64) {
    let n = sorted.len();
    if n == 0 {
        return (1.0, 1.0);
    }
    let slots = (n + 1) as f64;
    let low_k = ((slots * tail).floor() as usize).clamp(1, n);
    let high_k = ((slots * (1.0 - tail)).ceil() as usize).clamp(1, n);
    (sorted[low_k - 1], sorted[high_k - 1])
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
            expert_layer_s: t.expert_layer_s * factor,
            all_to_all_call_s: t.all_to_all_call_s * factor,
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
        let cluster =
            Cluster { nic_bytes_per_s: scenario.cluster.nic_bytes_per_s / factor, ..scenario.cluster };
        Scenario { gpu, cluster, calibration: CostModel::Terms(terms), ..*scenario }
    }
}

/// The likely range of `scenario`'s numbers: under the measured engines' cost model, its coverage
/// class and that class's shipped range ([`super::profile::RANGES`]); `None` under any other (the
/// ideal roofline is a bound, custom and fitted calibrations are the user's).
pub fn likely_range(scenario: &Scenario) -> Option<LikelyRange> {
    let CostModel::Measured(engine) = scenario.calibration else { return None };
    let slots = scenario_slots(scenario);
    let config = Config {
        gpu_id: scenario.gpu.id,
        engine,
        weights: scenario.weight_precision,
        parallel: scenario.parallel,
    };
    let coverage = coverage(&PROFILE, POINTS, config, slots);
    let r = RANGES[coverage.index()];
    Some(LikelyRange { coverage, low: r.low, high: r.high })
}
