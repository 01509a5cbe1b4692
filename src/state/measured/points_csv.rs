//! CSV uploads: GuideLLM's CSV export (`guidellm_csv.rs`), AIPerf's and GenAI-Perf's CSV exports
//! (recognised, and the user pointed to the JSON export beside them, since they state no
//! concurrency), or a CSV of (batch, TPOT ms).

use super::{guidellm_csv, number, tpot_in_range, tpot_range_text, whole_batch, Upload, MAX_BATCH};
use crate::core::fit::YourPoint;
use crate::core::units::ms_to_s;
use crate::state::fields::{compact, quoted};

/// Why an AIPerf or GenAI-Perf CSV export is not read, and what to load instead.
pub const PROFILE_CSV_MESSAGE: &str = "This is an AIPerf or GenAI-Perf CSV export (profile_export_aiperf.csv, \
    profile_export_genai_perf.csv): it holds the run's statistics but not its concurrency, which the page reads as \
    the batch. Load the JSON export from the same artifacts folder instead (profile_export_aiperf.json or \
    profile_export_genai_perf.json).";

/// One CSV record: its line and trimmed cells.
type Record = (u64, Vec<String>);

/// The CSV's records ([`crate::state::csv_text`]'s rules), or why it cannot be read.
fn records(text: &str) -> Result<Vec<Record>, String> {
    let mut reader = crate::state::csv_text::reader(text);
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("CSV could not be read: {e}."))?;
        let line = record.position().map_or(i as u64 + 1, |p| p.line());
        rows.push((line, record.iter().map(str::to_string).collect()));
    }
    Ok(rows)
}

/// An AIPerf or GenAI-Perf CSV export: its first section's header is `Metric,avg,...`.
fn is_profile_csv(rows: &[Record]) -> bool {
    rows.iter().find(|(_, cells)| cells.iter().any(|c| !c.is_empty())).is_some_and(|(_, cells)| {
        cells.len() > 2 && cells[0].eq_ignore_ascii_case("metric") && cells[1].eq_ignore_ascii_case("avg")
    })
}

/// A CSV upload: a GuideLLM export, an AIPerf or GenAI-Perf export (refused with where to look), or
/// batch, TPOT in ms.
pub(super) fn parse_csv(text: &str) -> Result<Upload, String> {
    let rows = records(text)?;
    let cells: Vec<Vec<String>> = rows.iter().map(|(_, c)| c.clone()).collect();
    if guidellm_csv::is_export(&cells) {
        return guidellm_csv::parse(&cells);
    }
    if is_profile_csv(&rows) {
        return Err(PROFILE_CSV_MESSAGE.to_string());
    }
    two_columns(&rows)
}

/// A CSV of batch, TPOT in ms: a header row is optional (one naming TPOT first swaps the columns).
fn two_columns(rows: &[Record]) -> Result<Upload, String> {
    let mut points = Vec::new();
    let mut tpot_first = false;
    for (i, (line, cells)) in rows.iter().enumerate() {
        let fields: Vec<&str> = cells.iter().map(String::as_str).collect();
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
        points.push(csv_point(batch, tpot, *line)?);
    }
    if points.is_empty() {
        return Err("The CSV has no data rows: a CSV needs two columns: batch, TPOT in ms.".to_string());
    }
    Ok(Upload { points, format: "CSV", remarks: Vec::new() })
}

/// A first row whose cells are not both numbers is a header.
fn is_header(fields: &[&str]) -> bool {
    fields.iter().any(|f| number(f).is_none())
}

/// One data row: batch a whole number >= 1, TPOT a number of ms above 0.
fn csv_point(batch: &str, tpot: &str, line: u64) -> Result<YourPoint, String> {
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
    Ok(YourPoint::new(batch, ms_to_s(t)))
}
