//! Which batch a point on a chart stands for: the inverse lookups the linked charts need when the
//! axis is not the batch itself (the interactivity chart's tokens/s per user).

use super::roofline::step_time;
use super::scenario::Scenario;

/// The whole batch in 1..=`max_batch` whose per-user speed, 1 / step(B) in tokens/s, is nearest
/// `tokens_per_s_per_user`. Step time never falls as the batch grows, so the speed never rises and
/// a bisection finds the first batch at or below the speed asked for; the nearer of it and the batch
/// before wins. A speed that is not a finite number gives batch 1.
pub fn batch_at_speed(scenario: &Scenario, tokens_per_s_per_user: f64, max_batch: u32) -> u32 {
    let max_batch = max_batch.max(1);
    if !tokens_per_s_per_user.is_finite() {
        return 1;
    }
    let speed = |b: u32| 1.0 / step_time(scenario, b).step_s;
    if speed(max_batch) > tokens_per_s_per_user {
        return max_batch;
    }
    let (mut lo, mut hi) = (1_u32, max_batch);
    if speed(lo) <= tokens_per_s_per_user {
        return 1;
    }
    // Invariant: speed(lo) > asked >= speed(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if speed(mid) > tokens_per_s_per_user {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if speed(lo) - tokens_per_s_per_user < tokens_per_s_per_user - speed(hi) {
        lo
    } else {
        hi
    }
}
