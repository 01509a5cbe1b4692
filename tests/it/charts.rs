//! All three charts draw natively to SVG through the same generic functions the page uses on a canvas.

use crate::common::{batch_chart_svg, light_style, worked_example};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::{Palette, IDEAL_OPACITY};
use goodput_lab::core::curves::curves;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::model_by_id;
use goodput_lab::core::roofline::{analyze, CustomCalibration};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::view::batch_chart::BatchChart;
use plotters::prelude::*;

fn svg_of(s: &Scenario, chart: BatchChart) -> String {
    let c = curves(s, &analyze(s));
    let style = light_style();
    let (svg, drawn) = batch_chart_svg(&BatchDraw::new(chart, &c, &style), (800, 450));
    drawn.expect("chart draws");
    svg
}

fn polyline_count(svg: &str) -> usize {
    svg.matches("<polyline").count()
}

/// SVG's spelling of a colour, as plotters writes it in `fill` and `stroke`.
fn svg_color(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The `<circle` elements filled with `c`: the interactivity chart's markers of that colour.
fn filled_circles(svg: &str, c: RGBColor) -> usize {
    let fill = format!("fill=\"{}\"", svg_color(c));
    svg.split("<circle")
        .skip(1)
        .filter(|el| el.split('>').next().is_some_and(|attrs| attrs.contains(&fill)))
        .count()
}

/// The faded `<polyline` dashes stroked with `c`: an ideal-roofline line of that colour.
fn faded_dashes(svg: &str, c: RGBColor) -> usize {
    svg.matches(&format!("<polyline fill=\"none\" opacity=\"{IDEAL_OPACITY}\" stroke=\"{}\"", svg_color(c)))
        .count()
}

fn realistic() -> Scenario {
    Scenario { calibration: CustomCalibration { mbu: 0.8, step_overhead_s: 1e-3 }.into(), ..worked_example() }
}

#[test]
fn rate_chart_draws_throughput_goodput_knee_and_pool() {
    let svg = svg_of(&worked_example(), BatchChart::Rate);
    assert!(svg.starts_with("<svg"));
    for label in [
        "Requests/s",
        "Throughput (req/s)",
        "Goodput (req/s meeting TPOT and TTFT)",
        "knee 64",
        "KV pool 208",
    ] {
        assert!(svg.contains(label), "missing {label}");
    }
    assert!(polyline_count(&svg) >= 2, "two series lines");
}

#[test]
fn step_chart_draws_both_terms_and_the_target() {
    let svg = svg_of(&worked_example(), BatchChart::Step);
    for label in ["Step time (ms)", "Memory term", "Compute term", "TPOT target 10 ms", "knee 64"] {
        assert!(svg.contains(label), "missing {label}");
    }
}

#[test]
fn charts_follow_the_scenario() {
    let loose = Scenario { tpot_target_s: 0.05, ..worked_example() };
    let svg = svg_of(&loose, BatchChart::Step);
    // The TPOT knee (518) lies past the KV pool (208): the chart marks the knee a server reaches.
    assert!(svg.contains("TPOT target 50 ms") && svg.contains("knee 208"), "the reachable knee");
    assert!(!svg.contains("knee 518"), "no knee drawn past the KV pool");
    assert!(svg.contains("Shaded: past the KV pool"), "the legend says what the shading means");
    assert_ne!(svg_of(&worked_example(), BatchChart::Rate), svg_of(&loose, BatchChart::Rate));
}

#[test]
fn charts_draw_when_nothing_fits() {
    let mut s = worked_example();
    s.gpu.hbm_bytes = 1e9;
    let svg = svg_of(&s, BatchChart::Rate);
    assert!(svg.contains("KV pool 0"));
    assert!(!svg.contains("NaN"));
}

#[test]
fn interactivity_chart_plots_per_gpu_against_per_user_speed_with_target_and_knee() {
    let svg = svg_of(&worked_example(), BatchChart::Interactivity);
    for label in [
        "Tokens/s per user (1 / TPOT)",
        "Tokens/s per GPU",
        "TPOT target 10 ms = 100 tokens/s/user",
        "knee: batch 64",
        "batch 208 (KV pool)",
    ] {
        assert!(svg.contains(label), "missing {label}");
    }
    assert!(polyline_count(&svg) >= 1, "the curve joining the batches");
}

#[test]
fn interactivity_markers_are_one_per_ladder_batch_coloured_by_the_target() {
    let s = worked_example();
    let c = curves(&s, &analyze(&s));
    let batches: Vec<u32> = c.ladder.iter().map(|pt| pt.batch).collect();
    assert_eq!(
        batches,
        [1, 2, 4, 8, 16, 32, 64, 65, 128, 208],
        "powers of two, the knee, knee + 1, the pool"
    );
    let in_pool: Vec<_> = c.ladder.iter().filter(|pt| pt.batch <= c.kv_pool_batch).collect();
    let meets = in_pool.iter().filter(|pt| pt.meets_tpot).count();
    let svg = svg_of(&s, BatchChart::Interactivity);
    assert_eq!(filled_circles(&svg, Palette::LIGHT.goodput), meets, "batches meeting TPOT");
    assert_eq!(filled_circles(&svg, Palette::LIGHT.target), in_pool.len() - meets, "batches missing TPOT");
    assert!(meets > 0 && meets < in_pool.len(), "the worked example has batches on both sides of the target");
}

#[test]
fn interactivity_chart_draws_without_nan_when_nothing_fits() {
    let mut s = worked_example();
    s.gpu.hbm_bytes = 1e9;
    let svg = svg_of(&s, BatchChart::Interactivity);
    assert!(svg.contains("Nothing fits") && svg.contains("Tokens/s per GPU"));
    assert!(svg.contains("TPOT target 10 ms = 100 tokens/s/user"));
    assert_eq!(svg.matches("<circle").count(), 0, "no batch to mark");
    assert!(!svg.contains("NaN"));
}

#[test]
fn interactivity_chart_draws_without_nan_when_the_pool_holds_no_sequence() {
    let s = Scenario { context_tokens: 2_000_000, ..worked_example() };
    assert_eq!(analyze(&s).kv_pool_batch, 0, "one sequence's KV exceeds the free HBM");
    let svg = svg_of(&s, BatchChart::Interactivity);
    assert!(svg.contains("Nothing fits"));
    assert!(!svg.contains("NaN") && !svg.contains("knee:"));
}

#[test]
fn interactivity_chart_marks_every_batch_missing_when_the_target_is_below_the_floor() {
    let s = Scenario { tpot_target_s: 1e-3, ..worked_example() };
    assert_eq!(analyze(&s).knee_batch, 0);
    let svg = svg_of(&s, BatchChart::Interactivity);
    assert!(svg.contains("TPOT target 1 ms = 1,000 tokens/s/user"));
    assert!(!svg.contains("knee:") && !svg.contains("NaN"));
    assert_eq!(filled_circles(&svg, Palette::LIGHT.goodput), 0, "no batch meets 1 ms");
    assert!(filled_circles(&svg, Palette::LIGHT.target) > 0);
}

#[test]
fn realistic_mode_draws_the_ideal_roofline_beside_the_calibrated_one() {
    let s = realistic();
    let rate = svg_of(&s, BatchChart::Rate);
    assert!(rate.contains("Ideal throughput") && rate.contains("Ideal goodput"));
    let step = svg_of(&s, BatchChart::Step);
    assert!(step.contains("Ideal step time") && step.contains("Step time (total)"));
    assert!(svg_of(&s, BatchChart::Interactivity).contains("Ideal roofline"));
    // Each dash of an ideal line is its own polyline (the legend's swatch is one more).
    let p = Palette::LIGHT;
    assert!(faded_dashes(&rate, p.throughput) > 10, "ideal throughput drawn dashed");
    assert!(faded_dashes(&rate, p.goodput) > 10, "ideal goodput drawn dashed");
    assert!(faded_dashes(&step, p.step_total) > 10, "ideal step time drawn dashed");
    assert!(!rate.contains("NaN") && !step.contains("NaN"));
}

#[test]
fn the_ideal_worked_example_draws_no_ideal_lines_and_no_total_step() {
    for chart in BatchChart::ALL {
        let svg = svg_of(&worked_example(), chart);
        assert!(!svg.contains("Ideal"));
        assert!(!svg.contains(&format!("opacity=\"{IDEAL_OPACITY}\"")), "no faded line");
    }
    assert!(!svg_of(&worked_example(), BatchChart::Step).contains("Step time (total)"));
}

#[test]
fn tensor_parallel_step_chart_draws_the_total_with_the_all_reduce() {
    let model = *model_by_id("llama-3.1-70b").expect("Llama 3.1 70B preset");
    let s = Scenario { model, parallel: Parallelism::tp(4), ..worked_example() };
    assert!(svg_of(&s, BatchChart::Step).contains("Step time (total)"));
    for chart in BatchChart::ALL {
        assert!(!svg_of(&s, chart).contains("NaN"));
    }
}

#[test]
fn with_speculative_decoding_the_step_chart_draws_the_time_per_output_token() {
    use goodput_lab::core::spec::{Drafter, Speculation};
    let draft = *model_by_id("llama-3.2-1b").expect("Llama 3.2 1B preset");
    let speculation = Speculation { drafter: Drafter::Model(draft), draft_tokens: 4, acceptance: 0.7 };
    let s = Scenario { speculation, ..worked_example() };
    let svg = svg_of(&s, BatchChart::Step);
    assert!(svg.contains("Time per output token (draft + verify) / E"), "the TPOT line is labelled");
    assert!(!svg.contains("Step time (total)"));
    for chart in BatchChart::ALL {
        assert!(!svg_of(&s, chart).contains("NaN"));
    }
}

/// The `<polygon` elements filled with `c` at the band's opacity, each as its vertex count.
fn band_polygons(svg: &str, c: RGBColor) -> Vec<usize> {
    let fill = format!("fill=\"{}\"", svg_color(c));
    svg.split("<polygon")
        .skip(1)
        .filter_map(|el| el.split('>').next())
        .filter(|attrs| attrs.contains(&fill) && attrs.contains("opacity=\"0.16\""))
        .map(|attrs| {
            attrs
                .split("points=\"")
                .nth(1)
                .map_or(0, |p| p.split('"').next().unwrap_or("").split_whitespace().count())
        })
        .collect()
}

#[test]
fn under_measured_engines_the_step_and_rate_charts_shade_the_likely_range_around_their_curves() {
    use goodput_lab::core::calibration::{CostModel, Engine};
    let measured = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..worked_example() };
    let n = curves(&measured, &analyze(&measured)).points.len();
    let p = Palette::LIGHT;
    assert_eq!(
        band_polygons(&svg_of(&measured, BatchChart::Step), p.step_total),
        vec![2 * n],
        "one band, lows then highs"
    );
    assert_eq!(band_polygons(&svg_of(&measured, BatchChart::Rate), p.throughput), vec![2 * n]);
    for s in [worked_example(), realistic()] {
        assert!(
            band_polygons(&svg_of(&s, BatchChart::Step), p.step_total).is_empty(),
            "no range off the measured engines"
        );
        assert!(band_polygons(&svg_of(&s, BatchChart::Rate), p.throughput).is_empty());
    }
}
