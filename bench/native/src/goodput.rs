//! DistServe goodput, found the same way for both simulators: the highest Poisson rate at which
//! the attainment target is still met, read off a grid of rates and refined by bisection between
//! the last passing and the first failing rate (the procedure of Goodput Lab's sweep).

/// Rates on the grid: rate_max x j / POINTS for j = 1..=POINTS.
const POINTS: u32 = 16;
/// Bisection steps after the grid: the bracket shrinks to (rate_max / POINTS) / 2^6.
const REFINE_STEPS: u32 = 6;

/// The highest rate (req/s) with `attained(rate)`, searched up to `rate_max` (0 if even the
/// lowest grid rate fails; `rate_max` if every rate passes).
pub fn search(rate_max: f64, mut attained: impl FnMut(f64) -> bool) -> f64 {
    let grid = (1..=POINTS).map(|j| rate_max * f64::from(j) / f64::from(POINTS));
    let mut pass = 0.0;
    let mut fail = None;
    for rate in grid {
        if attained(rate) {
            pass = rate;
        } else {
            fail = Some(rate);
            break;
        }
    }
    let (Some(mut hi), true) = (fail, pass > 0.0) else { return pass };
    for _ in 0..REFINE_STEPS {
        let mid = 0.5 * (pass + hi);
        if attained(mid) {
            pass = mid;
        } else {
            hi = mid;
        }
    }
    pass
}
