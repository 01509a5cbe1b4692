//! Measured files as a user brings them: several at once (each adds its points in order, a bad one
//! keeps the others', the cap is kept with a message), GuideLLM's CSV exports read, AIPerf's CSV
//! pointed to its JSON, a vLLM run whose requests all failed, counts in the singular and the plural,
//! and each run's mean lengths read and carried through the URL (old links still read). Expected
//! numbers restate the fixture generator's (make_fixtures.py).

use std::fs;

use crate::common::llama_8b::{BANDWIDTH, KV_BYTES_PER_TOKEN, PARAMS};
use goodput_lab::core::fit::{RunLengths, YourPoint};
use goodput_lab::core::units::ms_to_s;
use goodput_lab::state::measured::{
    add_files, encode, parse_upload, read, FileOutcome, MAX_POINTS, PROFILE_CSV_MESSAGE,
};
use goodput_lab::state::parse_raw;
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    fs::read_to_string(format!("{}/tests/e2e/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).expect("fixture")
}

fn fixture_json(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).expect("fixture JSON")
}

fn remarks_of(value: &Value) -> Vec<String> {
    parse_upload(&value.to_string()).expect("reads").remarks
}

/// The generator's TPOT: 1.8 ms plus the BF16 weights and `batch` sequences of `context` tokens of
/// BF16 KV at 72% of 3.35 TB/s, times 1 + noise; in ms.
fn generated_tpot_ms(batch: u32, context: f64, noise: f64) -> f64 {
    let bytes = PARAMS * 2.0 + f64::from(batch) * context * KV_BYTES_PER_TOKEN;
    (1.8 + bytes / (0.72 * BANDWIDTH) * 1e3) * (1.0 + noise)
}

/// The sweep's concurrencies and fixed noise (make_fixtures.py), at 1,792 in and 512 out.
const SWEEP: [(u32, f64); 6] =
    [(1, 0.008), (4, -0.006), (16, 0.004), (32, -0.009), (64, 0.005), (128, -0.003)];
const SWEEP_LENGTHS: RunLengths = RunLengths { isl_tokens_mean: 1792.0, osl_tokens_mean: 512.0 };

fn assert_tpot_ms(point: &YourPoint, want_ms: f64) {
    let got_ms = point.tpot_s * 1e3;
    assert!(
        (got_ms - want_ms).abs() <= 0.0005 + 1e-9,
        "batch {}: {got_ms} ms, {want_ms} ms generated",
        point.batch
    );
}

#[test]
fn guidellm_csv_export_reads_the_streams_step_time_and_lengths_of_each_benchmark() {
    let upload = parse_upload(&fixture("guidellm-benchmarks.csv")).unwrap();
    assert_eq!(upload.format, "GuideLLM CSV export");
    assert_eq!(upload.points.iter().map(|p| p.batch).collect::<Vec<_>>(), SWEEP.map(|(b, _)| b));
    for (point, (batch, noise)) in upload.points.iter().zip(SWEEP) {
        assert_tpot_ms(point, generated_tpot_ms(batch, 2048.0, noise));
        assert_eq!(point.lengths, Some(SWEEP_LENGTHS));
    }
    assert_eq!(
        upload.remarks,
        ["Benchmark 5 had 1 errored request.", "Benchmark 6 had 3 incomplete requests."]
    );
}

#[test]
fn guidellm_0_3_csv_reads_the_streams_from_the_strategys_name() {
    let upload = parse_upload(&fixture("guidellm-benchmarks-0.3.csv")).unwrap();
    assert_eq!(upload.format, "GuideLLM CSV export");
    assert_eq!(upload.points.iter().map(|p| p.batch).collect::<Vec<_>>(), [1, 16]);
    assert_tpot_ms(&upload.points[1], generated_tpot_ms(16, 2048.0, 0.004));
    assert_eq!(upload.points[0].lengths, Some(SWEEP_LENGTHS));
    assert!(upload.remarks.is_empty(), "{:?}", upload.remarks);
}

#[test]
fn a_guidellm_csv_without_the_streams_reads_the_mean_in_flight_and_says_so() {
    let text = fixture("guidellm-benchmarks.csv").replace("streams", "strands");
    let upload = parse_upload(&text).unwrap();
    // The generator's mean in flight is 0.98 x streams: 125.44 rounds to 125 for 128.
    assert_eq!(upload.points[5].batch, 125);
    assert!(
        upload.remarks.contains(
            &"Benchmark 6 is concurrent, but the CSV states no streams for it: its mean of 125.44 requests in \
              flight is read as batch 125."
                .to_string()
        ),
        "{:?}",
        upload.remarks
    );
}

#[test]
fn a_guidellm_csv_without_inter_token_latency_names_the_benchmark_and_the_column() {
    let text = fixture("guidellm-benchmarks-0.3.csv").replace("Successful Inter token latency ms mean", "x");
    let e = parse_upload(&text).unwrap_err();
    assert!(e.starts_with("benchmark 1: column “Successful Inter token latency ms mean” is empty"), "{e}");
}

#[test]
fn aiperf_csv_export_is_recognised_and_pointed_to_its_json() {
    let e = parse_upload(&fixture("aiperf-profile.csv")).unwrap_err();
    assert_eq!(e, PROFILE_CSV_MESSAGE);
    assert!(
        e.starts_with("This is an AIPerf or GenAI-Perf CSV export")
            && e.contains("profile_export_aiperf.json")
    );
}

#[test]
fn all_failed_vllm_run_says_all_requests_failed() {
    let e = parse_upload(&fixture("vllm-bench-all-failed.json")).unwrap_err();
    assert!(e.starts_with("JSON result 1: all 320 requests failed (completed 0)"), "{e}");
    let one = json!({"max_concurrency": 1, "mean_tpot_ms": 0.0, "completed": 0, "failed": 1});
    let e = parse_upload(&one.to_string()).unwrap_err();
    assert!(e.starts_with("JSON result 1: its only request failed (completed 0)"), "{e}");
}

#[test]
fn counts_in_remarks_are_singular_for_one_and_plural_otherwise() {
    let vllm =
        |failed: u32| json!({"max_concurrency": 8, "mean_tpot_ms": 8.4, "completed": 9, "failed": failed});
    assert_eq!(remarks_of(&vllm(1)), ["Result 1 had 1 failed request."]);
    assert_eq!(remarks_of(&vllm(2)), ["Result 1 had 2 failed requests."]);
    let mut aiperf = fixture_json("aiperf-profile.json");
    aiperf["error_request_count"] = json!({"unit": "requests", "avg": 1.0});
    assert_eq!(remarks_of(&aiperf), ["AIPerf export 1 had 1 failed request."]);
    let mut guidellm = fixture_json("guidellm-report.json");
    guidellm["benchmarks"][1]["metrics"]["request_totals"]["errored"] = json!(1);
    guidellm["benchmarks"][2]["metrics"]["request_totals"]["incomplete"] = json!(3);
    assert_eq!(
        remarks_of(&guidellm),
        [
            "Benchmark 2 had 1 errored request.",
            "Benchmark 3 had 3 incomplete requests (cut off when it ended; not in its step time)."
        ]
    );
}

#[test]
fn each_format_carries_its_runs_mean_lengths() {
    let lengths = |name: &str| -> Vec<Option<RunLengths>> {
        parse_upload(&fixture(name)).unwrap().points.iter().map(|p| p.lengths).collect()
    };
    assert_eq!(lengths("vllm-bench-llama-3.1-8b-h100.jsonl"), [Some(SWEEP_LENGTHS); 6]);
    assert_eq!(lengths("guidellm-report.json"), [Some(SWEEP_LENGTHS); 6]);
    assert_eq!(lengths("aiperf-profile.json"), [Some(SWEEP_LENGTHS)]);
    let runs = [(1792.0, 512.0), (1024.0, 256.0), (3072.0, 1024.0)];
    let want: Vec<_> =
        runs.iter().map(|&(i, o)| Some(RunLengths { isl_tokens_mean: i, osl_tokens_mean: o })).collect();
    assert_eq!(lengths("vllm-bench-lengths.jsonl"), want);
    assert_eq!(lengths("measured.csv"), [None; 6], "a CSV of batch, TPOT states no lengths");
}

#[test]
fn several_files_add_their_points_in_order_and_a_bad_one_keeps_the_others() {
    let existing = [YourPoint::new(2, 0.009)];
    let files = vec![
        ("vllm-bench-c64.json".to_string(), Ok(fixture("vllm-bench-c64.json"))),
        ("bad-tpot.csv".to_string(), Ok(fixture("bad-tpot.csv"))),
        ("gone.json".to_string(), Err("the file could not be read.".to_string())),
        ("measured.csv".to_string(), Ok(fixture("measured.csv"))),
    ];
    let loaded = add_files(&existing, files);
    let batches: Vec<u32> = loaded.points.iter().map(|p| p.batch).collect();
    assert_eq!(batches, [2, 64, 1, 4, 16, 32, 64, 128]);
    assert_eq!(loaded.points[0], existing[0]);
    let read = |summary: &str| FileOutcome::Read { summary: summary.to_string(), remarks: Vec::new() };
    assert_eq!(
        loaded.files,
        [
            read("vllm-bench-c64.json: 1 point from a vLLM benchmark result."),
            FileOutcome::Failed("bad-tpot.csv: line 3: TPOT “abc” is not a number.".to_string()),
            FileOutcome::Failed("gone.json: the file could not be read.".to_string()),
            read("measured.csv: 6 points from a CSV."),
        ]
    );
    assert_eq!(loaded.note, None);
}

#[test]
fn an_aiperf_export_is_summarised_with_an() {
    let loaded = add_files(&[], vec![("p.json".to_string(), Ok(fixture("aiperf-profile.json")))]);
    let FileOutcome::Read { summary, .. } = &loaded.files[0] else { panic!("{:?}", loaded.files) };
    assert_eq!(summary, "p.json: 1 point from an AIPerf profile export.");
}

#[test]
fn the_cap_keeps_the_first_points_and_says_how_many_were_left_out() {
    let existing: Vec<YourPoint> = (1..=MAX_POINTS as u32 - 2).map(|b| YourPoint::new(b, 0.01)).collect();
    let loaded = add_files(&existing, vec![("measured.csv".to_string(), Ok(fixture("measured.csv")))]);
    assert_eq!(loaded.points.len(), MAX_POINTS);
    assert_eq!(loaded.points[MAX_POINTS - 2..].iter().map(|p| p.batch).collect::<Vec<_>>(), [1, 4]);
    assert_eq!(
        loaded.note.as_deref(),
        Some("4 points left out: the page plots at most 200. Clear, then load fewer runs.")
    );
}

#[test]
fn run_lengths_round_trip_through_the_url_and_old_links_still_read() {
    let points = parse_upload(&fixture("vllm-bench-lengths.jsonl")).unwrap().points;
    let text = encode(&points);
    assert!(
        text.starts_with("1:") && text.contains("@1792/512,16:") && text.ends_with("@3072/1024"),
        "{text}"
    );
    let mut notices = Vec::new();
    assert_eq!(read(&parse_raw(&format!("measured={text}")), &mut notices), points);
    assert!(notices.is_empty(), "{notices:?}");
    let old = read(&parse_raw("measured=1:7.9,16:8.2"), &mut notices);
    assert_eq!(old, [YourPoint::new(1, ms_to_s(7.9)), YourPoint::new(16, ms_to_s(8.2))]);
    assert!(notices.is_empty());
    let bad = read(&parse_raw("measured=16:8.2@x/5,4:8@0/5"), &mut notices);
    assert_eq!(
        bad,
        [YourPoint::new(16, ms_to_s(8.2)), YourPoint::new(4, ms_to_s(8.0))],
        "the points stay, without lengths"
    );
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(
        notices[0].message.contains("point 1 “16:8.2@x/5”: the lengths after @"),
        "{}",
        notices[0].message
    );
}
