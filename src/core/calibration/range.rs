//! The likely range of a calibrated number: how far the measured profile's TPOT has been off, out of
//! sample, for predictions of the same coverage class on the same software stack, as factors on the
//! predicted time.
//!
//! A prediction's coverage class says what the data hold for it: its GPU fitted, only a GPU of the
//! same vendor and generation, or nothing of its family ("not measured"); and whether a row of the
//! same engine and weight precision ran on that family. The held-out predictions of the
//! out-of-sample procedure ([`super::holdout`]: a GPU family's engine release left out, and the rows
//! after a date predicted from those before) each carry the class their prediction had when made, so
//! each class's range is the split-conformal 10th to 90th percentile of measured / predicted over the
//! held-out rows of that class ([`conformal_bounds`], aiming at 80% coverage), widened to hold 1 and
//! every better-covered class's range. Ranges are read per software stack (Mondrian conformal: the
//! held-out rows of the GPU's stack only): a new ROCm release has moved its runs by up to x0.6-x1.7,
//! a new CUDA one by x0.8-x1.25, and one pooled range would be too wide for one and too narrow for
//! the other. A class with fewer than [`MIN_ROWS`] held-out rows of its stack takes in the stack's
//! next wider classes, then the other stacks' rows. A step time, TPOT or GPU count t lies likely in
//! [t x low, t x high]; a throughput r in [r / high, r / low].

use serde::{Deserialize, Serialize};

use super::bounds::Stack;
use super::coverage::{coverage, ClassRange, Config, Coverage, Ranges};
use super::crossval::{quantile, Held};
use super::profile::{PROFILE, RANGES};
use super::published::POINTS;
use super::terms::cost_terms;
use super::transfer::scenario_slots;
use super::{CostModel, CostTerms};
use crate::parallel::Cluster;
use crate::presets::GpuSpec;
use crate::scenario::Scenario;

/// Fewest held-out rows a class's range is read from before it takes in the next wider class's.
/// The smallest n for which the split-conformal upper bound at [`COVERAGE_AIM`] is an order
/// statistic rather than infinity: ceil((n + 1) x 0.9) <= n holds from n = 9 ((1 - tail) / tail with
/// tail = 0.1). Below it [`conformal_bounds`] could only clamp to the extremes, so a class pools.
pub const MIN_ROWS: usize = 9;

/// The share of held-out rows a range aims to hold.
pub const COVERAGE_AIM: f64 = 0.8;

/// A sorted set of held-out ratios (measured / predicted), each with its weight, to a (low, high) that
/// leaves out a tail on each side.
pub type Bounds = fn(&[(f64, f64)], f64) -> (f64, f64);

/// Each stack's class ranges from the held-out predictions (see the module's rule).
pub fn class_ranges(held: &[Held]) -> Ranges {
    class_ranges_with(held, conformal_bounds)
}

/// Each stack's class ranges with `bounds`: [`conformal_bounds`] now, the plain 10th and 90th
/// percentiles before issue 48.
pub fn class_ranges_with(held: &[Held], bounds: Bounds) -> Ranges {
    Ranges(Stack::ALL.map(|stack| {
        let (own, rest): (Vec<&Held>, Vec<&Held>) = held.iter().partition(|h| h.stack() == stack);
        ranges_among(&own, &rest, bounds)
    }))
}

/// Every stack's rows pooled, as one range per class: the rule before issue 48 read its ranges so
/// (kept for the report's before-and-after table).
pub fn pooled_class_ranges_with(held: &[Held], bounds: Bounds) -> [ClassRange; 6] {
    ranges_among(&held.iter().collect::<Vec<_>>(), &[], bounds)
}

/// Each class's range from `own`'s rows of the class, then of the wider classes, then `rest`'s, until
/// there are [`MIN_ROWS`]; widened to hold 1 and every better-covered class's range.
fn ranges_among(own: &[&Held], rest: &[&Held], bounds: Bounds) -> [ClassRange; 6] {
    let mut out = [ClassRange { low: 1.0, high: 1.0, rows: 0 }; 6];
    let mut widest = (1.0_f64, 1.0_f64);
    for i in 0..Coverage::ALL.len() {
        let mut rows: Vec<&Held> = Vec::new();
        'gather: for set in [own, rest] {
            for wider in &Coverage::ALL[i..] {
                rows.extend(set.iter().filter(|h| h.coverage == *wider));
                if rows.len() >= MIN_ROWS {
                    break 'gather;
                }
            }
        }
        let ratios = group_weighted(&rows);
        let (low, high) = bounds(&ratios, (1.0 - COVERAGE_AIM) / 2.0);
        let (low, high) = (low.min(1.0), high.max(1.0));
        widest = (widest.0.min(if ratios.is_empty() { 1.0 } else { low }), widest.1.max(high));
        out[i] = ClassRange { low: widest.0, high: widest.1, rows: ratios.len() };
    }
    out
}

/// `rows`' finite ratios, sorted, each weighted 1 / (its group's rows among them): a group (a GPU
/// family's engine release) moves its rows together, so the draws a new release is exchangeable
/// with are groups, not rows, and each group counts once (the CDF pooling of Dunn, Wasserman and
/// Ramdas 2022 for two-level data).
fn group_weighted(rows: &[&Held]) -> Vec<(f64, f64)> {
    let rows: Vec<&&Held> =
        rows.iter().filter(|h| (h.error.measured / h.error.predicted).is_finite()).collect();
    let mut out: Vec<(f64, f64)> = rows
        .iter()
        .map(|h| {
            let size = rows.iter().filter(|o| o.group() == h.group()).count();
            (h.error.measured / h.error.predicted, 1.0 / size as f64)
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

/// The plain percentiles of the sorted ratios, weights ignored (linear between order statistics): the
/// rule before the conformal one, kept for the report's before-and-after table.
pub fn percentile_bounds(sorted: &[(f64, f64)], tail: f64) -> (f64, f64) {
    let ratios: Vec<f64> = sorted.iter().map(|r| r.0).collect();
    (quantile(&ratios, tail), quantile(&ratios, 1.0 - tail))
}

/// The split-conformal bounds of sorted, weighted ratios for a two-sided range leaving `tail` out on
/// each side. With n draws (the weights' sum: every group weighs 1) the low is the ratio at which the
/// cumulative weight first reaches floor((n + 1) x tail) and the high where it reaches ceil((n + 1) x
/// (1 - tail)), so a new draw exchangeable with these falls inside with probability at least
/// 1 - 2 tail; where n is too small for that, the extreme ratio stands (1 when empty). With unit
/// weights these are the k-th order statistics.
pub fn conformal_bounds(sorted: &[(f64, f64)], tail: f64) -> (f64, f64) {
    let (Some(first), Some(last)) = (sorted.first(), sorted.last()) else { return (1.0, 1.0) };
    let n: f64 = sorted.iter().map(|r| r.1).sum();
    let slots = n + 1.0;
    let at = |target: f64| {
        let mut cumulative = 0.0;
        for &(ratio, weight) in sorted {
            cumulative += weight;
            if cumulative >= target - 1e-9 {
                return ratio;
            }
        }
        last.0
    };
    // Summed weights carry rounding (ten 0.1s are not exactly 1): read the slots to 1e-9.
    let low_target = (slots * tail + 1e-9).floor();
    let high_target = (slots * (1.0 - tail) - 1e-9).ceil();
    let low = if low_target < 1.0 { first.0 } else { at(low_target) };
    let high = if high_target > n + 1e-9 { last.0 } else { at(high_target) };
    (low, high)
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
/// class and that class's shipped range on its GPU's stack ([`super::profile::RANGES`]); `None` under any other (the
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
    let r = RANGES.for_gpu(scenario.gpu.id, coverage);
    Some(LikelyRange { coverage, low: r.low, high: r.high })
}

/// `f` of `scenario` at the slow and the fast end of its likely range (each step [`LikelyRange::high`]
/// and [`LikelyRange::low`] times as long, [`LikelyRange::scaled`]), so a number that moves the knee
/// (a goodput at a TPOT target) is read at each end rather than scaled after; `None` without a range.
pub fn at_range_ends<T>(scenario: &Scenario, f: impl Fn(&Scenario) -> T) -> Option<(T, T)> {
    let r = likely_range(scenario)?;
    Some((f(&LikelyRange::scaled(scenario, r.high)), f(&LikelyRange::scaled(scenario, r.low))))
}
