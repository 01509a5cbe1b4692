//! Steady state of one open-load run: the warm-up left out of attainment, and whether the run is
//! overloaded (its queue still growing when the arrivals end), read from the trace alone.
//!
//! **Warm-up.** The first `min(concurrency cap, requests / 10)` requests: an empty server admits
//! them at once, so they meet an empty queue and a batch that is still filling. Their attainment
//! says nothing about the steady state; the cap bounds how many arrive before the batch is full,
//! and the tenth keeps at least 90% of a short run measured.
//!
//! **Overloaded** (open load only; a closed loop cannot overload: each client waits for its answer,
//! so at most `clients` requests are ever in the system). Of the requests after the warm-up, split
//! in thirds by arrival, a run is overloaded when either test holds:
//! 1. *Served below offered:* from the last arrival of the first third to the last arrival, the
//!    requests that left, D, fall short of those that arrived, A, by more than
//!    [`OVERLOAD_SDS`] x sqrt(A) (three Poisson standard deviations of the count). A - D is how much
//!    the backlog grew over that window; a stable server's backlog only fluctuates.
//! 2. *TTFT still rising:* the thirds' mean TTFTs rise strictly, the last is more than
//!    [`TTFT_RISE_RATIO`] x the first, and the rise exceeds [`TTFT_RISE_SHARE`] of the TTFT target
//!    (a smaller rise is within the noise of three means; a twentieth, not more, so a queue that
//!    grows under a loose target, as the finite runs hid, is still caught). A queue that grows linearly gives means
//!    about 1 : 3 : 5 above the unloaded TTFT; one that has settled gives three equal means.
//!
//! Runs with fewer than [`MIN_MEASURED`] requests after the warm-up are never called overloaded.

use super::stepper::Trace;

/// Poisson standard deviations the backlog must grow by before a run counts as overloaded.
pub const OVERLOAD_SDS: f64 = 3.0;
/// The last third's mean TTFT over the first's beyond which a strictly rising TTFT is a trend.
pub const TTFT_RISE_RATIO: f64 = 2.0;
/// The TTFT rise (last third's mean - first's) must exceed this share of the TTFT target.
pub const TTFT_RISE_SHARE: f64 = 0.05;
/// Fewest requests after the warm-up for either test to speak.
pub const MIN_MEASURED: usize = 30;

/// Requests left out at the start of a run of `requests` with at most `concurrency` running:
/// min(concurrency, requests / 10).
pub fn warmup_requests(concurrency: u32, requests: usize) -> usize {
    (concurrency as usize).min(requests / 10)
}

/// Whether an open-load run (`trace`, requests sorted by arrival) is overloaded after its first
/// `warmup` requests: either test of the module's doc. `ttft_target_s` scales the TTFT test's floor.
pub fn overloaded(trace: &Trace, warmup: usize, ttft_target_s: f64) -> bool {
    let n = trace.arrival_s.len();
    if n < warmup + MIN_MEASURED {
        return false;
    }
    served_below_offered(trace, warmup) || ttft_rising(trace, warmup, ttft_target_s)
}

/// Test 1: the backlog grew by more than [`OVERLOAD_SDS`] Poisson sds over the last two thirds.
pub fn served_below_offered(trace: &Trace, warmup: usize) -> bool {
    let (arrived, departed) = window_counts(trace, warmup);
    arrived - departed > OVERLOAD_SDS * arrived.sqrt()
}

/// Arrivals A and departures D from the last arrival of the measured requests' first third to the
/// last arrival (both as f64 counts).
pub fn window_counts(trace: &Trace, warmup: usize) -> (f64, f64) {
    let n = trace.arrival_s.len();
    let start = warmup + (n - warmup) / 3;
    let (t_a, t_b) = (trace.arrival_s[start], trace.arrival_s[n - 1]);
    let arrived = trace.arrival_s[start + 1..].iter().filter(|&&t| t > t_a && t <= t_b).count() as f64;
    let departed = trace
        .arrival_s
        .iter()
        .zip(&trace.latency_s)
        .filter(|(a, l)| {
            let d = *a + *l;
            d > t_a && d <= t_b
        })
        .count() as f64;
    (arrived, departed)
}

/// Test 2: the thirds' mean TTFTs rise strictly, the last above [`TTFT_RISE_RATIO`] x the first,
/// by more than [`TTFT_RISE_SHARE`] of the target. Unserved requests (infinite TTFT) are skipped.
pub fn ttft_rising(trace: &Trace, warmup: usize, ttft_target_s: f64) -> bool {
    let [m1, m2, m3] = ttft_thirds(trace, warmup);
    m1 < m2 && m2 < m3 && m3 > TTFT_RISE_RATIO * m1 && m3 - m1 > TTFT_RISE_SHARE * ttft_target_s
}

/// Mean TTFT of each third (by arrival) of the requests after the warm-up, in s (0 for a third
/// with no served request).
pub fn ttft_thirds(trace: &Trace, warmup: usize) -> [f64; 3] {
    let n = trace.ttft_s.len();
    let third = (n.saturating_sub(warmup) / 3).max(1);
    let bounds = [warmup, warmup + third, warmup + 2 * third, n];
    let mut means = [0.0; 3];
    for (k, mean) in means.iter_mut().enumerate() {
        let slice = &trace.ttft_s[bounds[k].min(n)..bounds[k + 1].min(n)];
        let (sum, count) =
            slice.iter().filter(|x| x.is_finite()).fold((0.0, 0u32), |(s, c), x| (s + x, c + 1));
        *mean = if count > 0 { sum / f64::from(count) } else { 0.0 };
    }
    means
}
