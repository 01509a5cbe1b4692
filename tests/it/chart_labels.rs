//! Where the batch charts put their marker labels so none lands on another: the TPOT target's label
//! leaves the top to the knee's, and the KV pool's keeps clear of both, wherever the target sits.

use goodput_lab::chart::label_spots;

/// A label's span on the y axis: `top` down to `top - h`.
fn span(top: f64, h: f64) -> (f64, f64) {
    (top - h, top)
}

fn meets(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

#[test]
fn the_kv_pools_label_leaves_55_percent_when_the_tpot_target_is_labelled_there() {
    // FP8 KV at 30 ms: the step axis runs to 63 ms; a label is about 6 ms of it.
    let spots = label_spots(63.0, Some(30.0), 6.0);
    assert!(!spots.line_label_below);
    assert_ne!(spots.pool_top_y, 0.55 * 63.0);
    assert!(!meets(span(spots.pool_top_y, 6.0), (30.0, 36.0)), "{spots:?}");
    // Far from the target, it stays at 55%.
    assert_eq!(label_spots(63.0, Some(10.0), 6.0).pool_top_y, 0.55 * 63.0);
}

#[test]
fn a_tpot_target_near_the_top_is_labelled_below_its_line_clear_of_the_knee() {
    // 60 ms on a 66 ms axis: above the line the label would meet the knee's at the top.
    let spots = label_spots(66.0, Some(60.0), 7.0);
    assert!(spots.line_label_below);
    assert!(!label_spots(66.0, Some(40.0), 7.0).line_label_below);
}

#[test]
fn wherever_the_target_sits_no_two_of_the_three_labels_meet() {
    for label_h in [3.0, 5.0, 7.0, 9.0] {
        for tenth in 1..=90 {
            let (y_max, line_y) = (100.0, f64::from(tenth));
            let spots = label_spots(y_max, Some(line_y), label_h);
            let knee = span(y_max, label_h);
            let line =
                if spots.line_label_below { (line_y - label_h, line_y) } else { (line_y, line_y + label_h) };
            let pool = span(spots.pool_top_y, label_h);
            let at = format!("line {line_y}, label {label_h}: {spots:?}");
            assert!(!meets(line, knee), "target and knee at {at}");
            assert!(!meets(pool, knee) && !meets(pool, line), "pool at {at}");
        }
    }
}
