//! Wall-clock measurement: run a closure several times and keep the median, so one descheduled
//! repeat on a shared machine does not move the figure.

use std::hint::black_box;
use std::time::Instant;

use crate::workload::median;

/// Seconds `f` takes, the median over `repeats` runs after one untimed warm-up run.
pub fn median_s<T>(repeats: u32, mut f: impl FnMut() -> T) -> f64 {
    black_box(f());
    let times: Vec<f64> = (0..repeats.max(1))
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64()
        })
        .collect();
    median(times)
}
