//! AIPerf's profile export (`profile_export_aiperf.json`) and GenAI-Perf's
//! (`profile_export_genai_perf.json`, the shape AIPerf copies) as points: one per export (one run),
//! its batch from the run's concurrency and its step time from `inter_token_latency.avg`.
//!
//! Each metric is an object `{"unit": "ms", "avg": ..., "p50": ..., ...}` (`JsonMetricResult` in
//! AIPerf's `src/aiperf/common/models/export_models.py`). AIPerf's inter-token latency is, per
//! request, (latency − TTFT) / (output tokens − 1), what vLLM calls TPOT; it is written only for
//! streamed runs. The run's settings are under `input_config`, its concurrency at
//! - `phases[i].concurrency` of the profiling phase (AIPerf's config 2.0, `src/aiperf/config/phases.py`;
//!   a `concurrency` phase without it runs 1),
//! - `loadgen.concurrency` (AIPerf 0.1, `aiperf/common/config/loadgen_config.py`),
//! - `perf_analyzer.stimulus.concurrency` (GenAI-Perf from a config file), or
//! - `concurrency` (GenAI-Perf's command-line arguments, earlier releases).
//!
//! A request rate beside it (`rate`, `request_rate`) paced the run and gets a remark: fewer requests
//! may have been in flight than the concurrency allows.

use super::json::{kind, lookup, show};
use super::{counted, run_lengths, tpot_in_range, tpot_range_text, whole_batch, Upload, MAX_BATCH};
use crate::core::fit::YourPoint;
use crate::core::units::{ms_to_s, s_to_ms};
use crate::state::fields::compact;
use serde_json::{Map, Value};

/// The metric read as the step time.
const STEP_METRIC: &str = "inter_token_latency";
/// Microseconds and nanoseconds in a second, for AIPerf's `us` and `ns` units.
const US_PER_S: f64 = 1e6;
const NS_PER_S: f64 = 1e9;
/// Before config 2.0: the key that marks the layout, then the concurrency's and the rate's paths.
type Layout = (&'static str, &'static [&'static str], &'static [&'static str]);
const LAYOUTS: [Layout; 2] = [
    ("loadgen", &["input_config", "loadgen", "concurrency"], &["input_config", "loadgen", "request_rate"]),
    (
        "perf_analyzer",
        &["input_config", "perf_analyzer", "stimulus", "concurrency"],
        &["input_config", "perf_analyzer", "stimulus", "request_rate"],
    ),
];
/// GenAI-Perf's command-line arguments, flat under `input_config`.
const FLAT: Layout = ("", &["input_config", "concurrency"], &["input_config", "request_rate"]);

/// Which tool wrote an export: its name in messages and the upload's format.
struct Tool {
    name: &'static str,
    format: &'static str,
}
const AIPERF: Tool = Tool { name: "AIPerf", format: "AIPerf profile export" };
const GENAI_PERF: Tool = Tool { name: "GenAI-Perf", format: "GenAI-Perf profile export" };

/// A run's load: its concurrency as the batch, and the request rate that paced it, if any.
struct Load {
    batch: u32,
    rate: Option<f64>,
}

/// A JSON object shaped like an AIPerf or GenAI-Perf export: an `input_config` object, or an
/// `inter_token_latency` metric with a unit.
pub fn is_export(result: &Map<String, Value>) -> bool {
    result.get("input_config").is_some_and(Value::is_object)
        || result.get(STEP_METRIC).and_then(|m| m.get("unit")).is_some()
}

/// AIPerf's own layouts (`phases`, `loadgen`) or GenAI-Perf's (`perf_analyzer`, flat flags).
fn tool(export: &Map<String, Value>) -> &'static Tool {
    let Some(config) = export.get("input_config").and_then(Value::as_object) else { return &AIPERF };
    let genai = ["perf_analyzer", "concurrency", "request_rate"].iter().any(|k| config.contains_key(*k));
    if genai && !config.contains_key("phases") && !config.contains_key("loadgen") {
        &GENAI_PERF
    } else {
        &AIPERF
    }
}

/// Each export in the upload (one file, or several pasted one after another) as one point.
pub fn parse(exports: &[Map<String, Value>]) -> Result<Upload, String> {
    let mut points = Vec::with_capacity(exports.len());
    let mut remarks = Vec::new();
    for (i, export) in exports.iter().enumerate() {
        let who = format!("{} export {}", tool(export).name, i + 1);
        let load = load(export, &who)?;
        let tpot_ms = step_ms(export, &who)?;
        remarks.extend(run_remarks(export, &who, &load));
        points.push(YourPoint { batch: load.batch, tpot_s: ms_to_s(tpot_ms), lengths: lengths(export) });
    }
    let Some(first) = exports.first() else { return Err("The JSON holds no result objects.".to_string()) };
    Ok(Upload { points, format: tool(first).format, remarks })
}

/// The run's concurrency and rate, from whichever layout its `input_config` has.
fn load(export: &Map<String, Value>, who: &str) -> Result<Load, String> {
    let Some(config) = export.get("input_config").and_then(Value::as_object) else {
        return Err(format!(
            "{who}: `input_config` is missing or not an object: the page reads the run's concurrency there as \
             the batch."
        ));
    };
    if let Some(phases) = config.get("phases") {
        return phase_load(phases, who);
    }
    let (_, concurrency, rate) = LAYOUTS.iter().find(|(key, ..)| config.contains_key(*key)).unwrap_or(&FLAT);
    let rate = lookup(export, rate).ok().and_then(Value::as_f64);
    let field = concurrency.join(".");
    match lookup(export, concurrency) {
        Ok(v) => Ok(Load { batch: batch_of(v, who, &field)?, rate }),
        Err(missing) => Err(no_concurrency(who, &missing, rate)),
    }
}

/// AIPerf's config 2.0: the profiling phases' concurrency (warmup phases are left out); phases that
/// disagree are refused, since the export averages over them all.
fn phase_load(phases: &Value, who: &str) -> Result<Load, String> {
    let Value::Array(list) = phases else {
        return Err(format!("{who}: `input_config.phases` is {}, not a list of phases.", kind(phases)));
    };
    let mut found: Option<(usize, Load)> = None;
    for (i, phase) in list.iter().enumerate() {
        let Some(phase) = phase.as_object().filter(|p| is_profiling(p)) else { continue };
        let load = phase_concurrency(phase, i, who)?;
        match &found {
            Some((j, first)) if first.batch != load.batch => {
                return Err(format!(
                "{who}: profiling phases {j} and {i} ran at concurrency {} and {}: upload each phase's own \
                     export (phases/<name>/profile_export_aiperf.json).",
                first.batch, load.batch
            ))
            }
            Some(_) => {}
            None => found = Some((i, load)),
        }
    }
    found.map(|(_, load)| load).ok_or_else(|| format!("{who}: `input_config.phases` has no profiling phase."))
}

/// A phase whose results count: `kind` "profiling", or, without a kind, any phase not named warmup.
fn is_profiling(phase: &Map<String, Value>) -> bool {
    match phase.get("kind").and_then(Value::as_str) {
        Some(kind) => kind == "profiling",
        None => phase.get("name").and_then(Value::as_str) != Some("warmup"),
    }
}

/// One phase's concurrency: as written, 1 for a `concurrency` phase that leaves it at AIPerf's
/// default (the export omits defaults), else none.
fn phase_concurrency(phase: &Map<String, Value>, i: usize, who: &str) -> Result<Load, String> {
    let field = format!("input_config.phases[{i}].concurrency");
    let rate = phase.get("rate").and_then(Value::as_f64);
    match phase.get("concurrency") {
        Some(v) if !v.is_null() => Ok(Load { batch: batch_of(v, who, &field)?, rate }),
        _ if phase.get("type").and_then(Value::as_str) == Some("concurrency") => Ok(Load { batch: 1, rate }),
        Some(_) => Err(no_concurrency(who, &format!("`{field}` is null"), rate)),
        None => Err(no_concurrency(who, &format!("`{field}` is missing"), rate)),
    }
}

/// A concurrency value as a batch, or a message naming the field.
fn batch_of(value: &Value, who: &str, field: &str) -> Result<u32, String> {
    value.as_f64().and_then(whole_batch).ok_or_else(|| {
        format!("{who}: `{field}` {} is not a whole number from 1 to {MAX_BATCH}.", show(value))
    })
}

/// The message for a run without a concurrency (`missing`: “`field` is missing”), saying what paced
/// it instead when the file says.
fn no_concurrency(who: &str, missing: &str, rate: Option<f64>) -> String {
    let paced =
        rate.map_or(String::new(), |r| format!(" (the run was paced at {} req/s instead)", compact(r)));
    format!(
        "{who}: {missing}{paced}: the page reads the concurrency as the batch. Profile with --concurrency N, \
         one run per N."
    )
}

/// The step time in ms: `inter_token_latency.avg` in its `unit`.
fn step_ms(export: &Map<String, Value>, who: &str) -> Result<f64, String> {
    lookup(export, &[STEP_METRIC]).map_err(|e| {
        format!(
            "{who}: {e}: it is written only for streamed runs (profile with --streaming); the page reads \
             `{STEP_METRIC}.avg` as the step time."
        )
    })?;
    let unit = lookup(export, &[STEP_METRIC, "unit"]).map_err(|e| format!("{who}: {e}."))?;
    let avg = lookup(export, &[STEP_METRIC, "avg"]).map_err(|e| format!("{who}: {e}."))?;
    let value = avg
        .as_f64()
        .filter(|t| t.is_finite() && *t > 0.0)
        .ok_or_else(|| format!("{who}: `{STEP_METRIC}.avg` {} is not a time above 0.", show(avg)))?;
    let tpot_ms = unit.as_str().and_then(|u| to_ms(value, u)).ok_or_else(|| {
        format!("{who}: `{STEP_METRIC}.unit` {} is not a time unit (ms, sec, us or ns).", show(unit))
    })?;
    if !tpot_in_range(tpot_ms) {
        let range = tpot_range_text();
        return Err(format!("{who}: `{STEP_METRIC}.avg` is {} ms, outside {range}.", compact(tpot_ms)));
    }
    Ok(tpot_ms)
}

/// The run's mean input and output sequence lengths (`input_sequence_length.avg`,
/// `output_sequence_length.avg`, in tokens), when the export states both.
fn lengths(export: &Map<String, Value>) -> Option<crate::core::fit::RunLengths> {
    let avg = |metric: &str| lookup(export, &[metric, "avg"]).ok().and_then(Value::as_f64);
    run_lengths(avg("input_sequence_length")?, avg("output_sequence_length")?)
}

/// A time in one of AIPerf's units (`ns`, `us`, `ms`, `sec`; `s` too) in ms.
fn to_ms(value: f64, unit: &str) -> Option<f64> {
    match unit {
        "ms" => Some(value),
        "sec" | "s" => Some(s_to_ms(value)),
        "us" => Some(s_to_ms(value / US_PER_S)),
        "ns" => Some(s_to_ms(value / NS_PER_S)),
        _ => None,
    }
}

/// Remarks on one run: paced by a request rate, cancelled, failed requests.
fn run_remarks(export: &Map<String, Value>, who: &str, load: &Load) -> Vec<String> {
    let mut remarks = Vec::new();
    if let Some(rate) = load.rate {
        remarks.push(format!(
            "{who} was paced at {} req/s: fewer than {} requests may have been in flight.",
            compact(rate),
            load.batch
        ));
    }
    if export.get("was_cancelled").and_then(Value::as_bool) == Some(true) {
        remarks.push(format!("{who} was cancelled before it finished."));
    }
    let failed = lookup(export, &["error_request_count", "avg"]).ok().and_then(Value::as_f64);
    if let Some(failed) = failed.filter(|f| *f > 0.0) {
        remarks.push(format!("{who} had {}.", counted(failed, "failed request")));
    }
    remarks
}
