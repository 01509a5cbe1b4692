//! Measured step times from a file: a `vllm bench serve` result (one JSON object, an array, or JSON
//! lines), a GuideLLM report or an AIPerf / GenAI-Perf profile export (told apart by their shape:
//! `guidellm.rs`, `aiperf.rs`) or a CSV of (batch, TPOT ms), into validated points or a message
//! naming the problem and where.

use super::json::{kind, show};
use super::{
    aiperf, at_url_precision, guidellm, number, tpot_in_range, tpot_range_text, whole_batch, BATCH_FIELD,
    MAX_BATCH, MAX_POINTS, TPOT_FIELD,
};
use crate::core::fit::MeasuredPoint;
use crate::core::units::ms_to_s;
use crate::state::fields::{compact, quoted};
use serde_json::{Map, Value};

/// What an upload held: the points, what kind of file it was, and remarks that do not stop it.
#[derive(Clone, Debug, PartialEq)]
pub struct Upload {
    pub points: Vec<MeasuredPoint>,
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

/// One result object as a point, or what is missing from it.
pub(super) fn vllm_point(result: &Map<String, Value>, n: usize) -> Result<MeasuredPoint, String> {
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
    Ok(MeasuredPoint { batch, tpot_s: ms_to_s(tpot_ms) })
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
    if let Some(failed) = result.get("failed").and_then(Value::as_u64).filter(|f| *f > 0) {
        remarks.push(format!("Result {n} had {failed} failed requests."));
    }
    remarks
}

/// A CSV of batch, TPOT in ms: a header row is optional (one naming TPOT first swaps the columns),
/// `#` starts a comment, tabs or semicolons may separate.
pub(super) fn parse_csv(text: &str) -> Result<Upload, String> {
    let delimiter = [b',', b'\t', b';'].into_iter().find(|d| text.as_bytes().contains(d)).unwrap_or(b',');
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut points = Vec::new();
    let mut tpot_first = false;
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("CSV could not be read: {e}."))?;
        let line = record.position().map_or(i as u64 + 1, |p| p.line());
        let fields: Vec<&str> = record.iter().collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        if fields.len() != 2 {
            return Err(format!(
                "line {line} has {} column{}: a CSV needs two columns: batch, TPOT in ms.",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            ));
        }
        if points.is_empty() && i == 0 && is_header(&fields) {
            tpot_first = fields[0].to_ascii_lowercase().contains("tpot");
            continue;
        }
        let (batch, tpot) = if tpot_first { (fields[1], fields[0]) } else { (fields[0], fields[1]) };
        points.push(csv_point(batch, tpot, line)?);
    }
    if points.is_empty() {
        return Err("The CSV has no data rows: a CSV needs two columns: batch, TPOT in ms.".to_string());
    }
    Ok(Upload { points, format: "CSV", remarks: Vec::new() })
}

/// A first row whose cells are not both numbers is a header.
pub(super) fn is_header(fields: &[&str]) -> bool {
    fields.iter().any(|f| number(f).is_none())
}

/// One data row: batch a whole number >= 1, TPOT a number of ms above 0.
pub(super) fn csv_point(batch: &str, tpot: &str, line: u64) -> Result<MeasuredPoint, String> {
    let b = number(batch).ok_or_else(|| format!("line {line}: batch {} is not a number.", quoted(batch)))?;
    let batch = whole_batch(b).ok_or_else(|| {
        format!("line {line}: batch {} is not a whole number from 1 to {MAX_BATCH}.", quoted(batch))
    })?;
    let t = number(tpot).ok_or_else(|| format!("line {line}: TPOT {} is not a number.", quoted(tpot)))?;
    if t <= 0.0 {
        return Err(format!("line {line}: TPOT {} ms is not above 0.", compact(t)));
    }
    if !tpot_in_range(t) {
        return Err(format!("line {line}: TPOT {} ms is outside {}.", compact(t), tpot_range_text()));
    }
    Ok(MeasuredPoint { batch, tpot_s: ms_to_s(t) })
}
