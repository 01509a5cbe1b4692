//! GuideLLM's CSV export (`guidellm benchmark --output-path benchmarks.csv`) as points: one per row
//! (benchmark), read by its column names, as the JSON report is read (`guidellm.rs`).
//!
//! GuideLLM 0.4 and later (`src/guidellm/benchmark/outputs/csv.py`) write three header rows, each
//! column named by group, field and statistic (“Inter Token Latency”, “Successful ms”, “Mean”), and
//! give a benchmark's strategy by its type alone; a concurrent one's streams are read from the
//! profile (the “Run Info / Profile” JSON's `streams`, at the row's “Run Index”), else its mean of
//! requests in flight stands in, with a remark. GuideLLM 0.2–0.3 (`save_csv` in
//! `src/guidellm/benchmark/output.py`) write one header row (“Successful Inter token latency ms
//! mean”) and name the strategy with its streams (“concurrent@16”).

use super::{counted, guidellm, run_lengths, tpot_in_range, tpot_range_text, whole_batch, Upload, MAX_BATCH};
use crate::core::fit::YourPoint;
use crate::core::units::ms_to_s;
use crate::state::fields::{compact, quoted};
use serde_json::Value;

/// The upload's format, as the panel names it.
pub const FORMAT: &str = "GuideLLM CSV export";

/// The columns one GuideLLM release names.
struct Layout {
    header_rows: usize,
    strategy: &'static str,
    run_index: &'static str,
    profile: &'static str,
    step: &'static str,
    in_flight: &'static str,
    isl: &'static str,
    osl: &'static str,
    errored: &'static str,
    incomplete: &'static str,
}

const V04: Layout = Layout {
    header_rows: 3,
    strategy: "Benchmark / Strategy",
    run_index: "Run Info / Run Index",
    profile: "Run Info / Profile",
    step: "Inter Token Latency / Successful ms / Mean",
    in_flight: "Server Throughput / Successful Concurrency / Mean",
    isl: "Token Metrics / Successful Input Tokens / Mean",
    osl: "Token Metrics / Successful Output Tokens / Mean",
    errored: "Request Counts / Errored",
    incomplete: "Request Counts / Incomplete",
};
const V03: Layout = Layout {
    header_rows: 1,
    strategy: "Name",
    run_index: "",
    profile: "",
    step: "Successful Inter token latency ms mean",
    in_flight: "Successful Request concurrency mean",
    isl: "Successful Prompt token count mean",
    osl: "Successful Output token count mean",
    errored: "Errored Requests",
    incomplete: "Incomplete Requests",
};

/// Which layout `rows` (the CSV's records) have, if they are a GuideLLM export.
fn layout(rows: &[Vec<String>]) -> Option<&'static Layout> {
    let first = rows.first()?;
    let has = |name: &str| first.iter().any(|c| c == name);
    if has(V03.strategy) && has("Successful Requests") {
        Some(&V03)
    } else if rows.len() >= 3 && first.iter().any(|c| c == "Inter Token Latency" || c == "Run Info") {
        Some(&V04)
    } else {
        None
    }
}

/// A GuideLLM CSV export.
pub fn is_export(rows: &[Vec<String>]) -> bool {
    layout(rows).is_some()
}

/// One benchmark row, its cells by column name.
struct Row<'a> {
    n: usize,
    names: &'a [String],
    cells: &'a [String],
}

impl Row<'_> {
    fn cell(&self, name: &str) -> Option<&str> {
        let i = self.names.iter().position(|c| c == name)?;
        self.cells.get(i).map(|c| c.trim()).filter(|c| !c.is_empty())
    }

    fn number(&self, name: &str) -> Option<f64> {
        self.cell(name)?.parse::<f64>().ok().filter(|x| x.is_finite())
    }
}

/// Every benchmark row as a point, or what is wrong with the first bad one.
pub fn parse(rows: &[Vec<String>]) -> Result<Upload, String> {
    let Some(layout) = layout(rows) else { return Err("This is not a GuideLLM CSV export.".to_string()) };
    let header = &rows[..layout.header_rows.min(rows.len())];
    let width = header.iter().map(Vec::len).max().unwrap_or(0);
    let names: Vec<String> = (0..width)
        .map(|j| {
            let parts: Vec<&str> =
                header.iter().filter_map(|r| r.get(j).map(|c| c.trim())).filter(|c| !c.is_empty()).collect();
            parts.join(" / ")
        })
        .collect();
    let mut points = Vec::new();
    let mut remarks = Vec::new();
    for cells in rows.iter().skip(layout.header_rows).filter(|r| r.iter().any(|c| !c.trim().is_empty())) {
        let row = Row { n: points.len() + 1, names: &names, cells };
        points.push(point(&row, layout, &mut remarks)?);
    }
    if points.is_empty() {
        return Err("The GuideLLM CSV export has no benchmark rows.".to_string());
    }
    Ok(Upload { points, format: FORMAT, remarks })
}

/// One row as a point, with its remarks.
fn point(row: &Row, layout: &Layout, remarks: &mut Vec<String>) -> Result<YourPoint, String> {
    let n = row.n;
    let batch = batch(row, layout, remarks)?;
    let tpot_ms = row.number(layout.step).filter(|t| *t > 0.0).ok_or_else(|| {
        format!(
            "benchmark {n}: column “{}” is empty or not a time above 0 ms (did no request stream two tokens?).",
            layout.step
        )
    })?;
    if !tpot_in_range(tpot_ms) {
        return Err(format!(
            "benchmark {n}: “{}” {} is outside {}.",
            layout.step,
            compact(tpot_ms),
            tpot_range_text()
        ));
    }
    let lengths = row.number(layout.isl).zip(row.number(layout.osl)).and_then(|(i, o)| run_lengths(i, o));
    for (column, what) in [(layout.errored, "errored request"), (layout.incomplete, "incomplete request")] {
        if let Some(count) = row.number(column).filter(|c| *c > 0.0) {
            remarks.push(format!("Benchmark {n} had {}.", counted(count, what)));
        }
    }
    Ok(YourPoint { batch, tpot_s: ms_to_s(tpot_ms), lengths })
}

/// The batch: a concurrent strategy's streams, 1 for synchronous, else the mean in flight, rounded,
/// with a remark.
fn batch(row: &Row, layout: &Layout, remarks: &mut Vec<String>) -> Result<u32, String> {
    let n = row.n;
    let strategy = row.cell(layout.strategy).unwrap_or("");
    let (kind, streams) = match strategy.split_once('@') {
        Some((kind, rate)) => (kind, rate.trim().parse::<f64>().ok()),
        None => (strategy, None),
    };
    let streams = streams.or_else(|| profile_streams(row, layout));
    match (kind, streams) {
        ("synchronous", _) => Ok(1),
        ("concurrent", Some(s)) => whole_batch(s).ok_or_else(|| {
            format!("benchmark {n}: the concurrent strategy's streams {} is not a whole number from 1 to {MAX_BATCH}.", compact(s))
        }),
        _ => {
            let ran = if kind == "concurrent" {
                "is concurrent, but the CSV states no streams for it".to_string()
            } else {
                format!("ran a {} strategy, not a concurrent one", quoted(strategy))
            };
            let mean = row.number(layout.in_flight).unwrap_or(0.0);
            let batch = whole_batch(mean.round()).ok_or_else(|| {
                format!(
                    "benchmark {n}: strategy {} fixes no concurrency and “{}” does not round to a batch from 1 to \
                     {MAX_BATCH}.",
                    quoted(strategy),
                    layout.in_flight
                )
            })?;
            remarks.push(guidellm::in_flight_remark(n, &ran, mean, batch));
            Ok(batch)
        }
    }
}

/// A concurrent strategy's streams from the row's profile JSON (its `streams` list, at the row's
/// run index), if the export states them.
fn profile_streams(row: &Row, layout: &Layout) -> Option<f64> {
    let profile: Value = serde_json::from_str(row.cell(layout.profile)?).ok()?;
    let index = row.number(layout.run_index).filter(|i| *i >= 0.0 && i.fract() == 0.0)?;
    let streams = find_key(&profile, "streams")?.as_array()?;
    streams.get(index as usize)?.as_f64()
}

/// The first value under `key` anywhere in `value`, depth first.
fn find_key<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => map.get(key).or_else(|| map.values().find_map(|v| find_key(v, key))),
        Value::Array(items) => items.iter().find_map(|v| find_key(v, key)),
        _ => None,
    }
}
