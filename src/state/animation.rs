//! The animate control's plan: the values a sweep of the marked batch, or of the TPOT target, steps
//! through and how long each is shown. Pure, so the timing and the ends are tested natively.

use super::fields::TPOT;
use crate::core::curves::axis_max_batch;
use crate::core::roofline::{step_time, Analysis};
use crate::core::scenario::Scenario;
use crate::core::table::LISTED_BATCHES;

/// What the animate control moves through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AnimationKind {
    /// The marked batch, from 1 to past the KV pool.
    #[default]
    Batch,
    /// The TPOT target, from 1 ms until the knee passes the KV pool.
    Tpot,
}

/// One animation: the values in order and the time each is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimationPlan<T> {
    pub steps: Vec<T>,
    /// Time between steps, in ms.
    pub interval_ms: u32,
}

impl<T> AnimationPlan<T> {
    /// steps x interval, in s.
    pub fn duration_s(&self) -> f64 {
        self.steps.len() as f64 * f64::from(self.interval_ms) / 1e3
    }
}

/// A smooth sweep takes about this long, in ms.
pub const SWEEP_MS: u32 = 8_000;
/// The shortest time a smooth sweep shows a step, in ms (ten redraws a second at most, which also
/// keeps the URL's replaceState calls well under the browser's throttle).
pub const TICK_MS: u32 = 100;
/// With reduced motion each step is shown this long, in ms: fewer, slower jumps.
pub const REDUCED_TICK_MS: u32 = 1_000;
/// Steps of a reduced-motion TPOT sweep.
const REDUCED_TPOT_STEPS: u32 = 8;

/// The marked batch's sweep: from 1 to the batch axis's end (past the KV pool), in strides that
/// take about [`SWEEP_MS`]; with `reduced_motion`, the table's batches (1, 16, ..., 128, the knee,
/// the pool) and the axis end, one a second.
pub fn batch_animation(analysis: &Analysis, reduced_motion: bool) -> AnimationPlan<u32> {
    let end = axis_max_batch(analysis).max(2);
    if reduced_motion {
        let mut steps: Vec<u32> = LISTED_BATCHES.to_vec();
        steps.extend([analysis.knee_batch, analysis.kv_pool_batch, end]);
        steps.retain(|&b| (1..=end).contains(&b));
        steps.sort_unstable();
        steps.dedup();
        return AnimationPlan { steps, interval_ms: REDUCED_TICK_MS };
    }
    let ticks = SWEEP_MS / TICK_MS;
    let stride = (end - 1).div_ceil(ticks).max(1);
    let mut steps: Vec<u32> = (1..end).step_by(stride as usize).collect();
    steps.push(end);
    AnimationPlan { steps, interval_ms: TICK_MS }
}

/// The TPOT target's sweep, in s: whole ms from 1 ms to 1.25 x the step time at the KV pool
/// (where the knee has passed the pool and the pool binds), at most the TPOT field's maximum;
/// each shown for [`SWEEP_MS`] / steps (at least [`TICK_MS`]). With `reduced_motion`, eight
/// evenly spaced whole ms, one a second.
pub fn tpot_animation(scenario: &Scenario, analysis: &Analysis, reduced_motion: bool) -> AnimationPlan<f64> {
    let pool_step_ms = step_time(scenario, analysis.kv_pool_batch.max(1)).step_s * 1e3;
    let end_ms = if pool_step_ms.is_finite() { (pool_step_ms * 1.25).ceil() } else { TPOT.max };
    let end_ms = end_ms.clamp(TPOT.min + 1.0, TPOT.max) as u32;
    let start_ms = TPOT.min as u32;
    let count =
        if reduced_motion { REDUCED_TPOT_STEPS } else { (end_ms - start_ms + 1).min(SWEEP_MS / TICK_MS) };
    let span = f64::from(end_ms - start_ms);
    let mut steps_ms: Vec<u32> =
        (0..count).map(|i| start_ms + (span * f64::from(i) / f64::from(count - 1)).round() as u32).collect();
    steps_ms.dedup();
    let interval_ms =
        if reduced_motion { REDUCED_TICK_MS } else { (SWEEP_MS / steps_ms.len() as u32).max(TICK_MS) };
    AnimationPlan { steps: steps_ms.into_iter().map(|ms| f64::from(ms) * TPOT.scale).collect(), interval_ms }
}
