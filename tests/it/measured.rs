//! Measured data at the edge: `vllm bench serve` results (object, array, JSON lines) and CSVs become
//! validated points or a message naming the problem and where; the `measured=` URL key round-trips;
//! the step chart draws the points and the fitted line.

use std::fs;

use crate::common::{assert_close, worked_example};
use crate::common::{batch_chart_svg, light_style};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::Palette;
use goodput_lab::core::curves::{curves, curves_with_measured};
use goodput_lab::core::fit::{fit, YourPoint};
use goodput_lab::core::roofline::analyze;
use goodput_lab::state::measured::{encode, parse_upload, read, with_measured};
use goodput_lab::state::parse_raw;
use goodput_lab::view::batch_chart::BatchChart;
use plotters::prelude::*;

/// The fixture file's text.
fn fixture(name: &str) -> String {
    fs::read_to_string(format!("{}/tests/e2e/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

fn batches(points: &[YourPoint]) -> Vec<u32> {
    points.iter().map(|p| p.batch).collect()
}

/// The error message for `text`, which must not parse.
fn error_of(text: &str) -> String {
    parse_upload(text).expect_err("should be refused")
}

const SWEEP: [u32; 6] = [1, 4, 16, 32, 64, 128];

#[test]
fn json_lines_an_array_and_one_object_all_read_as_vllm_results() {
    let lines = parse_upload(&fixture("vllm-bench-llama-3.1-8b-h100.jsonl")).unwrap();
    assert_eq!(batches(&lines.points), SWEEP);
    assert_eq!(lines.format, "vLLM benchmark result");
    assert!(lines.remarks.is_empty(), "{:?}", lines.remarks);
    let array = parse_upload(&fixture("vllm-bench-array.json")).unwrap();
    assert_eq!(array.points, lines.points);
    let one = parse_upload(&fixture("vllm-bench-c64.json")).unwrap();
    assert_eq!(one.points, vec![lines.points[4]]);
    assert_close(one.points[0].tpot_s, 15.581e-3 * 1.005, 1e-4, "batch 64's mean_tpot_ms, read in s");
}

/// The fixture was generated at 72% MBU and 1.8 ms per step with up to 0.9% noise.
#[test]
fn the_sample_benchmark_fits_back_to_the_mbu_and_overhead_that_generated_it() {
    let points = parse_upload(&fixture("vllm-bench-llama-3.1-8b-h100.jsonl")).unwrap().points;
    let f = fit(&worked_example(), &points).unwrap();
    assert_close(f.mbu, 0.72, 0.01, "MBU");
    assert!((f.step_overhead_s - 1.8e-3).abs() < 0.1e-3, "overhead {}", f.step_overhead_s);
    let csv = parse_upload(&fixture("measured.csv")).unwrap();
    assert_eq!((csv.format, batches(&csv.points)), ("CSV", SWEEP.to_vec()));
    let exact = fit(&worked_example(), &csv.points).unwrap();
    assert_close(exact.mbu, 0.72, 1e-4, "MBU from the noiseless CSV (4 decimals of ms)");
    assert!((exact.step_overhead_s - 1.8e-3).abs() < 2e-6, "overhead {}", exact.step_overhead_s);
}

#[test]
fn a_run_without_max_concurrency_names_the_flag() {
    let e = error_of(&fixture("bad-null-concurrency.json"));
    assert!(e.contains("JSON result 1 has max_concurrency null"), "{e}");
    assert!(e.contains("--max-concurrency"), "{e}");
}

#[test]
fn a_missing_field_names_the_result_and_the_field() {
    assert_eq!(error_of(&fixture("bad-no-tpot.json")), "JSON result 2 has no mean_tpot_ms.");
    let e = error_of(r#"{"mean_tpot_ms": 8.1}"#);
    assert!(e.starts_with("JSON result 1 has no max_concurrency"), "{e}");
    let e = error_of(r#"{"max_concurrency": 2.5, "mean_tpot_ms": 8.1}"#);
    assert!(e.contains("max_concurrency “2.5” is not a whole number"), "{e}");
    let e = error_of(r#"{"max_concurrency": 8, "mean_tpot_ms": "fast"}"#);
    assert!(e.contains("mean_tpot_ms “fast” is not a time above 0 ms"), "{e}");
    assert_eq!(error_of("[1, 2]"), "JSON result 1 is a number, not a result object.");
}

#[test]
fn broken_json_names_its_line() {
    let e = error_of(&fixture("bad-syntax.json"));
    assert_eq!(e, "line 1, column 200: not valid JSON (EOF while parsing an object).");
    let e = error_of("{\"max_concurrency\": 1, \"mean_tpot_ms\": 8}\n{\"max_concurrency\": 2,,}\n");
    assert_eq!(e, "line 2, column 23: not valid JSON (key must be a string).");
}

#[test]
fn csv_errors_name_the_line_and_the_value() {
    assert_eq!(error_of(&fixture("bad-tpot.csv")), "line 3: TPOT “abc” is not a number.");
    assert_eq!(
        error_of(&fixture("bad-one-column.csv")),
        "line 1 has 1 column: a CSV needs two columns: batch, TPOT in ms."
    );
    assert_eq!(error_of("1,8,9"), "line 1 has 3 columns: a CSV needs two columns: batch, TPOT in ms.");
    assert_eq!(error_of("1,8\n1.5,9"), "line 2: batch “1.5” is not a whole number from 1 to 1000000.");
    assert_eq!(error_of("0,8"), "line 1: batch “0” is not a whole number from 1 to 1000000.");
    assert_eq!(error_of("4,-2"), "line 1: TPOT -2 ms is not above 0.");
    assert!(error_of("x,8").starts_with("The CSV has no data rows"), "a lone header row is not data");
}

#[test]
fn headers_comments_tabs_and_swapped_columns_are_understood() {
    let with_header = parse_upload("# from my sweep\nbatch,tpot_ms\n1,8.5\n\n16, 10.25\n").unwrap();
    assert_eq!(with_header.points, [YourPoint::new(1, 8.5e-3), YourPoint::new(16, 10.25e-3)]);
    assert_eq!(parse_upload("1\t8.5\n16\t10.25").unwrap().points, with_header.points);
    assert_eq!(parse_upload("1;8.5\n16;10.25").unwrap().points, with_header.points);
    assert_eq!(parse_upload("TPOT (ms),Batch\n8.5,1\n10.25,16").unwrap().points, with_header.points);
}

#[test]
fn empty_input_and_rate_limited_runs_are_explained() {
    assert!(error_of("  \n").starts_with("Nothing to read"));
    assert!(error_of("batch,tpot_ms\n").starts_with("The CSV has no data rows"));
    let limited =
        parse_upload(r#"{"max_concurrency": 8, "mean_tpot_ms": 8.4, "request_rate": 4.0, "failed": 3}"#)
            .unwrap();
    assert_eq!(limited.remarks.len(), 2, "{:?}", limited.remarks);
    assert!(limited.remarks[0].contains("4 req/s"), "{:?}", limited.remarks);
    assert!(limited.remarks[1].contains("3 failed"), "{:?}", limited.remarks);
}

#[test]
fn the_url_key_round_trips_the_points_compactly() {
    let points = parse_upload("1,7.9\n16,8.2\n64,11.5").unwrap().points;
    assert_eq!(encode(&points), "1:7.9,16:8.2,64:11.5");
    let query = with_measured("model=llama-3.1-8b".to_string(), &points);
    assert_eq!(query, "model=llama-3.1-8b&measured=1:7.9,16:8.2,64:11.5");
    let mut notices = Vec::new();
    assert_eq!(read(&parse_raw(&query), &mut notices), points);
    assert!(notices.is_empty());
    // The percent-encoded form a browser may write reads the same.
    assert_eq!(read(&parse_raw("measured=1%3A7.9%2C16%3A8.2%2C64%3A11.5"), &mut notices), points);
    assert_eq!(with_measured(String::new(), &[]), "");
}

#[test]
fn bad_url_points_are_dropped_with_a_notice_each_and_the_rest_kept() {
    let mut notices = Vec::new();
    let points = read(&parse_raw("measured=1:7.9,abc,16:-2,0:5,64:11.5"), &mut notices);
    assert_eq!(batches(&points), [1, 64]);
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert!(notices.iter().all(|n| n.key == "measured"));
    assert!(notices[0].message.contains("point 2 “abc”"), "{}", notices[0].message);
    let many: Vec<String> = (1..=250).map(|b| format!("{b}:9")).collect();
    let mut notices = Vec::new();
    assert_eq!(read(&parse_raw(&format!("measured={}", many.join(","))), &mut notices).len(), 200);
    assert_eq!(notices.len(), 1);
}

#[test]
fn uploads_keep_the_urls_precision_so_a_link_gives_the_same_fit() {
    let points = parse_upload(&fixture("vllm-bench-llama-3.1-8b-h100.jsonl")).unwrap().points;
    let reopened = read(&parse_raw(&with_measured(String::new(), &points)), &mut Vec::new());
    assert_eq!(reopened, points);
}

/// SVG's spelling of a colour, as plotters writes it.
fn svg_color(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn step_svg(c: &goodput_lab::core::curves::Curves) -> String {
    let style = light_style();
    let (svg, drawn) = batch_chart_svg(&BatchDraw::new(BatchChart::Step, c, &style), (800, 450));
    drawn.expect("the step chart draws");
    svg
}

#[test]
fn the_step_chart_draws_each_measured_point_and_the_fitted_line() {
    let s = worked_example();
    let a = analyze(&s);
    let points = parse_upload(&fixture("vllm-bench-llama-3.1-8b-h100.jsonl")).unwrap().points;
    let f = fit(&s, &points).unwrap();
    let plain = step_svg(&curves(&s, &a));
    let with = step_svg(&curves_with_measured(&s, &a, &points, Some(&f)));
    let ring = "<circle";
    let text = svg_color(Palette::LIGHT.text);
    let rings = with.split(ring).skip(1).filter(|el| el.split('>').next().unwrap().contains(&text)).count();
    assert_eq!(rings, points.len() + 1, "one ring per point plus the legend's");
    assert!(
        !plain.contains("Your TPOT") && with.contains("Your TPOT") && with.contains("Fit to your points")
    );
    let dashed = |svg: &str| svg.matches(&format!("opacity=\"0.7\" stroke=\"{text}\"")).count();
    assert!(dashed(&with) > dashed(&plain), "the fitted line is dashed in the text colour");
}

#[test]
fn the_batch_axis_widens_to_the_largest_measured_batch() {
    let s = worked_example();
    let a = analyze(&s);
    let usual = curves(&s, &a).axis_max_batch;
    let wide = [YourPoint::new(512, 0.05)];
    let c = curves_with_measured(&s, &a, &wide, None);
    assert!(usual < 512 && c.axis_max_batch >= 512, "{usual} -> {}", c.axis_max_batch);
    assert_eq!(c.your_points.as_ref().unwrap().fitted, vec![], "no fit, no line");
    assert_eq!(curves_with_measured(&s, &a, &[], None), curves(&s, &a), "no points, the usual curves");
}
