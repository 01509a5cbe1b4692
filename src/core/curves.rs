//! The sampled curves the charts draw, as plain data: which batches to plot and their points.

use serde::{Deserialize, Serialize};

use super::calibration::range::{likely_range, LikelyRange};
use super::calibration::references::{references, Reference};
use super::fit::{overlay, Fit, YourPoint, YourPointsOverlay};
use super::goodput::{evaluate, BatchPoint};
use super::roofline::{Analysis, MAX_BATCH};
use super::scenario::Scenario;
use super::table::runnable;

/// Most points one curve carries; beyond this the batches are strided. Plotters rounds to whole
/// pixels, so a few pixels per segment draws straighter lines than one point per pixel.
pub const MAX_POINTS: u32 = 80;
/// The widest batch axis drawn.
pub const MAX_AXIS_BATCH: u32 = 8192;

/// What both batch-axis charts draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curves {
    /// Ascending batches from 1 to `axis_max_batch`, including the knee and the batch after it so
    /// the goodput cliff is drawn vertical.
    pub points: Vec<BatchPoint>,
    /// The same batches on the ideal roofline when the scenario is calibrated (realistic mode),
    /// else empty.
    pub ideal_points: Vec<BatchPoint>,
    /// The interactivity chart's batches: powers of two up to the KV pool, plus the knee, the
    /// batch after it and the pool, so the points spread along the curve instead of crowding.
    pub ladder: Vec<BatchPoint>,
    /// The ladder on the ideal roofline when the scenario is calibrated, else empty.
    pub ideal_ladder: Vec<BatchPoint>,
    /// Right end of the batch axis.
    pub axis_max_batch: u32,
    /// The server batch: the largest batch meeting both targets that the KV pool holds
    /// ([`Analysis::server_batch`]); what the charts mark as the knee when the pool does not cut it.
    pub server_batch: u32,
    /// The knee, which may lie past the pool ([`Analysis::knee_batch`]).
    pub knee_batch: u32,
    pub kv_pool_batch: u32,
    /// The TPOT target, in s.
    pub tpot_target_s: f64,
    /// The TTFT target, in s.
    pub ttft_target_s: f64,
    /// GPUs per replica (TP x DP x PP), for per-GPU rates.
    pub tp: u32,
    /// Measured step times and their fitted line (the step chart draws them), if any were given.
    pub your_points: Option<YourPointsOverlay>,
    /// Published measurements of this model on this GPU, weight precision and TP, each with the
    /// scenario's cost model's prediction (both batch charts draw them).
    pub references: Vec<Reference>,
    /// The measured engines' likely range around the calibrated curves (the charts shade it); `None`
    /// under any other cost model.
    pub range: Option<LikelyRange>,
}

/// axis = round_up(1.15 x max(128, 2 x reachable knee, pool)), capped at [`MAX_AXIS_BATCH`]: a
/// TPOT knee past the pool does not stretch the axis over batches that cannot run.
pub fn axis_max_batch(analysis: &Analysis) -> u32 {
    let widest = 128_u32.max(analysis.server_batch.saturating_mul(2)).max(analysis.kv_pool_batch);
    let padded = (f64::from(widest) * 1.15).ceil() as u32;
    round_up_nice(padded).min(MAX_AXIS_BATCH)
}

/// The next multiple of a power-of-ten-ish step (16, 32, 64, ...) so the axis ends on a round tick.
fn round_up_nice(x: u32) -> u32 {
    let step = (x / 8).max(1).next_power_of_two();
    x.div_ceil(step).saturating_mul(step)
}

/// The batches each curve samples: a stride that keeps at most [`MAX_POINTS`], plus the knee, the
/// batch after it and the pool.
pub fn sampled_batches(axis_max: u32, analysis: &Analysis) -> Vec<u32> {
    let axis_max = axis_max.clamp(1, MAX_BATCH);
    let stride = axis_max.div_ceil(MAX_POINTS).max(1);
    let mut batches: Vec<u32> = (1..=axis_max).step_by(stride as usize).collect();
    batches.push(axis_max);
    let knee = analysis.server_batch;
    for b in [knee, knee.saturating_add(1), analysis.kv_pool_batch, analysis.kv_pool_batch.saturating_add(1)]
    {
        if (1..=axis_max).contains(&b) {
            batches.push(b);
        }
    }
    batches.sort_unstable();
    batches.dedup();
    batches
}

/// Powers of two from 1 to the KV pool, plus the knee, the batch after it and the pool itself,
/// ascending; empty when the pool holds nothing.
pub fn ladder_batches(analysis: &Analysis) -> Vec<u32> {
    let pool = analysis.kv_pool_batch.min(MAX_AXIS_BATCH);
    let mut batches: Vec<u32> = (0..32).map(|i| 1_u32 << i).take_while(|&b| b <= pool).collect();
    for b in [analysis.server_batch, analysis.server_batch.saturating_add(1), pool] {
        if (1..=pool).contains(&b) {
            batches.push(b);
        }
    }
    batches.sort_unstable();
    batches.dedup();
    batches
}

/// The curves for a scenario, evaluated at [`sampled_batches`] (and on the ideal roofline too when
/// the scenario is calibrated).
pub fn curves(scenario: &Scenario, analysis: &Analysis) -> Curves {
    curves_on_axis(scenario, analysis, axis_max_batch(analysis))
}

/// The curves with measured points drawn over them: the batch axis widened to reach the largest
/// measured batch (up to [`MAX_AXIS_BATCH`]) and the fitted line sampled at the curves' batches.
pub fn curves_with_measured(
    scenario: &Scenario,
    analysis: &Analysis,
    points: &[YourPoint],
    fit: Option<&Fit>,
) -> Curves {
    let widest = points.iter().map(|p| p.batch).max().unwrap_or(0);
    let reach = round_up_nice((f64::from(widest.min(MAX_AXIS_BATCH)) * 1.05).ceil() as u32);
    let mut c = curves_on_axis(scenario, analysis, axis_max_batch(analysis).max(reach).min(MAX_AXIS_BATCH));
    if !points.is_empty() {
        let batches: Vec<u32> = c.points.iter().map(|p| p.batch).collect();
        c.your_points = Some(overlay(scenario, points, fit, &batches));
    }
    c
}

/// The curves sampled from batch 1 to `axis_max_batch` (a drag holds the axis with it).
pub fn curves_on_axis(scenario: &Scenario, analysis: &Analysis, axis_max_batch: u32) -> Curves {
    let batches = sampled_batches(axis_max_batch, analysis);
    let pool = analysis.kv_pool_batch;
    let points = batches.iter().map(|&b| runnable(evaluate(scenario, b), pool)).collect();
    let ideal = scenario.ideal();
    let ideal_points = if ideal == *scenario {
        Vec::new()
    } else {
        batches.iter().map(|&b| runnable(evaluate(&ideal, b), pool)).collect()
    };
    let rungs = ladder_batches(analysis);
    let ladder = rungs.iter().map(|&b| evaluate(scenario, b)).collect();
    let ideal_ladder =
        if ideal == *scenario { Vec::new() } else { rungs.iter().map(|&b| evaluate(&ideal, b)).collect() };
    Curves {
        points,
        ideal_points,
        ladder,
        ideal_ladder,
        axis_max_batch,
        server_batch: analysis.server_batch,
        knee_batch: analysis.knee_batch,
        kv_pool_batch: analysis.kv_pool_batch,
        tpot_target_s: scenario.tpot_target_s,
        ttft_target_s: scenario.ttft_target_s,
        tp: scenario.parallel.gpus(),
        your_points: None,
        references: references(scenario),
        range: likely_range(scenario),
    }
}
