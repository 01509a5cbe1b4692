//! The accuracy view (`core::calibration::accuracy`, `view::format::accuracy`, the CSV and the row's
//! load): one row per published point whatever the data hold, filters that let through exactly the
//! points they name, each class's coverage and median |error| recomputed from the printed cells and
//! checked against written-out arithmetic on hand-made rows, and a row that loads its scenario.

use goodput_lab::core::calibration::accuracy::{
    class_stats, hold_out_stats, model_key, rows, rows_with, shipped, AccuracyRow, Class, Filter, Priced,
};
use goodput_lab::core::calibration::coverage::{HeldOutPrediction, HoldOut};
use goodput_lab::core::calibration::profile::HELD_OUT;
use goodput_lab::core::calibration::published::{PublishedPoint, UseClass, POINTS};
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::precision::Precision;
use goodput_lab::protocol::panel::{apply, apply_view, from_bytes, to_bytes, ToPage};
use goodput_lab::state::published::{loadable, marked_batch};
use goodput_lab::state::view::View;
use goodput_lab::state::{from_page_query, page_query, Inputs};
use goodput_lab::view::export::accuracy_csv;
use goodput_lab::view::format::accuracy::{
    cells, class_word, filter_of, hold_out_line, options, stats_line, HEADERS,
};

fn shipped_rows() -> Vec<AccuracyRow> {
    rows(POINTS, HELD_OUT)
}

#[test]
fn every_published_point_is_one_row_in_the_datas_order() {
    let all = shipped_rows();
    assert_eq!(all.len(), POINTS.len());
    assert!(all.iter().zip(POINTS).all(|(r, p)| r.point == *p));
    assert_eq!(Filter::default().apply(&all).len(), POINTS.len(), "no filter lets every row through");
}

#[test]
fn each_filter_lets_through_exactly_the_points_it_names() {
    let all = shipped_rows();
    let o = options(&all);
    for (gpu, _) in o.gpus.iter().skip(1) {
        let expected = POINTS.iter().filter(|p| p.gpu_id == gpu).count();
        assert_eq!(filter_of(gpu, "all", "all", "all").apply(&all).len(), expected, "{gpu}");
    }
    for (engine, _) in o.engines.iter().skip(1) {
        let expected = POINTS.iter().filter(|p| p.engine.id() == engine).count();
        assert_eq!(filter_of("all", engine, "all", "all").apply(&all).len(), expected, "{engine}");
    }
    for (model, _) in o.models.iter().skip(1) {
        let key = |p: &PublishedPoint| if p.model_id.is_empty() { p.model_label } else { p.model_id };
        let expected = POINTS.iter().filter(|p| key(p) == model).count();
        assert_eq!(filter_of("all", "all", model, "all").apply(&all).len(), expected, "{model}");
    }
    let by_class: usize =
        Class::ALL.iter().map(|c| filter_of("all", "all", "all", c.id()).apply(&all).len()).sum();
    assert_eq!(by_class, POINTS.len(), "every row is in one class");
    assert_eq!(o.gpus.len() - 1, distinct_count(|p| p.gpu_id), "one GPU option per GPU in the data");
    assert_eq!(o.models.len() - 1, distinct_count(model_key), "one model option per model");
}

fn distinct_count(key: impl Fn(&PublishedPoint) -> &'static str) -> usize {
    POINTS.iter().map(key).collect::<std::collections::BTreeSet<_>>().len()
}

#[test]
fn the_filters_combine_as_and() {
    let all = shipped_rows();
    let first = &POINTS[0];
    let f = filter_of(first.gpu_id, first.engine.id(), model_key(first), "all");
    let expected = POINTS
        .iter()
        .filter(|p| p.gpu_id == first.gpu_id && p.engine == first.engine && model_key(p) == model_key(first))
        .count();
    assert_eq!(f.apply(&all).len(), expected);
    assert!(expected >= 1);
}

#[test]
fn a_row_is_classed_by_how_the_model_met_it() {
    for r in shipped_rows() {
        let p = r.point;
        let fitted = is_fitted_row(&p);
        let held = HELD_OUT.iter().any(|h| h.id == p.id);
        match r.class {
            Class::Fitted => assert!(fitted && !held, "{}", p.id),
            Class::TimeSplit | Class::LeftOut | Class::GpuLeftOut => assert!(fitted && held, "{}", p.id),
            // Throughput rows, and a TPOT row with an all-to-all, which the wide-EP fit takes.
            Class::Checked => {
                assert!(
                    matches!(p.use_class, UseClass::Load | UseClass::Ceiling) || p.all_to_all(),
                    "{}",
                    p.id
                )
            }
            Class::NotPriced => assert!(r.priced.is_none(), "{}", p.id),
        }
        if p.model_id.is_empty() {
            assert_eq!(r.class, Class::NotPriced, "{}: an empty model is not priced", p.id);
        }
    }
}

#[test]
fn the_shipped_prediction_of_a_run_is_the_published_runs_tables_at_its_release() {
    use goodput_lab::core::calibration::predict::scenario_of;
    use goodput_lab::core::calibration::range::likely_range;
    use goodput_lab::core::calibration::references::references;
    let mut compared = 0;
    for (index, p) in POINTS.iter().enumerate() {
        let Some(priced) = shipped(p).filter(|_| is_fitted_row(p)) else { continue };
        let scenario = scenario_of(p, CostModel::Measured(p.engine)).unwrap();
        let range = likely_range(&scenario).unwrap();
        assert_eq!((priced.low, priced.high), (range.low, range.high), "{}", p.id);
        let reference = references(&scenario).into_iter().find(|r| usize::from(r.point_index) == index);
        let reference = reference.unwrap_or_else(|| panic!("{} is in its own scenario's table", p.id));
        assert!((priced.predicted / reference.predicted_tpot_s - 1.0).abs() < 1e-12, "{}", p.id);
        compared += 1;
    }
    assert!(compared >= 1);
}

#[test]
fn a_checked_row_shows_the_calibration_reports_throughput_check() {
    use goodput_lab::core::calibration::profile::PROFILE;
    use goodput_lab::core::calibration::report::throughput_checks;
    let checks = throughput_checks(POINTS, &PROFILE);
    let all = shipped_rows();
    let checked: Vec<&AccuracyRow> = all
        .iter()
        .filter(|r| {
            r.class == Class::Checked && matches!(r.point.use_class, UseClass::Load | UseClass::Ceiling)
        })
        .collect();
    for r in &checked {
        let check = checks.iter().find(|c| c.id == r.point.id).unwrap_or_else(|| panic!("{}", r.point.id));
        assert_eq!(r.measured, Some(check.measured), "{}", r.point.id);
        assert!((r.priced.unwrap().predicted / check.predicted - 1.0).abs() < 1e-9, "{}", r.point.id);
    }
    let priced_checks =
        checks.iter().filter(|c| POINTS.iter().any(|p| p.id == c.id && !p.model_id.is_empty()));
    assert_eq!(checked.len(), priced_checks.count(), "every check the report prints is a checked row");
}

fn is_fitted_row(p: &PublishedPoint) -> bool {
    !goodput_lab::core::calibration::fit::fitted_rows(std::slice::from_ref(p)).is_empty()
}

#[test]
fn each_way_of_holding_out_counts_every_held_out_prediction_of_the_rows_shown() {
    let all = shipped_rows();
    let shown: Vec<&AccuracyRow> = all.iter().collect();
    for s in hold_out_stats(&shown, HELD_OUT) {
        let of: Vec<(&HeldOutPrediction, f64)> = HELD_OUT
            .iter()
            .filter(|h| h.hold_out == s.hold_out)
            .filter_map(|h| {
                let p = POINTS.iter().find(|p| p.id == h.id && is_fitted_row(p))?;
                Some((h, p.tpot_s?))
            })
            .collect();
        let inside = of
            .iter()
            .filter(|(h, m)| {
                let r = m / h.predicted_tpot_s;
                r >= h.low * (1.0 - 1e-12) && r <= h.high * (1.0 + 1e-12)
            })
            .count();
        assert_eq!((s.predictions, s.inside), (of.len(), inside), "{:?}", s.hold_out);
    }
}

#[test]
fn the_csv_has_a_header_and_one_line_per_row_shown() {
    let all = shipped_rows();
    for (gpu, _) in options(&all).gpus {
        let shown = filter_of(&gpu, "all", "all", "all").apply(&all);
        let csv = accuracy_csv(&shown);
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>(), HEADERS);
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records.len(), shown.len(), "{gpu}");
        assert_eq!(csv.matches("\r\n").count(), shown.len() + 1, "{gpu}: a line a row plus the header");
        for (record, row) in records.iter().zip(&shown) {
            assert_eq!(record.iter().collect::<Vec<_>>(), cells(row).to_vec(), "the page's cells");
        }
    }
}

#[test]
fn each_class_line_counts_inside_over_priced_rows_as_the_cells_print_them() {
    let all = shipped_rows();
    let shown: Vec<&AccuracyRow> = all.iter().collect();
    for s in class_stats(&shown) {
        let of: Vec<[String; 13]> =
            shown.iter().filter(|r| class_word(r.class) == class_word(s.class)).map(|r| cells(r)).collect();
        assert_eq!(s.rows, of.len(), "{:?}", s.class);
        assert_eq!(s.inside, of.iter().filter(|c| c[10] == "yes").count(), "{:?}", s.class);
        assert_eq!(s.priced, of.iter().filter(|c| c[10] != "—").count(), "{:?}", s.class);
        if s.priced > 0 {
            let share = s.inside as f64 / s.priced as f64;
            assert_eq!(s.coverage(), Some(share));
            assert!(
                stats_line(&s).contains(&format!("{} of {} inside", s.inside, s.priced)),
                "{}",
                stats_line(&s)
            );
        }
    }
}

/// A hand-made point: TPOT `tpot_ms` at `concurrency` (or a throughput row with `tokens_per_s`).
fn point(
    id: &'static str,
    use_class: UseClass,
    tpot_ms: Option<f64>,
    tokens_per_s: Option<f64>,
) -> PublishedPoint {
    PublishedPoint {
        id,
        source: "Hand-made",
        date: "2026-01-01",
        engine: Engine::Vllm,
        engine_label: "vLLM v0.0.0",
        release: "vLLM v0.0.0",
        model_label: "Qwen/Qwen3-8B",
        model_id: "qwen3-8b",
        gpu_id: "h100-sxm",
        weight_precision: Precision::Bf16,
        kv_precision: Precision::Bf16,
        tp: 1,
        ep: 1,
        dp: 1,
        pp: 1,
        speculative: false,
        gpus: 1,
        use_class,
        concurrency: Some(8.0),
        isl_mean: 1000.0,
        osl_mean: 200.0,
        tpot_s: tpot_ms.map(|t| t / 1e3),
        output_tokens_per_s: tokens_per_s,
    }
}

fn held(id: &'static str, hold_out: HoldOut, predicted_ms: f64, low: f64, high: f64) -> HeldOutPrediction {
    HeldOutPrediction { id, hold_out, predicted_tpot_s: predicted_ms / 1e3, low, high }
}

#[test]
fn hand_made_rows_give_the_written_out_classes_ranges_and_coverage() {
    let points = [
        point("A", UseClass::Step, Some(10.0), None),
        point("B", UseClass::Curve, Some(20.0), None),
        point("C", UseClass::Curve, Some(8.0), None),
        point("D", UseClass::Curve, Some(12.0), None),
        point("E", UseClass::Load, Some(50.0), Some(1000.0)),
        PublishedPoint { model_id: "", ..point("F", UseClass::Curve, Some(9.0), None) },
        PublishedPoint { gpu_id: "no-such-gpu", ..point("G", UseClass::Ceiling, None, Some(500.0)) },
    ];
    let held_out = [
        held("B", HoldOut::LeftOut, 21.0, 0.5, 2.0),
        held("B", HoldOut::TimeSplit, 25.0, 0.9, 1.1),
        held("C", HoldOut::LeftOut, 6.0, 0.8, 1.5),
        held("D", HoldOut::LeftOut, 10.0, 0.9, 1.25),
        held("E", HoldOut::TimeSplit, 1.0, 0.1, 10.0),
    ];
    // The shipped profile, made up: A at 11 ms in (0.9, 1.2); E at 1,250 tokens/s in (0.8, 1.2).
    let price = |p: &PublishedPoint| match p.id {
        "A" => Some(Priced { predicted: 11e-3, low: 0.9, high: 1.2 }),
        _ => Some(Priced { predicted: 1250.0, low: 0.8, high: 1.2 }),
    };
    let all = rows_with(&points, &held_out, price);
    let classes: Vec<Class> = all.iter().map(|r| r.class).collect();
    use Class::*;
    assert_eq!(classes, [Fitted, TimeSplit, LeftOut, LeftOut, Checked, NotPriced, NotPriced]);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    // A: 11 ms x (0.9, 1.2) = 9.9-13.2 ms holds 10 ms; error 11 / 10 - 1 = +10%.
    let (lo, hi) = all[0].range().unwrap();
    assert!(close(lo, 9.9e-3) && close(hi, 13.2e-3), "{lo} {hi}");
    assert_eq!(all[0].inside(), Some(true));
    assert!(close(all[0].error().unwrap(), 0.1));
    // B: the time split's 25 ms x (0.9, 1.1) = 22.5-27.5 ms misses 20 ms; +25%.
    assert_eq!(all[1].inside(), Some(false));
    assert!(close(all[1].error().unwrap(), 0.25));
    // C: 6 ms x (0.8, 1.5) = 4.8-9 ms holds 8 ms; -25%. D: 10 ms x (0.9, 1.25) = 9-12.5 holds 12; -1/6.
    assert_eq!((all[2].inside(), all[3].inside()), (Some(true), Some(true)));
    assert!(close(all[2].error().unwrap(), -0.25) && close(all[3].error().unwrap(), -1.0 / 6.0));
    // E, a rate: 1,250 / 1.2 = 1,041.7 to 1,250 / 0.8 = 1,562.5 tokens/s misses 1,000; +25%. Its
    // held-out entry is ignored: a throughput row is not fitted.
    let (lo, hi) = all[4].range().unwrap();
    assert!(close(lo, 1250.0 / 1.2) && close(hi, 1562.5), "{lo} {hi}");
    assert_eq!(all[4].inside(), Some(false));
    assert!(close(all[4].error().unwrap(), 0.25));
    assert_eq!((all[5].priced, all[6].priced), (None, None));
    let shown: Vec<&AccuracyRow> = all.iter().collect();
    let stats = class_stats(&shown);
    let by = |c: Class| *stats.iter().find(|s| s.class == c).unwrap();
    let figures = |c: Class| (by(c).rows, by(c).priced, by(c).inside);
    assert_eq!(figures(TimeSplit), (1, 1, 0));
    assert_eq!(figures(LeftOut), (2, 2, 2));
    assert_eq!(figures(Fitted), (1, 1, 1));
    assert_eq!(figures(Checked), (1, 1, 0));
    assert_eq!(figures(NotPriced), (2, 0, 0));
    assert_eq!(figures(GpuLeftOut), (0, 0, 0));
    // Medians of |error|: time split 25%; left out (25% + 16.67%) / 2 = 20.83%; fitted 10%.
    assert!(close(by(TimeSplit).median_abs_error.unwrap(), 0.25));
    assert!(close(by(LeftOut).median_abs_error.unwrap(), (0.25 + 1.0 / 6.0) / 2.0));
    assert!(close(by(Fitted).median_abs_error.unwrap(), 0.1));
    assert_eq!(by(NotPriced).median_abs_error, None);
    assert_eq!((by(LeftOut).coverage(), by(TimeSplit).coverage()), (Some(1.0), Some(0.0)));
    assert_eq!(
        stats_line(&by(LeftOut)),
        "Left out (out of sample): 2 of 2 inside the likely range (100.0%), median |error| 20.8%."
    );
    assert_eq!(stats_line(&by(NotPriced)), "Not priced: 2 rows, no prediction.");
    // Every held-out prediction of the fitted rows: the time split's B (25 ms, outside); the left-out
    // B (21 ms x (0.5, 2) = 10.5-42 ms holds 20 ms, +5%), C and D (inside): 3 of 3, median |error|
    // of 5%, 25% and 16.67% = 16.67%. E's is no fitted row's; nothing was held out by GPU.
    let held_stats = hold_out_stats(&shown, &held_out);
    let of = |h: HoldOut| *held_stats.iter().find(|s| s.hold_out == h).unwrap();
    assert_eq!((of(HoldOut::TimeSplit).predictions, of(HoldOut::TimeSplit).inside), (1, 0));
    assert_eq!((of(HoldOut::LeftOut).predictions, of(HoldOut::LeftOut).inside), (3, 3));
    assert!(close(of(HoldOut::LeftOut).median_abs_error.unwrap(), 1.0 / 6.0));
    assert_eq!((of(HoldOut::GpuLeftOut).predictions, of(HoldOut::GpuLeftOut).median_abs_error), (0, None));
    assert_eq!(
        hold_out_line(&of(HoldOut::LeftOut)),
        "Every fitted row predicted with its group (GPU family and engine release) left out: 3 of 3 inside the \
         range it had (100.0%), median |error| 16.7%."
    );
    let left_out = filter_of("all", "all", "all", "left-out").apply(&all);
    assert_eq!(left_out.iter().map(|r| r.point.id).collect::<Vec<_>>(), ["C", "D"]);
}

#[test]
fn a_rows_load_sets_the_page_to_its_scenario_and_marks_its_batch() {
    let point = POINTS
        .iter()
        .find(|p| loadable(p) && marked_batch(p).is_some() && p.tp > 1)
        .or_else(|| POINTS.iter().find(|p| loadable(p) && marked_batch(p).is_some()))
        .expect("a loadable row with a whole concurrency");
    let message = ToPage::LoadRun { id: point.id.to_string() };
    assert_eq!(from_bytes::<ToPage>(&to_bytes(&message)), Some(message.clone()), "it crosses the channel");
    let (mut inputs, mut view) = (Inputs::default(), View::default());
    apply_view(&message, &mut view);
    apply(message, &mut inputs, &mut Vec::new());
    let s = inputs.scenario;
    assert_eq!((s.model.id, s.gpu.id), (point.model_id, point.gpu_id));
    assert_eq!((s.weight_precision, s.kv_precision), (point.weight_precision, point.kv_precision));
    assert_eq!(s.parallel, point.parallelism());
    assert_eq!(s.calibration, CostModel::Measured(point.engine));
    assert_eq!(s.output_tokens, point.osl_mean.round() as u32);
    assert_eq!(s.prompt_tokens(), point.isl_mean.round() as u32);
    assert_eq!(view.mark_batch, point.concurrency.map(|c| c as u32));
    let (again, again_view, notices) = from_page_query(&page_query(&inputs, &view));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!((again, again_view), (inputs, view), "the loaded scenario survives its link");
}

#[test]
fn every_loadable_row_loads_a_scenario_its_link_keeps() {
    for p in POINTS {
        let mut inputs = Inputs::default();
        assert_eq!(inputs.load_published(p), loadable(p), "{}", p.id);
        let (again, _, notices) = from_page_query(&page_query(&inputs, &View::default()));
        assert!(notices.is_empty(), "{}: {notices:?}", p.id);
        assert_eq!(again, inputs, "{}", p.id);
    }
}

#[test]
fn loading_an_unknown_row_changes_nothing() {
    let (mut inputs, mut view) = (Inputs::default(), View { mark_batch: Some(32), ..View::default() });
    let message = ToPage::LoadRun { id: "NO-SUCH-ROW".to_string() };
    apply_view(&message, &mut view);
    apply(message, &mut inputs, &mut Vec::new());
    assert_eq!((inputs, view.mark_batch), (Inputs::default(), Some(32)));
}
