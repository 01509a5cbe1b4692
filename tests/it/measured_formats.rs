//! Measured data from other benchmark tools: GuideLLM reports (0.4+ and 0.2–0.3 layouts) and AIPerf /
//! GenAI-Perf profile exports become points whose batch and step time match what the synthetic
//! fixtures were generated from (restated here, not read from the generator), and bad files get a
//! message naming the benchmark or export and the field.

use std::fs;

use crate::common::llama_8b::{BANDWIDTH, KV_BYTES_PER_TOKEN, PARAMS};
use crate::common::worked_example;
use goodput_lab::core::fit::{fit, YourPoint};
use goodput_lab::state::measured::{parse_upload, Upload};
use serde_json::{json, Value};

/// The fixture file's text.
fn fixture(name: &str) -> String {
    fs::read_to_string(format!("{}/tests/e2e/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

/// The fixture as JSON, to read its values or change one.
fn fixture_json(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).expect("fixture JSON")
}

fn parse_json(value: &Value) -> Result<Upload, String> {
    parse_upload(&value.to_string())
}

fn error_of(value: &Value) -> String {
    parse_json(value).expect_err("should be refused")
}

fn batches(upload: &Upload) -> Vec<u32> {
    upload.points.iter().map(|p| p.batch).collect()
}

/// The concurrencies the fixtures were generated at, each with its fixed noise (make_fixtures.py).
const NOISE_AT: [(u32, f64); 6] =
    [(1, 0.008), (4, -0.006), (16, 0.004), (32, -0.009), (64, 0.005), (128, -0.003)];

/// The generating model restated: 1.8 ms per step plus the weights (BF16) and `batch` sequences of
/// 2,048 tokens of BF16 KV read at 72% of 3.35 TB/s, times `1 + noise`; in ms.
fn generated_tpot_ms(batch: u32, noise: f64) -> f64 {
    let bytes = PARAMS * 2.0 + f64::from(batch) * 2048.0 * KV_BYTES_PER_TOKEN;
    (1.8 + bytes / (0.72 * BANDWIDTH) * 1e3) * (1.0 + noise)
}

/// The generated TPOT at one of the swept concurrencies.
fn swept_tpot_ms(batch: u32) -> f64 {
    let (_, noise) = NOISE_AT.iter().find(|(b, _)| *b == batch).expect("a swept concurrency");
    generated_tpot_ms(batch, *noise)
}

/// `point` is `batch` at `tpot_ms`, to the 1 µs the URL keeps (uploads are rounded to it).
fn assert_point(point: &YourPoint, batch: u32, tpot_ms: f64) {
    assert_eq!(point.batch, batch, "{point:?}");
    let got_ms = point.tpot_s * 1e3;
    assert!(
        (got_ms - tpot_ms).abs() <= 0.0005 + 1e-9,
        "batch {batch}: {got_ms} ms read, {tpot_ms} ms expected"
    );
}

#[test]
fn guidellm_report_gives_one_point_per_concurrency() {
    let upload = parse_upload(&fixture("guidellm-report.json")).unwrap();
    assert_eq!(upload.format, "GuideLLM report");
    assert_eq!(batches(&upload), [1, 4, 16, 32, 64, 128], "streams, not the mean in flight (0.98 x streams)");
    for (point, (batch, _)) in upload.points.iter().zip(NOISE_AT) {
        assert_point(point, batch, swept_tpot_ms(batch));
    }
    assert!(upload.remarks.is_empty(), "{:?}", upload.remarks);
}

#[test]
fn guidellm_step_time_is_the_inter_token_latency_not_the_tpot_that_counts_the_first_token() {
    let report = fixture_json("guidellm-report.json");
    let upload = parse_json(&report).unwrap();
    let benchmarks = report["benchmarks"].as_array().unwrap();
    for (point, b) in upload.points.iter().zip(benchmarks) {
        let itl = b["metrics"]["inter_token_latency_ms"]["successful"]["mean"].as_f64().unwrap();
        let tpot = b["metrics"]["time_per_output_token_ms"]["successful"]["mean"].as_f64().unwrap();
        assert!(tpot - itl > 0.05, "the fixture's TPOT ({tpot}) carries the first token over ITL ({itl})");
        assert_point(point, point.batch, itl);
    }
}

#[test]
fn the_guidellm_sweep_fits_back_to_the_mbu_and_overhead_that_generated_it() {
    let points = parse_upload(&fixture("guidellm-report.json")).unwrap().points;
    let f = fit(&worked_example(), &points).unwrap();
    assert!((f.mbu - 0.72).abs() < 0.01 * 0.72, "MBU {}", f.mbu);
    assert!((f.step_overhead_s - 1.8e-3).abs() < 0.1e-3, "overhead {}", f.step_overhead_s);
}

#[test]
fn guidellm_0_3_reads_args_strategy_synchronous_as_one_and_rounds_a_throughput_runs_mean_in_flight() {
    let upload = parse_upload(&fixture("guidellm-report-0.3.json")).unwrap();
    assert_eq!(upload.format, "GuideLLM report");
    // Benchmark i was generated at TPOT(batch) x (1 + NOISE[i]).
    let expected = [(1, 0.008), (118, -0.006), (16, 0.004), (64, -0.009)];
    assert_eq!(upload.points.len(), expected.len());
    for (point, (batch, noise)) in upload.points.iter().zip(expected) {
        assert_point(point, batch, generated_tpot_ms(batch, noise));
    }
    assert_eq!(
        upload.remarks,
        [
            "Benchmark 2 ran a throughput strategy, not a concurrent one: its mean of 117.6 requests in flight \
             is read as batch 118.",
            "Benchmark 4 had 2 errored requests.",
        ]
    );
}

#[test]
fn a_guidellm_benchmark_without_inter_token_latency_names_the_benchmark_and_the_field() {
    assert_eq!(
        parse_upload(&fixture("bad-guidellm-no-itl.json")).unwrap_err(),
        "benchmark 2: `metrics.inter_token_latency_ms` is missing (the page reads \
         `metrics.inter_token_latency_ms.successful.mean` as the step time)."
    );
}

#[test]
fn guidellm_errors_name_the_benchmark_and_the_field() {
    let report = fixture_json("guidellm-report.json");
    let with = |change: &dyn Fn(&mut Value)| {
        let mut r = report.clone();
        change(&mut r);
        error_of(&r)
    };
    let e = with(&|r| r["benchmarks"][2]["config"]["strategy"]["streams"] = json!(2.5));
    assert_eq!(e, "benchmark 3: `config.strategy.streams` “2.5” is not a whole number from 1 to 1000000.");
    let e =
        with(&|r| r["benchmarks"][0]["metrics"]["inter_token_latency_ms"]["successful"]["mean"] = json!(0.0));
    assert!(
        e.starts_with(
            "benchmark 1: `metrics.inter_token_latency_ms.successful.mean` “0.0” is not a time above 0 ms"
        ),
        "{e}"
    );
    let e = with(&|r| r["benchmarks"][5]["metrics"]["inter_token_latency_ms"]["successful"] = Value::Null);
    assert!(e.starts_with("benchmark 6: `metrics.inter_token_latency_ms.successful` is null"), "{e}");
    let e = with(&|r| {
        r["benchmarks"][1]["config"] = json!({});
        r["benchmarks"][1]["metrics"].as_object_mut().unwrap().remove("request_concurrency");
    });
    assert!(e.starts_with("benchmark 2 names no strategy, which fixes no concurrency, and `metrics.request_concurrency` is missing"), "{e}");
    assert_eq!(with(&|r| r["benchmarks"] = json!([])), "The GuideLLM report holds no benchmarks.");
    assert_eq!(
        with(&|r| r["benchmarks"] = json!("all of them")),
        "JSON result 1: `benchmarks` is a string, not a list of GuideLLM benchmarks."
    );
    assert_eq!(with(&|r| r["benchmarks"][3] = json!(7)), "benchmark 4 is a number, not a benchmark object.");
}

#[test]
fn aiperf_profile_export_gives_one_point_at_the_profiling_phases_concurrency() {
    let upload = parse_upload(&fixture("aiperf-profile.json")).unwrap();
    assert_eq!(upload.format, "AIPerf profile export");
    assert_eq!(upload.points.len(), 1);
    assert_point(&upload.points[0], 32, swept_tpot_ms(32));
    assert!(upload.remarks.is_empty(), "{:?}", upload.remarks);
}

#[test]
fn aiperf_0_1_and_genai_perf_exports_read_their_own_concurrency_fields() {
    let aiperf = parse_upload(&fixture("aiperf-profile-0.1.json")).unwrap();
    assert_eq!(aiperf.format, "AIPerf profile export");
    assert_point(&aiperf.points[0], 64, swept_tpot_ms(64));
    let genai = parse_upload(&fixture("genai-perf-profile.json")).unwrap();
    assert_eq!(genai.format, "GenAI-Perf profile export");
    assert_point(&genai.points[0], 16, swept_tpot_ms(16));
    // GenAI-Perf's command-line arguments, flat under input_config (earlier releases).
    let mut flat = fixture_json("genai-perf-profile.json");
    flat["input_config"] =
        json!({"model": ["m"], "concurrency": 4, "request_rate": null, "service_kind": "openai"});
    let flat = parse_json(&flat).unwrap();
    assert_eq!((flat.format, flat.points[0].batch), ("GenAI-Perf profile export", 4));
}

#[test]
fn several_exports_pasted_one_after_another_give_a_point_each() {
    let text =
        ["aiperf-profile.json", "aiperf-profile-0.1.json", "genai-perf-profile.json"].map(fixture).join("\n");
    let upload = parse_upload(&text).unwrap();
    assert_eq!(batches(&upload), [32, 64, 16]);
    assert_point(&upload.points[2], 16, swept_tpot_ms(16));
}

#[test]
fn aiperf_units_other_than_ms_are_converted_and_unknown_ones_named() {
    let export = fixture_json("aiperf-profile.json");
    let ms = export["inter_token_latency"]["avg"].as_f64().unwrap();
    for (unit, scale) in [("sec", 1e-3), ("us", 1e3), ("ns", 1e6)] {
        let mut e = export.clone();
        e["inter_token_latency"] = json!({"unit": unit, "avg": ms * scale});
        assert_point(&parse_json(&e).unwrap().points[0], 32, ms);
    }
    let mut e = export.clone();
    e["inter_token_latency"]["unit"] = json!("tokens");
    assert_eq!(
        error_of(&e),
        "AIPerf export 1: `inter_token_latency.unit` “tokens” is not a time unit (ms, sec, us or ns)."
    );
    e["inter_token_latency"] = json!({"unit": "ms"});
    assert_eq!(error_of(&e), "AIPerf export 1: `inter_token_latency.avg` is missing.");
}

#[test]
fn an_unstreamed_aiperf_run_names_inter_token_latency_and_streaming() {
    assert_eq!(
        parse_upload(&fixture("bad-aiperf-not-streamed.json")).unwrap_err(),
        "AIPerf export 1: `inter_token_latency` is missing: it is written only for streamed runs (profile \
         with --streaming); the page reads `inter_token_latency.avg` as the step time."
    );
}

#[test]
fn aiperf_runs_without_a_concurrency_name_the_field_and_what_paced_them() {
    let export = fixture_json("aiperf-profile.json");
    let mut rate = export.clone();
    rate["input_config"]["phases"][1] =
        json!({"name": "profiling", "type": "poisson", "rate": 4.0, "requests": 320});
    assert!(
        error_of(&rate).starts_with(
            "AIPerf export 1: `input_config.phases[1].concurrency` is missing (the run was paced at 4 req/s instead)"
        ),
        "{}",
        error_of(&rate)
    );
    let mut old = fixture_json("aiperf-profile-0.1.json");
    old["input_config"]["loadgen"] = json!({"request_rate": 2.5});
    assert!(error_of(&old)
        .contains("`input_config.loadgen.concurrency` is missing (the run was paced at 2.5 req/s"));
    let mut genai = fixture_json("genai-perf-profile.json");
    genai["input_config"] = json!({"concurrency": null, "request_rate": 8.0});
    assert!(
        error_of(&genai).starts_with("GenAI-Perf export 1: `input_config.concurrency` is null"),
        "{}",
        error_of(&genai)
    );
    let mut none = export.clone();
    none.as_object_mut().unwrap().remove("input_config");
    assert!(error_of(&none).starts_with("AIPerf export 1: `input_config` is missing"), "{}", error_of(&none));
    let mut bad = export;
    bad["input_config"]["phases"][1]["concurrency"] = json!(0);
    assert_eq!(
        error_of(&bad),
        "AIPerf export 1: `input_config.phases[1].concurrency` “0” is not a whole number from 1 to 1000000."
    );
}

#[test]
fn aiperf_phases_without_a_kind_skip_warmup_default_to_one_and_must_agree() {
    let mut export = fixture_json("aiperf-profile.json");
    export["input_config"]["phases"] = json!([
        {"name": "warmup", "type": "concurrency", "concurrency": 8},
        {"name": "profiling", "type": "concurrency", "requests": 320},
    ]);
    assert_eq!(parse_json(&export).unwrap().points[0].batch, 1, "a concurrency phase's default");
    export["input_config"]["phases"] = json!([
        {"name": "steady", "kind": "profiling", "type": "concurrency", "concurrency": 16},
        {"name": "burst", "kind": "profiling", "type": "concurrency", "concurrency": 64},
    ]);
    assert!(error_of(&export)
        .starts_with("AIPerf export 1: profiling phases 0 and 1 ran at concurrency 16 and 64"));
    export["input_config"]["phases"] = json!([{"name": "warmup", "type": "concurrency", "concurrency": 8}]);
    assert_eq!(error_of(&export), "AIPerf export 1: `input_config.phases` has no profiling phase.");
}

#[test]
fn rate_paced_cancelled_and_failed_aiperf_runs_are_remarked_on() {
    let mut export = fixture_json("aiperf-profile-0.1.json");
    export["input_config"]["loadgen"] = json!({"concurrency": 8, "request_rate": 4.0});
    export["was_cancelled"] = json!(true);
    export["error_request_count"] = json!({"unit": "requests", "avg": 3.0});
    let upload = parse_json(&export).unwrap();
    assert_eq!(upload.points[0].batch, 8);
    assert_eq!(
        upload.remarks,
        [
            "AIPerf export 1 was paced at 4 req/s: fewer than 8 requests may have been in flight.",
            "AIPerf export 1 was cancelled before it finished.",
            "AIPerf export 1 had 3 failed requests.",
        ]
    );
}

#[test]
fn vllm_results_are_still_read_as_vllm_beside_the_new_formats() {
    let upload = parse_upload(&fixture("vllm-bench-c64.json")).unwrap();
    assert_eq!(upload.format, "vLLM benchmark result");
    assert_point(&upload.points[0], 64, swept_tpot_ms(64));
    assert_eq!(parse_upload(&fixture("bad-no-tpot.json")).unwrap_err(), "JSON result 2 has no mean_tpot_ms.");
}
