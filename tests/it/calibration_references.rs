//! Published measurements beside the model: which rows match a configuration, what the page's cost
//! model predicts for each, how the table prints them, and the triangles both batch charts draw.

use crate::common::worked_example;
use crate::common::{batch_chart_svg, light_style};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::Palette;
use goodput_lab::core::calibration::profile::PROFILE;
use goodput_lab::core::calibration::published::{matching, ARCHITECTURE_TWINS, POINTS};
use goodput_lab::core::calibration::references::references;
use goodput_lab::core::calibration::report::tpot_errors;
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::curves::curves;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, ModelSpec};
use goodput_lab::core::roofline::{analyze, Precision};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::view::batch_chart::BatchChart;
use goodput_lab::view::format::references::{row, signed_percent};

fn qwen(calibration: CostModel) -> Scenario {
    Scenario { model: *model_by_id("qwen3-8b").unwrap(), calibration, ..worked_example() }
}

#[test]
fn qwen3_8b_bf16_on_one_h100_matches_gpustacks_six_bf16_rows_and_fp8_its_seventh() {
    let ids: Vec<&str> = references(&qwen(CostModel::Ideal)).iter().map(|r| r.point().id).collect();
    assert_eq!(ids, ["GPS-01", "GPS-02", "GPS-03", "GPS-04", "GPS-05", "GPS-06"]);
    let fp8 = Scenario { weight_precision: Precision::Fp8, ..qwen(CostModel::Ideal) };
    let ids: Vec<&str> = references(&fp8).iter().map(|r| r.point().id).collect();
    assert_eq!(ids, ["GPS-07"]);
    assert!(references(&worked_example()).is_empty(), "no published Llama 3.1 8B BF16 run on one H100");
}

/// DeepSeek-R1-0528 at FP8 on TP 8 of one GPU preset, under `model_id`.
fn deepseek_on(model_id: &str, gpu_id: &str) -> Scenario {
    Scenario {
        model: *model_by_id(model_id).unwrap(),
        gpu: *gpu_by_id(gpu_id).unwrap(),
        weight_precision: Precision::Fp8,
        parallel: Parallelism::tp(8),
        ..worked_example()
    }
}

#[test]
fn deepseek_r1_scenario_shows_the_r1_rows() {
    for gpu in ["h200-sxm", "b200", "mi300x"] {
        let r1 = matching(&deepseek_on("deepseek-r1", gpu));
        assert!(!r1.is_empty(), "{gpu}: no published row for DeepSeek-R1");
        for &i in &r1 {
            assert!(
                POINTS[i].model_label.contains("DeepSeek-R1"),
                "{gpu}: {} is not an R1 row",
                POINTS[i].id
            );
            assert_eq!(
                POINTS[i].model_id, "deepseek-v3",
                "{}: R1 rows stay priced as DeepSeek-V3",
                POINTS[i].id
            );
        }
        assert_eq!(r1, matching(&deepseek_on("deepseek-v3", gpu)), "{gpu}: the twins list the same rows");
        let ids: Vec<&str> =
            references(&deepseek_on("deepseek-r1", gpu)).iter().map(|r| r.point().id).collect();
        assert!(!ids.is_empty(), "{gpu}: the R1 rows are drawn as references");
    }
    // Another model on the same GPU sees none of them.
    assert!(matching(&deepseek_on("kimi-k2", "h200-sxm")).is_empty());
}

#[test]
fn architecture_twins_are_one_architecture_under_two_names() {
    let unnamed = |id: &str| ModelSpec { id: "", name: "", source: "", ..*model_by_id(id).unwrap() };
    for &(scenario, row) in ARCHITECTURE_TWINS {
        assert_eq!(unnamed(scenario), unnamed(row), "{scenario} and {row} differ in a number");
    }
}

#[test]
fn the_ideal_roofline_predicts_every_reference_faster_than_measured() {
    let all = references(&qwen(CostModel::Ideal));
    assert_eq!(all.len(), 6);
    for r in all {
        assert!(r.error() < -0.25, "{}: {:+.3}", r.point().id, r.error());
    }
}

#[test]
fn under_measured_engines_each_reference_carries_the_fits_own_prediction() {
    let fitted = tpot_errors(POINTS, &PROFILE);
    // The page predicts with the page's engine; the fit with each row's own: compare per engine.
    for engine in Engine::ALL {
        for r in references(&qwen(CostModel::Measured(engine))) {
            let row = fitted.iter().find(|e| e.id == r.point().id).unwrap();
            if r.point().engine == engine {
                assert!((r.predicted_tpot_s / row.predicted - 1.0).abs() < 1e-12, "{}", row.id);
            }
            assert!((r.tpot_s / row.measured - 1.0).abs() < 1e-12, "{}", row.id);
        }
    }
}

#[test]
fn the_table_prints_measured_predicted_and_a_signed_error() {
    let r = references(&qwen(CostModel::Ideal))[0];
    let cells = row(&r);
    assert_eq!(cells[0], "GPS-01: vLLM v0.11.0, GPUStack performance lab, 2025-10/11 (doc)");
    assert_eq!(cells[1], "1");
    assert_eq!(cells[2], "233 / 221", "ShareGPT's mean lengths");
    assert_eq!(cells[3], "7.28");
    assert!(cells[5].starts_with('-') && cells[5].ends_with('%'), "{}", cells[5]);
    assert_eq!(signed_percent(0.127), "+12.7%");
    assert_eq!(signed_percent(-0.0004), "-0.0%");
}

/// Filled triangles in the text colour (SVG polygons) in a chart of `s`.
fn triangles(s: &Scenario, step: bool) -> usize {
    let c = curves(s, &analyze(s));
    let style = light_style();
    let kind = if step { BatchChart::Step } else { BatchChart::Interactivity };
    let (svg, drawn) = batch_chart_svg(&BatchDraw::new(kind, &c, &style), (800, 450));
    drawn.expect("chart draws");
    let text = Palette::LIGHT.text;
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", text.0, text.1, text.2);
    svg.split("<polygon").skip(1).filter(|el| el.split('>').next().is_some_and(|a| a.contains(&fill))).count()
}

#[test]
fn both_batch_charts_draw_a_triangle_per_reference_and_one_in_the_legend() {
    let s = qwen(CostModel::Measured(Engine::Vllm));
    assert_eq!(triangles(&s, true), 6 + 1, "six GPUStack rows and the legend's");
    assert_eq!(triangles(&s, false), 6 + 1);
    assert_eq!(triangles(&worked_example(), true), 0, "no reference, no triangle, no legend entry");
}
