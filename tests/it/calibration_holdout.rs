//! The likely range out of sample: a left-out group's predictions never see that group's rows, the
//! time split's never see a row on or after its date, each prediction is judged by a range read
//! without its own residual, the conformal order statistics against a hand count, the generated table
//! is the procedure's, and the coverage it reaches on the shared data.

use goodput_lab::calibration_data::{read, CSV};
use goodput_lab::core::calibration::coverage::HoldOut;
use goodput_lab::core::calibration::crossval::Held;
use goodput_lab::core::calibration::fit::fitted_rows;
use goodput_lab::core::calibration::holdout::{
    dated_before, group_of, leave_gpu_out, leave_group_out, time_split, Calibrated, SPLIT_DATE,
};
use goodput_lab::core::calibration::profile::{HELD_OUT, RANGES};
use goodput_lab::core::calibration::published::PublishedPoint;
use goodput_lab::core::calibration::range::{class_ranges, conformal_bounds};

fn data() -> Vec<PublishedPoint> {
    read(CSV).expect("the data file reads")
}

fn share_inside(judged: &[goodput_lab::core::calibration::holdout::Judged]) -> f64 {
    judged.iter().filter(|j| j.inside()).count() as f64 / judged.len().max(1) as f64
}

#[test]
fn conformal_bounds_are_the_order_statistics_of_n_plus_one_slots() {
    let sorted: Vec<f64> = (1..=19).map(f64::from).collect();
    // n = 19: floor(20 x 0.1) = 2nd smallest, ceil(20 x 0.9) = 18th.
    assert_eq!(conformal_bounds(&sorted, 0.1), (2.0, 18.0));
    // n = 4: floor(0.5) clamps to the smallest, ceil(4.5) = 5 > 4 to the largest.
    assert_eq!(conformal_bounds(&[1.0, 2.0, 3.0, 4.0], 0.1), (1.0, 4.0));
    assert_eq!(conformal_bounds(&[], 0.1), (1.0, 1.0));
}

#[test]
fn a_left_out_groups_predictions_do_not_move_when_its_own_rows_change() {
    let points = data();
    let g = group_of(points.iter().find(|p| p.id == "IX-14").expect("an MI300X SGLang row"));
    let moved: Vec<PublishedPoint> =
        points
            .iter()
            .map(|p| {
                if group_of(p) == g {
                    PublishedPoint { tpot_s: p.tpot_s.map(|t| 2.0 * t), ..*p }
                } else {
                    *p
                }
            })
            .collect();
    let (before, after) = (leave_group_out(&points), leave_group_out(&moved));
    let in_group = |h: &&Held| points.iter().any(|p| p.id == h.error.id && group_of(p) == g);
    let ours: Vec<&Held> = before.iter().filter(in_group).collect();
    assert!(!ours.is_empty());
    for h in ours {
        let a = after.iter().find(|a| a.error.id == h.error.id).expect("predicted in both");
        assert_eq!(a.error.predicted, h.error.predicted, "{}: its fit never saw its group", h.error.id);
        assert_eq!(a.error.measured, 2.0 * h.error.measured);
    }
    assert_eq!(before.len(), fitted_rows(&points).len(), "every fitted row once");
}

#[test]
fn the_time_split_predicts_only_rows_on_or_after_its_date_from_rows_before_it() {
    let points = data();
    let held = time_split(&points, SPLIT_DATE);
    assert!(!held.is_empty());
    for h in &held {
        let p = points.iter().find(|p| p.id == h.error.id).expect("a row");
        assert!(!dated_before(p, SPLIT_DATE), "{} is dated {}", p.id, p.date);
    }
    // Doubling every test row's TPOT moves no prediction: the fit saw none of them.
    let moved: Vec<PublishedPoint> = points
        .iter()
        .map(|p| {
            if dated_before(p, SPLIT_DATE) {
                *p
            } else {
                PublishedPoint { tpot_s: p.tpot_s.map(|t| 2.0 * t), ..*p }
            }
        })
        .collect();
    for (a, b) in held.iter().zip(time_split(&moved, SPLIT_DATE)) {
        assert_eq!((a.error.id, a.error.predicted), (b.error.id, b.error.predicted));
    }
}

#[test]
fn a_left_out_prediction_is_judged_by_the_ranges_of_the_other_groups_residuals_alone() {
    let points = data();
    let pool: Vec<Held> = [leave_group_out(&points), leave_gpu_out(&points)].concat();
    let c = crate::common::calibrated();
    let row = |id: &str| *points.iter().find(|p| p.id == id).expect("a row");
    for j in c.left_out.iter().step_by(7) {
        let p = row(j.held.error.id);
        let others: Vec<Held> =
            pool.iter().copied().filter(|h| group_of(&row(h.error.id)) != group_of(&p)).collect();
        assert_eq!(j.range, class_ranges(&others)[j.held.coverage.index()], "{}", p.id);
        assert!(class_ranges(&pool) != class_ranges(&others) || others.len() == pool.len());
    }
    for j in c.gpu_left_out.iter().step_by(7) {
        let p = row(j.held.error.id);
        let others: Vec<Held> = pool.iter().copied().filter(|h| row(h.error.id).gpu_id != p.gpu_id).collect();
        assert_eq!(j.range, class_ranges(&others)[j.held.coverage.index()], "{}", p.id);
    }
}

fn shipped() -> &'static Calibrated {
    crate::common::calibrated()
}

#[test]
fn the_shipped_held_out_table_and_ranges_are_the_procedures() {
    let c = shipped();
    assert_eq!(RANGES, c.ranges);
    let count = |k: HoldOut| HELD_OUT.iter().filter(|h| h.hold_out == k).count();
    assert_eq!(
        (count(HoldOut::LeftOut), count(HoldOut::GpuLeftOut), count(HoldOut::TimeSplit)),
        (c.left_out.len(), c.gpu_left_out.len(), c.time_split.len())
    );
    for (h, j) in HELD_OUT.iter().zip(c.left_out.iter().chain(&c.gpu_left_out).chain(&c.time_split)) {
        assert_eq!(
            (h.id, h.predicted_tpot_s, h.low, h.high),
            (j.held.error.id, j.held.error.predicted, j.range.low, j.range.high)
        );
    }
}

fn median_half_width(judged: &[goodput_lab::core::calibration::holdout::Judged]) -> f64 {
    let mut h: Vec<f64> = judged.iter().map(|j| j.half_width()).collect();
    goodput_lab::core::calibration::transfer::median(&mut h).unwrap_or(0.0)
}

/// The budgets: >= 80% inside out of sample under both schemes, median half-width <= 25%.
/// Coverage holds under both; the half-width is missed under both on the 2026-12-07 data (29.8%
/// leaving a group out: a whole release of a family is often off together; 28.6% under the time
/// split, whose ranges are read from the 36 earlier rows' own held-out predictions), which README and
/// BENCHMARKS.md report: this holds both from growing.
#[test]
fn out_of_sample_predictions_fall_inside_their_ranges_at_least_80_percent_of_the_time() {
    let c = shipped();
    let split = share_inside(&c.time_split);
    assert!(split >= 0.80, "time split: {split:.3}");
    let left = share_inside(&c.left_out);
    assert!(left >= 0.80, "leave-one-group-out: {left:.3}");
    assert!(median_half_width(&c.time_split) <= 0.30, "{}", median_half_width(&c.time_split));
    assert!(median_half_width(&c.left_out) <= 0.30, "{}", median_half_width(&c.left_out));
}
