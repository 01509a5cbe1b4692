//! Fitting measured step times to the roofline: the achieved share of HBM bandwidth (MBU) and the
//! fixed per-step overhead that make the scenario's own per-step bytes explain the measured TPOTs.
//!
//! The model, for a batch B of the scenario (its bytes, KV shards and all-reduce, MoE and TP
//! included, all taken from [`crate::roofline`] on the ideal roofline):
//!
//! TPOT(B) = overhead + all-reduce(B) + bytes_read(B) / (MBU x HBM bandwidth)
//!
//! which is linear in x(B) = bytes_read(B) / bandwidth (the ideal memory time, s): TPOT - all-reduce
//! = overhead + x / MBU. An ordinary least-squares line through (x, TPOT - all-reduce) gives
//! 1 / MBU as its slope and the overhead as its intercept. This is the per-operator step
//! ([`crate::roofline::StepRoofline::terms`]) while every kernel group is memory-bound, as
//! decode steps at these batches are; a batch with a compute-bound group (its time no longer the
//! bytes over the bandwidth) is flagged instead.

use serde::{Deserialize, Serialize};

use super::roofline::step_time_at;
use super::scenario::Scenario;

/// One measured run: the batch (concurrent sequences), its mean time per output token and, when
/// the file states them, its mean prompt and answer lengths.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct YourPoint {
    /// Running sequences, a whole number >= 1.
    pub batch: u32,
    /// Measured time per output token, in s (finite, > 0).
    pub tpot_s: f64,
    /// The run's mean lengths; `None` for a file that states none (a CSV of batch, TPOT).
    pub lengths: Option<RunLengths>,
}

impl YourPoint {
    /// A point without lengths.
    pub fn new(batch: u32, tpot_s: f64) -> YourPoint {
        YourPoint { batch, tpot_s, lengths: None }
    }
}

/// A run's mean prompt and answer lengths, in tokens (finite, >= 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunLengths {
    pub isl_tokens_mean: f64,
    pub osl_tokens_mean: f64,
}

/// Something about a fit that a reader should know before trusting it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum FitWarning {
    /// Every point has the same batch (or there is one point): the line has no slope to fit, so the
    /// overhead is fixed at 0 and MBU alone explains the step time.
    OverheadFixedAtZero,
    /// The fitted overhead is negative: the measured steps grow faster with the batch than the
    /// roofline's bytes do (or the context set on the page is not the benchmark's).
    NegativeOverhead,
    /// The fitted MBU is above 100%: the measured steps are faster than peak bandwidth allows
    /// (a different model, GPU, precision or context than the page's, or prefix caching).
    MbuAboveOne,
    /// At some measured batch a kernel group of the roofline (the GEMMs, or the attention) is
    /// compute-bound, which this fit ignores.
    ComputeBound { batch: u32 },
}

/// The least-squares fit of the measured points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Achieved share of peak HBM bandwidth: 1 / slope.
    pub mbu: f64,
    /// Fixed time per step: the intercept, in s (may be negative; see the warnings).
    pub step_overhead_s: f64,
    /// Root-mean-square of measured - fitted TPOT, in s.
    pub rms_residual_s: f64,
    /// 1 - SS_residual / SS_total, when the points have more than one batch and TPOT varies.
    pub r_squared: Option<f64>,
    /// Points the fit used (all of them).
    pub points_used: usize,
    pub warnings: Vec<FitWarning>,
}

/// Why no fit could be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FitError {
    /// There are no points.
    NoPoints,
    /// TPOT does not grow with the bytes a step reads (the slope is 0 or negative), so no
    /// bandwidth explains it.
    NoSlope,
    /// The scenario reads no bytes (or its numbers are not finite): nothing to divide by.
    NoBytes,
}

/// x(B) = bytes_read(B) / HBM bandwidth on the ideal roofline (s), and the all-reduce time (s).
fn memory_and_allreduce_s(scenario: &Scenario, batch: u32) -> (f64, f64) {
    let step = step_time_at(&scenario.ideal(), f64::from(batch));
    (step.memory_s, step.allreduce_s)
}

/// The fitted step time at `batch`: overhead + all-reduce(B) + bytes_read(B) / (MBU x bandwidth), in s.
pub fn fitted_step_s(scenario: &Scenario, fit: &Fit, batch: u32) -> f64 {
    let (memory_s, allreduce_s) = memory_and_allreduce_s(scenario, batch);
    fit.step_overhead_s + allreduce_s + memory_s / fit.mbu
}

/// Least squares of TPOT(B) = overhead + all-reduce(B) + bytes_read(B) / (MBU x bandwidth) over
/// `points`. With one batch only, the overhead is fixed at 0 and slope = Σ x y / Σ x².
pub fn fit(scenario: &Scenario, points: &[YourPoint]) -> Result<Fit, FitError> {
    if points.is_empty() {
        return Err(FitError::NoPoints);
    }
    let xy: Vec<(f64, f64)> = points
        .iter()
        .map(|p| {
            let (x, allreduce) = memory_and_allreduce_s(scenario, p.batch);
            (x, p.tpot_s - allreduce)
        })
        .collect();
    if xy.iter().any(|(x, y)| !(x.is_finite() && *x > 0.0 && y.is_finite())) {
        return Err(FitError::NoBytes);
    }
    let one_batch = points.iter().all(|p| p.batch == points[0].batch);
    let (slope, step_overhead_s) = if one_batch { (through_origin(&xy), 0.0) } else { ordinary(&xy) };
    if !(slope.is_finite() && slope > 0.0 && step_overhead_s.is_finite()) {
        return Err(FitError::NoSlope);
    }
    let residuals: Vec<f64> = xy.iter().map(|(x, y)| y - (step_overhead_s + slope * x)).collect();
    let ss_res: f64 = residuals.iter().map(|r| r * r).sum();
    let n = xy.len() as f64;
    let mean_y = xy.iter().map(|(_, y)| y).sum::<f64>() / n;
    let ss_tot: f64 = xy.iter().map(|(_, y)| (y - mean_y).powi(2)).sum();
    let r_squared = (!one_batch && ss_tot > 0.0).then(|| 1.0 - ss_res / ss_tot);
    let mbu = 1.0 / slope;
    Ok(Fit {
        mbu,
        step_overhead_s,
        rms_residual_s: (ss_res / n).sqrt(),
        r_squared,
        points_used: points.len(),
        warnings: warnings(scenario, points, mbu, step_overhead_s, one_batch),
    })
}

/// Slope and intercept of the least-squares line y = a + k x (the x values are not all equal):
/// k = Σ (x - x̄)(y - ȳ) / Σ (x - x̄)², a = ȳ - k x̄.
fn ordinary(xy: &[(f64, f64)]) -> (f64, f64) {
    let n = xy.len() as f64;
    let mean_x = xy.iter().map(|(x, _)| x).sum::<f64>() / n;
    let mean_y = xy.iter().map(|(_, y)| y).sum::<f64>() / n;
    let sxy: f64 = xy.iter().map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
    let sxx: f64 = xy.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let slope = sxy / sxx;
    (slope, mean_y - slope * mean_x)
}

/// Slope of the least-squares line through the origin, y = k x: k = Σ x y / Σ x².
fn through_origin(xy: &[(f64, f64)]) -> f64 {
    let sxy: f64 = xy.iter().map(|(x, y)| x * y).sum();
    let sxx: f64 = xy.iter().map(|(x, _)| x * x).sum();
    sxy / sxx
}

/// What the reader should know: a fixed overhead, a negative overhead, MBU above 1, batches with a
/// compute-bound group.
fn warnings(
    scenario: &Scenario,
    points: &[YourPoint],
    mbu: f64,
    step_overhead_s: f64,
    one_batch: bool,
) -> Vec<FitWarning> {
    let mut w = Vec::new();
    if one_batch {
        w.push(FitWarning::OverheadFixedAtZero);
    }
    if step_overhead_s < 0.0 {
        w.push(FitWarning::NegativeOverhead);
    }
    if mbu > 1.0 {
        w.push(FitWarning::MbuAboveOne);
    }
    let ideal = scenario.ideal();
    let compute_bound = points
        .iter()
        .map(|p| p.batch)
        .filter(|&b| !step_time_at(&ideal, f64::from(b)).terms.all_memory_bound());
    if let Some(batch) = compute_bound.min() {
        w.push(FitWarning::ComputeBound { batch });
    }
    w
}

/// What the step chart draws for the measured data: the points, and the fitted line sampled at
/// `batches` when there is a fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YourPointsOverlay {
    /// (batch, measured TPOT in s), as given.
    pub points: Vec<YourPoint>,
    /// (batch, fitted step time in s) at each sampled batch; empty without a fit.
    pub fitted: Vec<(u32, f64)>,
}

/// The overlay for `points` and their fit (if any) on `batches`.
pub fn overlay(
    scenario: &Scenario,
    points: &[YourPoint],
    fit: Option<&Fit>,
    batches: &[u32],
) -> YourPointsOverlay {
    let fitted =
        fit.map_or_else(Vec::new, |f| batches.iter().map(|&b| (b, fitted_step_s(scenario, f, b))).collect());
    YourPointsOverlay { points: points.to_vec(), fitted }
}
