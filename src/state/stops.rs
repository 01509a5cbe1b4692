//! Slider stops: log-spaced positions for the length sliders and the nearest stop to a value.

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

/// Index of the stop nearest `value` on a log scale (the slider position that shows it).
pub fn nearest_stop_index(stops: &[u32], value: u32) -> usize {
    let target = f64::from(value.max(1)).ln();
    let distance = |s: &u32| (f64::from((*s).max(1)).ln() - target).abs();
    (0..stops.len()).min_by(|&a, &b| distance(&stops[a]).total_cmp(&distance(&stops[b]))).unwrap_or(0)
}
