//! The queueing arithmetic the placements share: an M/D/1 queue's mean wait, the highest arrival
//! rate whose mean wait fits a slack, and a bisection over a monotone feasibility test.

/// Mean wait in an M/D/1 queue (Poisson arrivals at `rate_req_per_s`, one server, a fixed
/// `service_s` each): W = rho x D / (2 (1 - rho)), rho = rate x D, in s; infinite at rho >= 1.
pub fn md1_wait_s(rate_req_per_s: f64, service_s: f64) -> f64 {
    let rho = rate_req_per_s * service_s;
    if rho >= 1.0 {
        return f64::INFINITY;
    }
    (rho * service_s / (2.0 * (1.0 - rho))).max(0.0)
}

/// The highest rate whose M/D/1 mean wait for a `service_s` server stays within `slack_s`:
/// W(rate) <= S  <=>  rate <= 2S / (D (D + 2S)), in requests/s; 0 when there is no slack.
pub fn md1_rate_max_req_per_s(service_s: f64, slack_s: f64) -> f64 {
    if !(slack_s > 0.0 && service_s > 0.0) {
        return 0.0;
    }
    if slack_s.is_infinite() {
        return 1.0 / service_s;
    }
    2.0 * slack_s / (service_s * (service_s + 2.0 * slack_s))
}

/// The largest x in [0, hi] with `ok(x)`, for a test that holds up to some point and fails past
/// it, by 48 halvings (a relative precision of 4e-15); 0 when `ok` fails just above 0.
pub fn largest_ok(hi: f64, ok: impl Fn(f64) -> bool) -> f64 {
    if !(hi > 0.0 && hi.is_finite()) {
        return 0.0;
    }
    if ok(hi) {
        return hi;
    }
    let (mut lo, mut hi) = (0.0_f64, hi);
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}
