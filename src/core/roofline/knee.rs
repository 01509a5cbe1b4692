//! The knee: the largest whole batch meeting both targets, and the real-valued batch where step(B)
//! reaches the TPOT target, both by bisection over the step.

use super::{step_time, step_time_at, MAX_BATCH};
use crate::prefill::ttft_s;
use crate::scenario::Scenario;

/// Whether batch B meets both targets. Step time and TTFT never fall as B grows, so the batches
/// meeting both are exactly 1..=knee.
fn meets_targets(scenario: &Scenario, batch: u32) -> bool {
    let step = step_time(scenario, batch);
    step.step_s <= scenario.tpot_target_s && ttft_s(scenario, &step) <= scenario.ttft_target_s
}

/// Largest whole B in 0..=MAX_BATCH meeting both targets, by bisection over [`meets_targets`].
pub fn knee_batch(scenario: &Scenario) -> u32 {
    if !meets_targets(scenario, 1) {
        return 0;
    }
    if meets_targets(scenario, MAX_BATCH) {
        return MAX_BATCH;
    }
    boundary(1, MAX_BATCH, |b| !meets_targets(scenario, b)).0
}

/// The whole batches either side of where a monotone predicate turns true: given `past(lo)` false
/// and `past(hi)` true (lo < hi), bisects to (last false, first true), one apart. The knee (last
/// batch meeting the targets) and speculation's crossover (first batch where it stops paying) both
/// search with it.
pub(super) fn boundary(mut lo: u32, mut hi: u32, past: impl Fn(u32) -> bool) -> (u32, u32) {
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if past(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (lo, hi)
}

/// The real-valued batch where step(B) = TPOT target, by bisection on [`step_time_at`]; for a
/// dense model on the ideal roofline this is (target x bandwidth - weights) / kv_per_seq.
pub fn knee_exact(scenario: &Scenario) -> f64 {
    let over = |b: f64| step_time_at(scenario, b).step_s > scenario.tpot_target_s;
    let (mut lo, mut hi) = (0.0_f64, f64::from(MAX_BATCH));
    if over(lo) || !over(hi) {
        return if over(lo) { 0.0 } else { hi };
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if over(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}
