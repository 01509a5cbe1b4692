//! The queueing arithmetic the placements share: an M/D/1 queue's mean wait, the highest arrival
//! rate whose mean wait fits a slack, a bisection over a monotone feasibility test, and the least
//! fixed point of a monotone step-time map.

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

/// The largest x in [0, `upper`] with `ok(x)`, for a test that holds up to some point and fails
/// past it, by 48 halvings (a relative precision of 4e-15); 0 when `ok` fails just above 0.
pub fn largest_ok(upper: f64, ok: impl Fn(f64) -> bool) -> f64 {
    if !(upper > 0.0 && upper.is_finite()) {
        return 0.0;
    }
    if ok(upper) {
        return upper;
    }
    // Bisection: `passing` passes, `failing` fails.
    let (mut passing, mut failing) = (0.0_f64, upper);
    for _ in 0..48 {
        let mid = 0.5 * (passing + failing);
        if ok(mid) {
            passing = mid;
        } else {
            failing = mid;
        }
    }
    passing
}

/// Fixed-point iterations for a step time; the map is monotone, so it converges or runs away.
const ITERATIONS: usize = 200;

/// The least fixed point of `t = next(t)` from `start` (= next(0)), or `None` if it runs past
/// `limit_s`. `next` is monotone, so plain iteration rises to it; each step also tries the root of
/// the chord through the last two iterates (a secant step), which for a convex `next` (a sum of
/// roofline maxima) stays at or below the fixed point and reaches it in a few steps where plain
/// iteration crawls (slope near 1, close to capacity). A jump past it is safe: from there
/// iteration falls back to it and never passes `limit_s` again. Where the chord's slope is 1 or more
/// (a concave stretch: an MoE step near batch 0) iteration goes on plainly; the load runs away when
/// it passes `limit_s` or the iterations run out unconverged.
pub fn fixed_point_s(start_s: f64, limit_s: f64, next: impl Fn(f64) -> f64) -> Option<f64> {
    let mut step_s = start_s;
    // The previous iterate and its image, for the chord.
    let mut last: Option<(f64, f64)> = None;
    for _ in 0..ITERATIONS {
        let next_s = next(step_s);
        if !(next_s.is_finite() && next_s <= limit_s) {
            return None;
        }
        if (next_s - step_s).abs() <= 1e-10 * next_s.max(1e-12) {
            return Some(next_s);
        }
        // A chord of slope >= 1 has no root ahead: iterate plainly. It is no proof of a runaway,
        // since `next` is convex only piecewise (an MoE step's experts-touched term is concave in
        // the batch, steep near 0: the ideal roofline's tiny steps start there).
        let slope = last.map(|(t0, n0)| (next_s - n0) / (step_s - t0)).filter(|k| *k < 1.0);
        let secant = slope
            .map(|k| step_s + (next_s - step_s) / (1.0 - k))
            .filter(|root| root.is_finite() && *root > next_s)
            .map(|root| short_of_runaway(next_s, root.min(limit_s), &next));
        last = Some((step_s, next_s));
        step_s = secant.unwrap_or(next_s);
    }
    None
}

/// A secant jump from `from_s` to `root_s`, kept short of a runaway: where `next` is not convex the
/// chord's root can pass the least fixed point and a second, unstable one beyond it, from where
/// iteration runs away. A point whose image is below it lies between the two (iteration falls back
/// to the least), so the root is kept when its image is below it, and otherwise the midpoint is
/// taken when its image is below it (the jump spans both fixed points); else the root (no fixed
/// point was passed that the midpoint shows).
fn short_of_runaway(from_s: f64, root_s: f64, next: &impl Fn(f64) -> f64) -> f64 {
    if next(root_s) < root_s {
        return root_s;
    }
    let mid_s = 0.5 * (from_s + root_s);
    if next(mid_s) < mid_s {
        mid_s
    } else {
        root_s
    }
}
