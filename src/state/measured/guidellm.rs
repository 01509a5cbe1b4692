//! GuideLLM's benchmark report (`guidellm benchmark --output-path report.json`) as points: one per
//! benchmark, its batch from the strategy's concurrency and its step time from the inter-token latency.
//!
//! The report is `{"benchmarks": [...]}`. GuideLLM 0.4 and later keep each benchmark's scheduling
//! strategy at `config.strategy` (`src/guidellm/benchmark/schemas/benchmark.py`); 0.2 and 0.3 kept
//! it at `args.strategy` (`src/guidellm/benchmark/benchmark.py`). A `concurrent` strategy holds
//! `streams` requests in flight, which is read as the decode batch; `synchronous` is batch 1. Other
//! strategies (throughput, constant, poisson) fix no concurrency, so the measured mean of requests in
//! flight, rounded, stands in, with a remark. Every metric is a breakdown by status (`successful`,
//! `errored`, `incomplete`, `total`) of a distribution (`mean`, `median`, `percentiles`, ...).
//!
//! The step time is `metrics.inter_token_latency_ms.successful.mean`, not the report's
//! `time_per_output_token_ms`: GuideLLM divides the whole request, first token included, by the
//! output tokens for the latter, so it carries prefill and queueing. Its inter-token latency leaves
//! the first token out, as vLLM's `mean_tpot_ms` does, and is the time of one decode step.

use super::json::{kind, lookup, show};
use super::{counted, run_lengths, tpot_in_range, tpot_range_text, whole_batch, Upload, MAX_BATCH};
use crate::core::fit::YourPoint;
use crate::core::units::ms_to_s;
use crate::state::fields::compact;
use serde_json::{Map, Value};

/// The upload's format, as the panel names it.
pub const FORMAT: &str = "GuideLLM report";
/// The field read as the step time, in ms.
const STEP_FIELD: [&str; 4] = ["metrics", "inter_token_latency_ms", "successful", "mean"];
/// The measured mean of requests in flight, for strategies without a fixed concurrency.
const CONCURRENCY_FIELD: [&str; 4] = ["metrics", "request_concurrency", "successful", "mean"];
/// Where the strategy sits: GuideLLM 0.4 and later, then 0.2–0.3.
const STRATEGY_FIELDS: [[&str; 2]; 2] = [["config", "strategy"], ["args", "strategy"]];
/// Where the request counts by status sit: GuideLLM 0.4 and later, then 0.2–0.3.
const TOTALS_FIELDS: [&[&str]; 2] = [&["metrics", "request_totals"], &["request_totals"]];
/// The successful requests' mean prompt and output lengths, in tokens.
const ISL_FIELD: [&str; 4] = ["metrics", "prompt_token_count", "successful", "mean"];
const OSL_FIELD: [&str; 4] = ["metrics", "output_token_count", "successful", "mean"];

/// A JSON object shaped like a GuideLLM report: it has `benchmarks`.
pub fn is_report(result: &Map<String, Value>) -> bool {
    result.contains_key("benchmarks")
}

/// Every benchmark of every report in the upload, numbered from 1 across them, as points.
pub fn parse(reports: &[Map<String, Value>]) -> Result<Upload, String> {
    let mut points = Vec::new();
    let mut remarks = Vec::new();
    for (r, report) in reports.iter().enumerate() {
        let benchmarks = match report.get("benchmarks") {
            Some(Value::Array(list)) => list,
            Some(other) => {
                return Err(format!(
                    "JSON result {}: `benchmarks` is {}, not a list of GuideLLM benchmarks.",
                    r + 1,
                    kind(other)
                ))
            }
            None => {
                return Err(format!("JSON result {} has no `benchmarks`: is it a GuideLLM report?", r + 1))
            }
        };
        for benchmark in benchmarks {
            let n = points.len() + 1;
            let Value::Object(benchmark) = benchmark else {
                return Err(format!("benchmark {n} is {}, not a benchmark object.", kind(benchmark)));
            };
            points.push(point(benchmark, n, &mut remarks)?);
        }
    }
    if points.is_empty() {
        return Err("The GuideLLM report holds no benchmarks.".to_string());
    }
    Ok(Upload { points, format: FORMAT, remarks })
}

/// One benchmark as a point, with its remarks, or what is wrong with it.
fn point(benchmark: &Map<String, Value>, n: usize, remarks: &mut Vec<String>) -> Result<YourPoint, String> {
    let batch = batch(benchmark, n, remarks)?;
    let tpot_ms = step_ms(benchmark, n)?;
    let totals = TOTALS_FIELDS.iter().find_map(|path| lookup(benchmark, path).ok());
    for (status, what) in [("errored", "errored request"), ("incomplete", "incomplete request")] {
        let count = totals.and_then(|t| t.get(status)).and_then(Value::as_f64).filter(|c| *c > 0.0);
        if let Some(count) = count {
            let why =
                if status == "incomplete" { " (cut off when it ended; not in its step time)" } else { "" };
            remarks.push(format!("Benchmark {n} had {}{why}.", counted(count, what)));
        }
    }
    let mean = |path: &[&str]| lookup(benchmark, path).ok().and_then(Value::as_f64);
    let lengths = mean(&ISL_FIELD).zip(mean(&OSL_FIELD)).and_then(|(i, o)| run_lengths(i, o));
    Ok(YourPoint { batch, tpot_s: ms_to_s(tpot_ms), lengths })
}

/// The batch: a `concurrent` strategy's `streams`, 1 for `synchronous`, else the measured mean of
/// requests in flight, rounded, with a remark.
fn batch(benchmark: &Map<String, Value>, n: usize, remarks: &mut Vec<String>) -> Result<u32, String> {
    let found =
        STRATEGY_FIELDS.iter().find_map(|path| lookup(benchmark, path).ok().map(|s| (path.join("."), s)));
    let strategy_type = found.as_ref().and_then(|(_, s)| s.get("type_")).and_then(Value::as_str);
    match (strategy_type, &found) {
        (Some("concurrent"), Some((path, strategy))) => {
            let streams = strategy.get("streams").unwrap_or(&Value::Null);
            streams.as_f64().and_then(whole_batch).ok_or_else(|| {
                format!(
                    "benchmark {n}: `{path}.streams` {} is not a whole number from 1 to {MAX_BATCH}.",
                    show(streams)
                )
            })
        }
        (Some("synchronous"), _) => Ok(1),
        _ => mean_concurrency(benchmark, n, strategy_type, remarks),
    }
}

/// A strategy without a fixed concurrency: the measured mean of requests in flight, rounded to a
/// batch, and a remark saying so.
fn mean_concurrency(
    benchmark: &Map<String, Value>,
    n: usize,
    strategy: Option<&str>,
    remarks: &mut Vec<String>,
) -> Result<u32, String> {
    let what = strategy.map_or("names no strategy".to_string(), |s| format!("ran a {s} strategy"));
    let value = lookup(benchmark, &CONCURRENCY_FIELD).map_err(|e| {
        format!(
            "benchmark {n} {what}, which fixes no concurrency, and {e}: the page reads a concurrent \
             strategy's `config.strategy.streams` as the batch."
        )
    })?;
    let mean = value.as_f64().filter(|m| m.is_finite()).unwrap_or(0.0);
    let batch = whole_batch(mean.round()).ok_or_else(|| {
        format!(
            "benchmark {n}: `{}` {} does not round to a batch from 1 to {MAX_BATCH}.",
            CONCURRENCY_FIELD.join("."),
            show(value)
        )
    })?;
    let ran = strategy
        .map_or("names no strategy".to_string(), |s| format!("ran a {s} strategy, not a concurrent one"));
    remarks.push(in_flight_remark(n, &ran, mean, batch));
    Ok(batch)
}

/// “Benchmark 2 ran a throughput strategy, not a concurrent one: its mean of 117.6 requests in
/// flight is read as batch 118.”
pub(super) fn in_flight_remark(n: usize, ran: &str, mean: f64, batch: u32) -> String {
    format!("Benchmark {n} {ran}: its mean of {} requests in flight is read as batch {batch}.", compact(mean))
}

/// The step time in ms: the successful requests' mean inter-token latency.
fn step_ms(benchmark: &Map<String, Value>, n: usize) -> Result<f64, String> {
    let field = STEP_FIELD.join(".");
    let value = lookup(benchmark, &STEP_FIELD)
        .map_err(|e| format!("benchmark {n}: {e} (the page reads `{field}` as the step time)."))?;
    let tpot_ms = value.as_f64().filter(|t| t.is_finite() && *t > 0.0).ok_or_else(|| {
        format!(
            "benchmark {n}: `{field}` {} is not a time above 0 ms (did no request stream two tokens?).",
            show(value)
        )
    })?;
    if !tpot_in_range(tpot_ms) {
        return Err(format!(
            "benchmark {n}: `{field}` {} is outside {}.",
            compact(tpot_ms),
            tpot_range_text()
        ));
    }
    Ok(tpot_ms)
}
