//! The model against your own runs: each run is priced by the closed-loop predictor on the page's
//! scenario at the run's concurrency and lengths under "Measured engines" (the page's engine, or
//! vLLM standing in), runs without lengths use the page's and are marked, and the errors and their
//! median and worst are those a hand computation gives.

use std::fs;

use crate::common::worked_example;
use goodput_lab::core::calibration::predict::closed_loop_tpot_at_s;
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::fit::{RunLengths, YourPoint};
use goodput_lab::core::measured_runs::{compare_runs, summarize, RunComparison, RunRow};
use goodput_lab::core::roofline::step_time_at;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::measured::parse_upload;
use goodput_lab::view::format::measured_runs::{caption, row, summary};

fn fixture(name: &str) -> String {
    fs::read_to_string(format!("{}/tests/e2e/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

fn with_lengths(batch: u32, tpot_s: f64, isl: f64, osl: f64) -> YourPoint {
    YourPoint {
        lengths: Some(RunLengths { isl_tokens_mean: isl, osl_tokens_mean: osl }),
        ..YourPoint::new(batch, tpot_s)
    }
}

/// The page's scenario under `engine`'s profile holding `isl` + `osl` / 2 and answering `osl`, built
/// here by hand.
fn by_hand(page: &Scenario, engine: Engine, isl: f64, osl: f64) -> Scenario {
    Scenario {
        calibration: CostModel::Measured(engine),
        context_tokens: (isl + osl / 2.0).round() as u32,
        output_tokens: osl as u32,
        ..*page
    }
}

#[test]
fn each_run_is_priced_by_the_closed_loop_predictor_at_its_own_lengths_and_concurrency() {
    let page = worked_example();
    let points = [with_lengths(16, 0.010, 1024.0, 256.0), with_lengths(64, 0.02, 3072.0, 1024.0)];
    let c = compare_runs(&page, &points, Engine::Vllm);
    for (r, p) in c.rows.iter().zip(&points) {
        let l = p.lengths.unwrap();
        let s = by_hand(&page, Engine::Vllm, l.isl_tokens_mean, l.osl_tokens_mean);
        let want = closed_loop_tpot_at_s(&s, f64::from(p.batch), l.isl_tokens_mean, l.osl_tokens_mean);
        assert_eq!(r.predicted_tpot_s, want, "batch {}", p.batch);
        let range = goodput_lab::core::calibration::range::likely_range(&s).expect("measured engines");
        assert_eq!(r.likely_tpot_s, range.time_s(want), "the coverage class's range around it");
        assert_eq!((r.batch, r.tpot_s, r.page_lengths), (p.batch, p.tpot_s, false));
        assert_eq!((r.isl_tokens_mean, r.osl_tokens_mean), (l.isl_tokens_mean, l.osl_tokens_mean));
    }
    assert!(
        c.rows[1].predicted_tpot_s > c.rows[0].predicted_tpot_s,
        "a bigger batch at a longer context is slower"
    );
}

#[test]
fn a_batch_one_run_is_the_models_decode_step_at_the_runs_context() {
    // With no other request in flight there is no prefill to wait for: TPOT = step(1, ISL + OSL / 2).
    let page = worked_example();
    let c = compare_runs(&page, &[with_lengths(1, 0.008, 1792.0, 512.0)], Engine::Vllm);
    let step = step_time_at(&by_hand(&page, Engine::Vllm, 1792.0, 512.0), 1.0).step_s;
    assert_eq!(c.rows[0].predicted_tpot_s, step);
    assert!(
        step > step_time_at(&page, 1.0).step_s,
        "the measured profile's step is above the ideal roofline's"
    );
}

#[test]
fn a_run_without_lengths_uses_the_pages_and_is_marked() {
    let page = Scenario { context_tokens: 1000 + 300 / 2, output_tokens: 300, ..worked_example() };
    let c = compare_runs(&page, &[YourPoint::new(32, 0.012)], Engine::Vllm);
    let r = c.rows[0];
    assert!(r.page_lengths);
    assert_eq!((r.isl_tokens_mean, r.osl_tokens_mean), (1000.0, 300.0));
    let want = closed_loop_tpot_at_s(&by_hand(&page, Engine::Vllm, 1000.0, 300.0), 32.0, 1000.0, 300.0);
    assert_eq!(r.predicted_tpot_s, want);
    assert!(row(&r)[1].ends_with("1,000 / 300 (page's lengths)"), "{:?}", row(&r));
}

#[test]
fn the_pages_engine_is_used_on_measured_engines_and_vllm_stands_in_otherwise() {
    let point = [with_lengths(8, 0.01, 2000.0, 400.0)];
    let sglang_page = Scenario { calibration: CostModel::Measured(Engine::Sglang), ..worked_example() };
    let own = compare_runs(&sglang_page, &point, Engine::Vllm);
    assert_eq!((own.engine, own.substituted), (Engine::Sglang, false));
    let want =
        closed_loop_tpot_at_s(&by_hand(&sglang_page, Engine::Sglang, 2000.0, 400.0), 8.0, 2000.0, 400.0);
    assert_eq!(own.rows[0].predicted_tpot_s, want);
    let ideal = compare_runs(&worked_example(), &point, Engine::Vllm);
    assert_eq!((ideal.engine, ideal.substituted), (Engine::Vllm, true));
    assert!(caption(&ideal, "Ideal roofline")
        .contains("The page's cost model is Ideal roofline; this table uses Measured engines (vLLM)"));
    assert!(caption(&own, "Measured engines (SGLang)").contains("(Measured engines (SGLang))"));
    assert!(!caption(&own, "Measured engines (SGLang)").contains("The page's cost model is"));
}

/// A run whose likely range is the model's TPOT -10% to +20%.
fn run(batch: u32, measured_ms: f64, model_ms: f64) -> RunRow {
    RunRow {
        batch,
        isl_tokens_mean: 1000.0,
        osl_tokens_mean: 200.0,
        page_lengths: false,
        tpot_s: measured_ms / 1e3,
        predicted_tpot_s: model_ms / 1e3,
        likely_tpot_s: (0.9 * model_ms / 1e3, 1.2 * model_ms / 1e3),
    }
}

#[test]
fn errors_and_their_median_and_worst_match_a_hand_computation() {
    let rows = [run(1, 10.0, 11.0), run(4, 10.0, 9.0), run(16, 8.0, 8.4), run(64, 20.0, 26.0)];
    let errors: Vec<f64> = rows.iter().map(RunRow::error).collect();
    for (got, want) in errors.iter().zip([0.1, -0.1, 0.05, 0.3]) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    // |errors| sorted: 0.05, 0.1, 0.1, 0.3: the median is the mean of the middle two.
    let s = summarize(&rows).unwrap();
    assert!((s.median_abs_error - 0.1).abs() < 1e-12 && (s.worst_abs_error - 0.3).abs() < 1e-12, "{s:?}");
    assert_eq!((s.count, s.worst_row), (4, 3));
    let odd = summarize(&rows[..3]).unwrap();
    assert!((odd.median_abs_error - 0.1).abs() < 1e-12, "{odd:?}");
    assert_eq!(summarize(&[]), None);
    let c = RunComparison { engine: Engine::Vllm, substituted: false, rows: rows.to_vec(), summary: Some(s) };
    // Inside [0.9, 1.2] x model: 10 in [9.9, 13.2] yes; 10 in [8.1, 10.8] yes; 8 in [7.56, 10.08] yes;
    // 20 in [23.4, 31.2] no.
    assert_eq!(s.inside, 3);
    assert_eq!(
        summary(&c).as_deref(),
        Some("4 runs: median |error| 10.0%, worst 30.0% (batch 64); 3 of 4 inside the model's likely range.")
    );
    assert_eq!(
        row(&rows[1]),
        ["4", "1,000 / 200", "10.00", "9.00", "8.10–10.80", "-10.0%", "yes"].map(String::from)
    );
    assert_eq!(row(&rows[3])[6], "no");
}

#[test]
fn the_fixtures_runs_compare_at_their_generated_step_times() {
    // vllm-bench-lengths.jsonl: (batch, ISL, OSL, noise), TPOT from 1.8 ms + bytes at 72% of 3.35 TB/s.
    let generated = [(1, 1792.0, 512.0, 0.004), (16, 1024.0, 256.0, -0.005), (64, 3072.0, 1024.0, 0.006)];
    let points = parse_upload(&fixture("vllm-bench-lengths.jsonl")).unwrap().points;
    let c = compare_runs(&worked_example(), &points, Engine::Vllm);
    for (r, (batch, isl, osl, noise)) in c.rows.iter().zip(generated) {
        let bytes = 8.03e9 * 2.0 + f64::from(batch) * (isl + osl / 2.0) * 131_072.0;
        let tpot_ms = (1.8 + bytes / (0.72 * 3.35e12) * 1e3) * (1.0 + noise);
        assert!((r.tpot_s * 1e3 - tpot_ms).abs() < 5e-4, "batch {batch}: {} vs {tpot_ms}", r.tpot_s * 1e3);
        assert_eq!((r.batch, r.isl_tokens_mean, r.osl_tokens_mean), (batch, isl, osl));
        assert!((r.error() - (r.predicted_tpot_s / (tpot_ms / 1e3) - 1.0)).abs() < 1e-4);
    }
    assert_eq!(c.summary.map(|s| s.count), Some(3));
}
