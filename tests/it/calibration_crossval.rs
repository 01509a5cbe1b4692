//! Cross-validation and the likely range: each held-out prediction is a fit without the held rows
//! (recomputed here by filtering the data and fitting), the shipped ranges are the cross-validation's
//! (the generated-profile test recomputes them), leave-one-GPU-out predictions fall inside their
//! ranges at least 80% of the time, a range's quantiles match a hand count, and only the measured
//! engines' cost model carries a range.

use goodput_lab::calibration_data::{read, CSV};
use goodput_lab::core::calibration::bounds::Stack;
use goodput_lab::core::calibration::coverage::{Coverage, GpuCoverage};
use goodput_lab::core::calibration::crossval::{cross_validate, spread, Held, Scheme};
use goodput_lab::core::calibration::fit::{fit, fitted_rows, predict_with};
use goodput_lab::core::calibration::published::PublishedPoint;
use goodput_lab::core::calibration::range::{class_ranges, likely_range, LikelyRange};
use goodput_lab::core::calibration::report::RowError;
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::gpu_by_id;
use goodput_lab::core::roofline::step_time;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::WORKED_EXAMPLE;

fn data() -> Vec<PublishedPoint> {
    read(CSV).expect("the data file reads")
}

#[test]
fn leave_one_gpu_out_predicts_each_gpu_with_a_fit_that_never_saw_it() {
    let points = data();
    let held = cross_validate(&points, Scheme::LeaveOneGpuOut);
    assert_eq!(held.len(), fitted_rows(&points).len(), "every fitted row once");
    // B200 left out has nothing of Blackwell left among the fitted rows (GB200's are throughput rows);
    // MI300X left out still has MI325X and CDNA3's fractions transfer from it.
    for (gpu, family_left) in [("b200", GpuCoverage::NotMeasured), ("mi300x", GpuCoverage::SameGeneration)] {
        let rest: Vec<PublishedPoint> = points.iter().filter(|p| p.gpu_id != gpu).copied().collect();
        let without = fit(&rest);
        assert!(without.gpus.iter().all(|g| g.gpu_id != gpu), "{gpu} has no terms of its own");
        for row in fitted_rows(&points).into_iter().filter(|r| r.gpu_id == gpu) {
            let h = held.iter().find(|h| h.error.id == row.id).expect("held out");
            assert_eq!(h.error.predicted, predict_with(&without.profile(), row), "{}", row.id);
            assert_eq!(h.coverage.gpu, family_left, "{}: what of its family is left", row.id);
        }
    }
    // H100 held out has H200 of its generation left, but no dense GEMM was measured on it: the dense
    // fraction is a prior, so its rows are not measured either.
    let h100 = held.iter().find(|h| h.error.id == "GPS-01").expect("held out");
    assert_eq!(h100.coverage.gpu, GpuCoverage::NotMeasured);
}

#[test]
fn leave_one_row_out_refits_without_exactly_that_row() {
    let points = data();
    let held = cross_validate(&points, Scheme::LeaveOneRowOut);
    let rest: Vec<PublishedPoint> = points.iter().filter(|p| p.id != "IX-17").copied().collect();
    let row = points.iter().find(|p| p.id == "IX-17").expect("row");
    let h = held.iter().find(|h| h.error.id == "IX-17").expect("held out");
    assert_eq!(h.error.predicted, predict_with(&fit(&rest).profile(), row));
    assert_eq!(h.coverage, Coverage { gpu: GpuCoverage::Fitted, config_measured: true });
}

#[test]
fn leave_one_gpu_out_predictions_fall_inside_ranges_read_without_their_gpu_at_least_80_percent_of_the_time() {
    let points = data();
    let c = crate::common::calibrated();
    assert_eq!(c.gpu_left_out.len(), cross_validate(&points, Scheme::LeaveOneGpuOut).len());
    let inside = c.gpu_left_out.iter().filter(|j| j.inside()).count();
    assert!(inside as f64 >= 0.8 * c.gpu_left_out.len() as f64, "{inside} of {}", c.gpu_left_out.len());
}

fn held(ratio: f64, coverage: Coverage) -> Held {
    // Each row its own release (a group of one), so every ratio weighs one draw.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let release: &'static str = Box::leak(format!("release {n}").into_boxed_str());
    Held {
        error: RowError { id: "x", gpu_id: "h100-sxm", measured: ratio, predicted: 1.0 },
        coverage,
        release,
    }
}

#[test]
fn a_class_range_is_its_held_out_rows_split_conformal_order_statistics_widening_with_coverage() {
    let fitted = Coverage::ALL[0];
    let other = Coverage::ALL[5];
    // Ratios 0.80, 0.85, ..., 1.25 (n = 10): the conformal low is the floor(11 x 0.1) = 1st smallest,
    // 0.80, the high the ceil(11 x 0.9) = 10th, 1.25 (a plain 10th-90th percentile would read 0.845
    // and 1.205, which 11 exchangeable draws beat more than 20% of the time).
    let mut rows: Vec<Held> = (0..10).map(|i| held(0.80 + 0.05 * f64::from(i), fitted)).collect();
    rows.extend([held(0.5, other), held(2.0, other), held(1.0, other), held(1.1, other), held(0.9, other)]);
    let r = class_ranges(&rows).0[Stack::Cuda.index()];
    assert!((r[0].low - 0.80).abs() < 1e-12 && (r[0].high - 1.25).abs() < 1e-12, "{:?}", r[0]);
    assert_eq!(r[0].rows, 10);
    // Class 1 has no rows of its own: it takes in the next classes' until it has 5 (the five "other"),
    // whose n + 1 = 6 slots put the low at the 1st smallest (floor(0.6) clamps to 1): 0.5.
    assert!((r[1].low - 0.5).abs() < 1e-12, "{:?}", r[1]);
    assert!((r[1].high - 2.0).abs() < 1e-12, "ceil(6 x 0.9) = 6 > 5: the largest, {:?}", r[1]);
    // Wider classes hold the better-covered ranges.
    for w in r.windows(2) {
        assert!(w[1].low <= w[0].low && w[1].high >= w[0].high, "{r:?}");
    }
}

#[test]
fn spread_reads_median_p90_and_worst_of_the_absolute_errors() {
    let rows: Vec<RowError> = [0.9, 1.05, 1.2, 0.7, 1.0]
        .iter()
        .map(|&m| RowError { id: "x", gpu_id: "g", measured: m, predicted: 1.0 })
        .collect();
    let s = spread(&rows);
    // |pred / measured - 1|: 0.111, 0.048, 0.167, 0.429, 0: median 0.111, worst 0.429.
    assert!((s.median_abs_error - (1.0 / 0.9 - 1.0)).abs() < 1e-12);
    assert!((s.worst_abs_error - (1.0 / 0.7 - 1.0)).abs() < 1e-12);
    assert!(s.p90_abs_error > s.median_abs_error && s.p90_abs_error < s.worst_abs_error);
}

#[test]
fn only_the_measured_engines_carry_a_likely_range_and_an_unmeasured_gpu_gets_the_widest() {
    assert_eq!(likely_range(&WORKED_EXAMPLE), None, "the ideal roofline is a bound");
    let custom = Scenario {
        calibration: CostModel::Custom(goodput_lab::core::roofline::CustomCalibration::REALISTIC_DEFAULT),
        ..WORKED_EXAMPLE
    };
    assert_eq!(likely_range(&custom), None);
    let h100 = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..WORKED_EXAMPLE };
    let r = likely_range(&h100).expect("a range");
    assert_eq!(r.coverage, Coverage { gpu: GpuCoverage::Fitted, config_measured: true });
    assert!(r.low < 1.0 && r.high > 1.0);
    let tpu = Scenario { gpu: *gpu_by_id("tpu-v6e").expect("preset"), ..h100 };
    let t = likely_range(&tpu).expect("a range");
    assert_eq!(t.coverage.gpu, GpuCoverage::NotMeasured);
    assert_eq!(t.coverage.word(), "not measured");
    assert!(t.low <= r.low && t.high >= r.high, "{t:?} holds {r:?}");
}

#[test]
fn a_scaled_scenario_takes_every_step_exactly_factor_times_as_long() {
    let s = Scenario {
        parallel: Parallelism::tp(4),
        calibration: CostModel::Measured(Engine::Trtllm),
        ..WORKED_EXAMPLE
    };
    for factor in [0.8, 1.3] {
        let scaled = LikelyRange::scaled(&s, factor);
        for batch in [1, 64, 600] {
            let (a, b) = (step_time(&s, batch).step_s, step_time(&scaled, batch).step_s);
            assert!((b / a - factor).abs() < 1e-12, "batch {batch}: {b} / {a}");
        }
        let prefill = |x: &Scenario| goodput_lab::core::prefill::prefill_time(x).prefill_s;
        assert!((prefill(&scaled) / prefill(&s) - factor).abs() < 1e-12, "prefill");
    }
}

#[test]
fn a_scaled_wide_ep_scenario_across_nodes_takes_every_step_exactly_factor_times_as_long() {
    // DeepSeek-V3 FP8 at TP1 EP16 DP16 over two H200 nodes: the all-to-all's per-call cost, its NVLink
    // and NIC bytes and the per-MoE-layer cost all scale with the rest.
    let s = Scenario {
        model: *goodput_lab::core::presets::model_by_id("deepseek-v3").expect("preset"),
        gpu: *gpu_by_id("h200-sxm").expect("preset"),
        weight_precision: goodput_lab::core::precision::Precision::Fp8,
        parallel: Parallelism { tp: 1, ep: 16, dp: 16, pp: 1 },
        cluster: goodput_lab::core::parallel::Cluster { nodes: 2, ..WORKED_EXAMPLE.cluster },
        calibration: CostModel::Measured(Engine::Sglang),
        ..WORKED_EXAMPLE
    };
    assert!(step_time(&s, 256).terms.all_to_all_s > 0.0, "an all-to-all to scale");
    for factor in [0.8, 1.3] {
        let scaled = LikelyRange::scaled(&s, factor);
        for batch in [16, 256, 2048] {
            let (a, b) = (step_time(&s, batch).step_s, step_time(&scaled, batch).step_s);
            assert!((b / a - factor).abs() < 1e-9, "batch {batch}: {b} / {a}");
        }
    }
}
