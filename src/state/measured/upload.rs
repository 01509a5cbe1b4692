//! Measured step times from a file: a `vllm bench serve` result (one JSON object, an array, or JSON
//! lines), a GuideLLM report or an AIPerf / GenAI-Perf profile export (told apart by their shape:
//! `guidellm.rs`, `aiperf.rs`) or a CSV (`points_csv.rs`), into validated points or a message naming
//! the problem and where.

use super::json::{kind, show};
use super::points_csv::parse_csv;
use super::{
    aiperf, at_url_precision, counted, guidellm, run_lengths, tpot_in_range, tpot_range_text, whole_batch,
    BATCH_FIELD, MAX_BATCH, MAX_POINTS, TPOT_FIELD,
};
use crate::core::fit::{RunLengths, YourPoint};
use crate::core::units::ms_to_s;
use crate::state::fields::compact;
use serde_json::{Map, Value};

/// What an upload held: the points, what kind of file it was, and remarks that do not stop it.
#[derive(Clone, Debug, PartialEq)]
pub struct Upload {
    pub points: Vec<YourPoint>,
    /// "vLLM benchmark result", "GuideLLM report", "AIPerf profile export", ... or "CSV".
    pub format: &'static str,
    /// Things worth knowing (a rate-limited run, failed requests).
    pub remarks: Vec<String>,
}

/// Reads pasted or dropped text: JSON when it starts with `{` or `[`, else CSV. The error names the
/// problem and where ("line 3: TPOT “abc” is not a number").
pub fn parse_upload(text: &str) -> Result<Upload, String> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err("Nothing to read: paste a vllm bench serve result (JSON) or a CSV of batch, TPOT in ms."
            .to_string());
    }
    let upload = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        parse_json(trimmed)?
    } else {
        parse_csv(trimmed)?
    };
    if upload.points.len() > MAX_POINTS {
        return Err(format!("{} points is more than the {MAX_POINTS} this page plots.", upload.points.len()));
    }
    Ok(Upload { points: at_url_precision(&upload.points), ..upload })
}

/// Every JSON value in the text (one object, an array of objects, or one object per line), as the
/// result objects they hold; a syntax error names its line and column.
pub(super) fn json_results(text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let mut results = Vec::new();
    for value in serde_json::Deserializer::from_str(text).into_iter::<Value>() {
        let value = value.map_err(|e| {
            let text = e.to_string();
            let what = text.split(" at line ").next().unwrap_or(&text);
            format!("line {}, column {}: not valid JSON ({what}).", e.line(), e.column())
        })?;
        let items = match value {
            Value::Array(items) => items,
            other => vec![other],
        };
        for item in items {
            match item {
                Value::Object(map) => results.push(map),
                other => {
                    let n = results.len() + 1;
                    return Err(format!("JSON result {n} is {}, not a result object.", kind(&other)));
                }
            }
        }
    }
    Ok(results)
}

/// JSON by its shape: a GuideLLM report (`benchmarks`), an AIPerf or GenAI-Perf export
/// (`input_config`, `inter_token_latency`), else `vllm bench serve` results.
pub(super) fn parse_json(text: &str) -> Result<Upload, String> {
    let results = json_results(text)?;
    match results.first() {
        Some(first) if guidellm::is_report(first) => guidellm::parse(&results),
        Some(first) if aiperf::is_export(first) => aiperf::parse(&results),
        _ => parse_vllm_results(&results),
    }
}

/// A vLLM benchmark result (or several): batch from `max_concurrency`, TPOT from `mean_tpot_ms`.
pub(super) fn parse_vllm_results(results: &[Map<String, Value>]) -> Result<Upload, String> {
    if results.is_empty() {
        return Err("The JSON holds no result objects.".to_string());
    }
    let mut points = Vec::with_capacity(results.len());
    let mut remarks = Vec::new();
    for (i, result) in results.iter().enumerate() {
        let n = i + 1;
        points.push(vllm_point(result, n)?);
        remarks.extend(vllm_remarks(result, n));
    }
    Ok(Upload { points, format: "vLLM benchmark result", remarks })
}

/// One result object as a point, or what is missing from it (a run whose requests all failed says so).
pub(super) fn vllm_point(result: &Map<String, Value>, n: usize) -> Result<YourPoint, String> {
    let count = |field: &str| result.get(field).and_then(Value::as_f64);
    if let (Some(completed), Some(failed)) = (count("completed"), count("failed")) {
        if completed == 0.0 && failed > 0.0 {
            let all = if failed == 1.0 {
                "its only request".to_string()
            } else {
                format!("all {}", counted(failed, "request"))
            };
            return Err(format!(
                "JSON result {n}: {all} failed (completed 0), so the run measured no step time. Check the server \
                 and the benchmark's --base-url and --model, then run it again."
            ));
        }
    }
    let batch = match result.get(BATCH_FIELD) {
        None => {
            return Err(format!(
                "JSON result {n} has no {BATCH_FIELD}: is it a vllm bench serve result? The page reads \
                 {BATCH_FIELD} as the batch and {TPOT_FIELD} as the TPOT."
            ))
        }
        Some(Value::Null) => {
            return Err(format!(
                "JSON result {n} has {BATCH_FIELD} null: the run had no --max-concurrency, so its batch is \
                 unknown. Re-run vllm bench serve with --max-concurrency N (one run per N)."
            ))
        }
        Some(v) => v.as_f64().and_then(whole_batch).ok_or_else(|| {
            format!("JSON result {n}: {BATCH_FIELD} {} is not a whole number from 1 to {MAX_BATCH}.", show(v))
        })?,
    };
    let tpot_ms = match result.get(TPOT_FIELD) {
        None => return Err(format!("JSON result {n} has no {TPOT_FIELD}.")),
        Some(v) => v
            .as_f64()
            .filter(|t| t.is_finite() && *t > 0.0)
            .ok_or_else(|| format!("JSON result {n}: {TPOT_FIELD} {} is not a time above 0 ms.", show(v)))?,
    };
    if !tpot_in_range(tpot_ms) {
        let range = tpot_range_text();
        return Err(format!("JSON result {n}: {TPOT_FIELD} {} is outside {range}.", compact(tpot_ms)));
    }
    Ok(YourPoint { batch, tpot_s: ms_to_s(tpot_ms), lengths: vllm_lengths(result) })
}

/// The run's mean prompt and output lengths: `total_input_tokens` and `total_output_tokens` over
/// `completed`, when all three are there.
fn vllm_lengths(result: &Map<String, Value>) -> Option<RunLengths> {
    let count = |field: &str| result.get(field).and_then(Value::as_f64);
    let completed = count("completed").filter(|c| *c > 0.0)?;
    run_lengths(count("total_input_tokens")? / completed, count("total_output_tokens")? / completed)
}

/// Remarks on one result: a finite request rate (the batch may not have reached the cap) and
/// failed requests.
pub(super) fn vllm_remarks(result: &Map<String, Value>, n: usize) -> Vec<String> {
    let mut remarks = Vec::new();
    if let Some(rate) = result.get("request_rate").and_then(Value::as_f64) {
        remarks.push(format!(
            "Result {n} ran at {} req/s, not inf: fewer than {BATCH_FIELD} requests may have been running.",
            compact(rate)
        ));
    }
    if let Some(failed) = result.get("failed").and_then(Value::as_f64).filter(|f| *f > 0.0) {
        remarks.push(format!("Result {n} had {}.", counted(failed, "failed request")));
    }
    remarks
}
