//! The target sliders' scales: most of the TPOT and TTFT tracks on the range where moving them
//! changes the worked example's answer, the whole field still reachable, and only round targets
//! outside the aimed range.

use goodput_lab::state::fields::{TPOT, TPOT_AIM_MS, TTFT, TTFT_AIM_MS};
use goodput_lab::state::{aimed_stops, nearest_stop_index, Aim};

fn tpot_stops_ms() -> Vec<u32> {
    aimed_stops(TPOT.min as u32, TPOT.max as u32, TPOT_AIM_MS)
}

fn ttft_stops_ms() -> Vec<u32> {
    aimed_stops(TTFT.min as u32, TTFT.max as u32, TTFT_AIM_MS)
}

/// The share of a slider's positions whose value lies in `lo..=hi`.
fn share_within(stops: &[u32], (lo, hi): (u32, u32)) -> f64 {
    stops.iter().filter(|&&s| (lo..=hi).contains(&s)).count() as f64 / stops.len() as f64
}

/// The value a slider shows a quarter of the way along its track.
fn at_quarter(stops: &[u32]) -> u32 {
    stops[((stops.len() - 1) as f64 * 0.25).round() as usize]
}

#[test]
fn tpot_slider_gives_5_to_60_ms_most_of_its_track_and_still_reaches_1_and_500() {
    let stops = tpot_stops_ms();
    assert_eq!((stops[0], *stops.last().unwrap()), (1, 500));
    assert!(share_within(&stops, (5, 60)) >= 0.75, "{stops:?}");
    assert!((5..=60).all(|ms| stops.contains(&ms)), "every ms from 5 to 60 is a stop");
    let quarter = at_quarter(&stops);
    assert!((5..=60).contains(&quarter), "a quarter of the track shows {quarter} ms");
    // MLPerf Inference's server and interactive targets (shared/reference/presets.md).
    for target in [15, 30, 40, 80, 100, 175, 200] {
        assert!(stops.contains(&target), "MLPerf's {target} ms is a stop");
    }
}

#[test]
fn every_tpot_stop_that_moves_the_worked_examples_knee_is_a_one_ms_stop() {
    // Written out: Llama 3.1 8B in BF16 on one H100 SXM, 2,048 tokens of context, 90% of 80 GB.
    let (weights_b, bandwidth_b_per_s, kv_per_seq_b): (f64, f64, f64) =
        (16.06e9, 3.35e12, 2048.0 * 131_072.0);
    let pool = ((80e9 * 0.9 - weights_b) / kv_per_seq_b).floor();
    let knee =
        |tpot_ms: u32| ((f64::from(tpot_ms) * 1e-3 * bandwidth_b_per_s - weights_b) / kv_per_seq_b).floor();
    let moving: Vec<u32> =
        tpot_stops_ms().into_iter().filter(|&ms| knee(ms) >= 1.0 && knee(ms) < pool).collect();
    // 5 ms (knee 3) up to 21 ms (knee 205; the pool, 208, is reached at 21.5 ms).
    assert_eq!((moving[0], *moving.last().unwrap()), (5, 21), "{moving:?}");
    assert!(moving.windows(2).all(|w| w[1] - w[0] == 1));
}

#[test]
fn ttft_slider_gives_100_ms_to_3_s_most_of_its_track_and_keeps_mlperfs_targets() {
    let stops = ttft_stops_ms();
    assert_eq!((stops[0], *stops.last().unwrap()), (10, 60_000));
    assert!(share_within(&stops, (100, 3_000)) >= 0.75, "{stops:?}");
    for target in [450, 500, 1_500, 2_000, 4_500, 6_000] {
        assert!(stops.contains(&target), "{target} ms is a stop");
    }
    let quarter = at_quarter(&stops);
    assert!((100..=3_000).contains(&quarter), "a quarter of the track shows {quarter} ms");
}

#[test]
fn outside_its_aim_a_slider_stops_only_on_round_targets() {
    let round = |s: u32| {
        let mut m = s;
        while m >= 10 && m % 10 == 0 {
            m /= 10;
        }
        [1, 2, 3, 5, 7, 15].contains(&m)
    };
    let aim = Aim { lo: 5, hi: 60, step: 1, named: &[] };
    let stops = aimed_stops(1, 500, aim);
    assert!(stops.windows(2).all(|w| w[0] < w[1]), "strictly increasing: {stops:?}");
    let outside: Vec<u32> = stops.into_iter().filter(|s| !(5..=60).contains(s) && *s != 500).collect();
    assert_eq!(outside, vec![1, 2, 3, 70, 100, 150, 200, 300]);
    assert!(outside.iter().all(|&s| round(s)));
}

#[test]
fn a_tpot_between_stops_shows_the_nearest_stop() {
    let stops = tpot_stops_ms();
    assert_eq!(stops[nearest_stop_index(&stops, 10)], 10);
    assert_eq!(stops[nearest_stop_index(&stops, 72)], 70);
    assert_eq!(stops[nearest_stop_index(&stops, 130)], 150);
}
