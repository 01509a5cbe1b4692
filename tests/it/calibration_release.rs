//! Engine releases and offline maxima in the fit: the release trend's factor against written-out
//! arithmetic (MoE runs only, never past the reference month), every published run predicted at its
//! own release, and an offline maximum read as a TPOT floor at the batch its KV pool holds.

use goodput_lab::core::calibration::fit::{fitted_rows, predict_with};
use goodput_lab::core::calibration::predict::{ceiling_floors, predicted_tpot_s, scenario_of};
use goodput_lab::core::calibration::profile::PROFILE;
use goodput_lab::core::calibration::published::POINTS;
use goodput_lab::core::calibration::transfer::{month_of, Profile};
use goodput_lab::core::calibration::CostModel;
use goodput_lab::core::roofline::{kv_pool_batch, MAX_BATCH};

fn close(a: f64, b: f64, what: &str) {
    assert!((a / b - 1.0).abs() < 1e-12, "{what}: {a} vs {b}");
}

#[test]
fn an_older_moe_run_is_priced_slower_by_its_stacks_trend_per_month_and_a_dense_run_not_at_all() {
    let p = Profile {
        release_trend_per_month: [0.03, 0.06, 0.0],
        reference_month: month_of((2026, 5, 1)),
        ..PROFILE
    };
    let january = month_of((2026, 1, 1));
    // Four months before the reference: exp(0.03 x 4) on CUDA, exp(0.06 x 4) on ROCm.
    close(p.release_factor("h200-sxm", true, january), 0.12_f64.exp(), "CUDA");
    close(p.release_factor("mi300x", true, january), 0.24_f64.exp(), "ROCm");
    assert_eq!(p.release_factor("h200-sxm", false, january), 1.0, "a dense model is priced alike");
    assert_eq!(p.release_factor("h200-sxm", true, month_of((2026, 7, 1))), 1.0, "never extrapolated");
}

#[test]
fn a_month_counts_from_year_zero_with_days_as_thirtieths_and_a_bare_month_is_its_first_day() {
    assert_eq!(month_of((2026, 3, 1)) - month_of((2025, 12, 1)), 3.0);
    assert!((month_of((2026, 3, 16)) - month_of((2026, 3, 1)) - 0.5).abs() < 1e-12);
    let mlperf = POINTS.iter().find(|p| p.id == "MLP-01").expect("row");
    assert_eq!(mlperf.date_ymd(), (2025, 9, 1), "{}", mlperf.date);
    let trt = POINTS.iter().find(|p| p.id == "TRT-13").expect("row");
    assert_eq!(trt.date_ymd(), (2025, 1, 1), "{}", trt.date);
}

#[test]
fn every_fitted_run_is_predicted_at_its_own_release_and_the_shipped_trends_are_positive() {
    assert!(PROFILE.release_trend_per_month[0] > 0.0 && PROFILE.release_trend_per_month[1] > 0.0);
    let mut older = 0;
    for row in fitted_rows(POINTS) {
        let at_reference = predicted_tpot_s(row, CostModel::Measured(row.engine)).expect("priced");
        let factor = PROFILE.run_factor(row);
        close(predict_with(&PROFILE, row), at_reference * factor, row.id);
        older += usize::from(factor > 1.0);
    }
    assert!(older > 40, "most runs predate the newest release: {older}");
}

#[test]
fn an_offline_maximum_is_a_tpot_floor_at_the_batch_its_pool_holds_and_the_fit_meets_it() {
    let row = POINTS.iter().find(|p| p.id == "TRT-13").expect("row");
    let floor = *ceiling_floors(POINTS).iter().find(|p| p.id == "TRT-13").expect("a floor");
    let batch = kv_pool_batch(&scenario_of(row, CostModel::Ideal).expect("priced")).min(MAX_BATCH);
    assert_eq!(floor.concurrency, Some(f64::from(batch)));
    // One replica of TP 8 on its 8 GPUs at 2,919 output tokens/s: TPOT >= batch / 2,919.
    close(floor.tpot_s.expect("floor"), f64::from(batch) / 2919.0, "floor");
    let predicted = predict_with(&PROFILE, &floor);
    assert!(predicted >= floor.tpot_s.unwrap() * (1.0 - 0.5 / 2919.0), "{predicted} under the floor");
}
