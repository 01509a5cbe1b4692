//! Slider stops: log-spaced positions for the length sliders, aimed ones for the targets (most of the
//! track on the range that matters), and the nearest stop to a value.

/// Log-spaced slider stops between `min` and `max`: 1, 1.25, 1.5 and 1.75 times each power of two,
/// rounded, plus both ends.
pub fn log_stops(min: u32, max: u32) -> Vec<u32> {
    let mut stops = vec![min, max];
    let mut power: u64 = 1;
    while power <= u64::from(max) {
        for quarter in [4_u64, 5, 6, 7] {
            let stop = (power * quarter + 2) / 4;
            if stop >= u64::from(min) && stop <= u64::from(max) {
                stops.push(stop as u32);
            }
        }
        power *= 2;
    }
    stops.sort_unstable();
    stops.dedup();
    stops
}

/// The part of a slider's range that deserves most of its track: one stop every `step` from `lo`
/// to `hi` (display units), with only round numbers outside it, and `named` values (a benchmark's
/// published targets) as stops wherever they fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aim {
    pub lo: u32,
    pub hi: u32,
    pub step: u32,
    pub named: &'static [u32],
}

/// Stops that give `aim` most of a slider's track and still reach `min` and `max`: every `step`
/// inside the aim, and outside it only the round numbers 1, 1.5, 2, 3, 5 and 7 times each power of
/// ten (a target someone would name), the aim's named values, and both ends.
pub fn aimed_stops(min: u32, max: u32, aim: Aim) -> Vec<u32> {
    let (lo, hi) = (aim.lo.clamp(min, max), aim.hi.clamp(min, max));
    let step = aim.step.max(1) as usize;
    let mut stops = vec![min, max];
    stops.extend((lo..=hi).step_by(step));
    stops.extend(aim.named.iter().filter(|&&n| (min..=max).contains(&n)));
    let mut power: u64 = 1;
    while power <= u64::from(max) {
        for tenths in [10_u64, 15, 20, 30, 50, 70] {
            let stop = power * tenths / 10;
            let outside = stop < u64::from(lo) || stop > u64::from(hi);
            if outside && stop >= u64::from(min) && stop <= u64::from(max) && power * tenths % 10 == 0 {
                stops.push(stop as u32);
            }
        }
        power *= 10;
    }
    stops.sort_unstable();
    stops.dedup();
    stops
}

/// Index of the stop nearest `value` on a log scale (the slider position that shows it).
pub fn nearest_stop_index(stops: &[u32], value: u32) -> usize {
    let target = f64::from(value.max(1)).ln();
    let distance = |s: &u32| (f64::from((*s).max(1)).ln() - target).abs();
    (0..stops.len()).min_by(|&a, &b| distance(&stops[a]).total_cmp(&distance(&stops[b]))).unwrap_or(0)
}
