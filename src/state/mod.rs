//! The edge: raw query or control values -> validated [`Inputs`] (plus a notice for each value that
//! was rejected), and [`Inputs`] -> query string. Past this module nothing can be invalid.

pub mod animation;
pub mod custom;
pub mod fields;
pub mod keys;
pub mod lessons;
pub mod measured;
pub mod sim;
mod stops;
pub mod view;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::core::presets::{gpu_by_id, model_by_id, CustomGpu, CustomModel, GpuSpec, ModelSpec, CUSTOM_ID};
use crate::core::presets::{GPUS, MODELS};
use crate::core::roofline::{Calibration, Precision, Scenario, TP_CHOICES};
use custom::{read_fields, reconcile_model, write_fields, GPU_FIELDS, MODEL_FIELDS};
use fields::{quoted, CTX, MBU, OUT, OVERHEAD, PRICE, RATE, TPOT, TTFT, UTIL};
pub use stops::{log_stops, nearest_stop_index};

/// Every query key the page reads, in canonical order.
pub const KEYS: [&str; 56] = [
    "model",
    "m_params",
    "m_active",
    "m_layers",
    "m_hidden",
    "m_heads",
    "m_kv_heads",
    "m_head_dim",
    "m_experts",
    "m_top_k",
    "m_window",
    "m_swa_layers",
    "m_max_ctx",
    "gpu",
    "g_hbm",
    "g_bw",
    "g_bf16",
    "g_fp8",
    "g_fp4",
    "g_link",
    "w",
    "kv",
    "tp",
    "ctx",
    "out",
    "tpot",
    "ttft",
    "util",
    "mbu",
    "overhead",
    "rate",
    "price",
    "realistic",
    "sim",
    "load",
    "count",
    "arrivals",
    "burst",
    "lengths",
    "spread",
    "requests",
    "seed",
    "chunk",
    "cap",
    "prefill",
    "pct",
    "attain",
    "rate_max",
    "points",
    "present",
    "embed",
    "view",
    "theme",
    "mark",
    "measured",
    "lesson",
];

/// The query string as typed: the last value of each known key, unparsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawQuery {
    pub values: BTreeMap<&'static str, String>,
}

impl RawQuery {
    /// The raw value under `key`, if the query had one.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }
}

/// The validated state of every control, in base units. Serde carries it between the page's wasm
/// modules (`crate::panel_protocol`, `crate::sim_protocol`); the URL is written by [`to_query`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inputs {
    /// The what-if the core analyzes: model (a preset, or the spec built from the custom model's
    /// numbers, id `custom`), GPU, precisions, TP, lengths, targets, memory utilization and the
    /// calibration ([`Calibration::IDEAL`] while realistic mode is off).
    pub scenario: Scenario,
    /// Realistic mode is on: the URL carries the scenario's calibration as `mbu` and `overhead`, even
    /// when it equals the ideal roofline's. Set both through [`Inputs::set_realistic`].
    pub realistic_mode: bool,
    /// Target load for the capacity plan, in requests/s.
    pub rate_req_per_s: f64,
    /// Price of one GPU-hour, in $.
    pub price_per_gpu_hour: f64,
    /// The simulator's controls.
    pub sim: sim::SimInputs,
}

/// A value the page could not use as given, and what it used instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The query key the value came in under.
    pub key: &'static str,
    pub message: String,
}

/// TTFT target default: MLPerf Inference's server-scenario TTFT for llama3.1-8b (2,000 ms, p99).
pub const DEFAULT_TTFT_S: f64 = 2.0;
/// Share of HBM given to weights plus KV, as vLLM's `gpu_memory_utilization` default.
pub const DEFAULT_MEMORY_UTILIZATION: f64 = 0.9;
/// Capacity plan default load, in requests/s: four worked-example replicas' worth.
pub const DEFAULT_RATE_REQ_PER_S: f64 = 100.0;
/// Capacity plan default price: an assumed $2.50 per GPU-hour, to be replaced by your own.
pub const DEFAULT_PRICE_PER_GPU_HOUR: f64 = 2.5;

/// The worked example's scenario: Llama 3.1 8B, BF16, one H100 SXM, 2,048 tokens, 10 ms TPOT, 256
/// out, on the ideal roofline.
pub const WORKED_EXAMPLE: Scenario = Scenario {
    model: MODELS[0],
    gpu: GPUS[0],
    weight_precision: Precision::Bf16,
    kv_precision: Precision::Bf16,
    tp: 1,
    context_tokens: 2048,
    output_tokens: 256,
    tpot_target_s: 0.010,
    ttft_target_s: DEFAULT_TTFT_S,
    memory_utilization: DEFAULT_MEMORY_UTILIZATION,
    calibration: Calibration::IDEAL,
};

impl Default for Inputs {
    /// The worked example, with realistic mode off and the default capacity plan and simulator.
    fn default() -> Self {
        Inputs {
            scenario: WORKED_EXAMPLE,
            realistic_mode: false,
            rate_req_per_s: DEFAULT_RATE_REQ_PER_S,
            price_per_gpu_hour: DEFAULT_PRICE_PER_GPU_HOUR,
            sim: sim::SimInputs::default(),
        }
    }
}

impl Inputs {
    /// Realistic mode's calibration, `None` on the ideal roofline. A calibration other than the
    /// ideal one counts as realistic mode even without the flag, so the URL always says what the
    /// core analyzes.
    pub fn realistic(&self) -> Option<Calibration> {
        let calibration = self.scenario.calibration;
        (self.realistic_mode || calibration != Calibration::IDEAL).then_some(calibration)
    }

    /// Turns realistic mode on with `calibration`, or off (the ideal roofline) with `None`.
    pub fn set_realistic(&mut self, calibration: Option<Calibration>) {
        self.realistic_mode = calibration.is_some();
        self.scenario.calibration = calibration.unwrap_or(Calibration::IDEAL);
    }

    /// These inputs with realistic mode set as [`Inputs::set_realistic`] does.
    pub fn with_realistic(mut self, calibration: Option<Calibration>) -> Inputs {
        self.set_realistic(calibration);
        self
    }

    /// The largest context the chosen model accepts within the slider's range, in tokens.
    pub fn context_tokens_max(&self) -> u32 {
        context_tokens_max_for(&self.scenario.model)
    }

    /// These inputs with the model (and the context clamped to its maximum).
    pub fn with_model(self, model: ModelSpec) -> Inputs {
        let context_tokens = self.scenario.context_tokens.min(context_tokens_max_for(&model));
        Inputs { scenario: Scenario { model, context_tokens, ..self.scenario }, ..self }
    }
}

/// A model's maximum context within the context field's range, in tokens.
fn context_tokens_max_for(model: &ModelSpec) -> u32 {
    (model.context_tokens_max as f64).clamp(CTX.min, CTX.max) as u32
}

/// Splits a query string (with or without its leading `?`) into its raw values; the last of a
/// repeated key wins and unknown keys are ignored.
pub fn parse_raw(query: &str) -> RawQuery {
    let query = query.strip_prefix('?').unwrap_or(query);
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let mut raw = RawQuery::default();
    for (key, value) in pairs {
        if let Some(known) = KEYS.iter().find(|k| **k == key) {
            raw.values.insert(known, value);
        }
    }
    raw
}

/// Validates raw values into [`Inputs`]: a malformed or unknown value falls back to its default, an
/// out-of-range number is clamped, and each such repair adds a [`Notice`].
pub fn validate(raw: &RawQuery) -> (Inputs, Vec<Notice>) {
    let defaults = Inputs::default();
    let mut notices = Vec::new();
    let scenario = read_scenario(raw, &defaults.scenario, &mut notices);
    let realistic = read_realistic(raw, &mut notices);
    let inputs = Inputs {
        scenario,
        realistic_mode: false,
        rate_req_per_s: RATE.read(raw.get("rate"), defaults.rate_req_per_s, &mut notices),
        price_per_gpu_hour: PRICE.read(raw.get("price"), defaults.price_per_gpu_hour, &mut notices),
        sim: sim::read(raw, &mut notices),
    };
    (inputs.with_realistic(realistic), notices)
}

/// The scenario's keys validated, in [`KEYS`] order, on the ideal roofline (realistic mode's
/// calibration is [`read_realistic`]'s).
fn read_scenario(raw: &RawQuery, defaults: &Scenario, notices: &mut Vec<Notice>) -> Scenario {
    let lookup = |key: &str| raw.get(key).map(str::to_string);
    let model = read_model(raw, &lookup, notices);
    let gpu = read_gpu(raw, &lookup, notices);
    let weight_precision =
        read_choice(raw.get("w"), "w", &Precision::WEIGHTS, defaults.weight_precision, notices);
    let kv_precision = read_choice(raw.get("kv"), "kv", &Precision::KV, defaults.kv_precision, notices);
    let tp = read_tp(raw.get("tp"), notices);
    let ctx_reason = format!("the most {} accepts", model.name);
    let ctx_cap = (f64::from(context_tokens_max_for(&model)), ctx_reason.as_str());
    let context_default = f64::from(defaults.context_tokens);
    let context_tokens = CTX.read_capped(raw.get("ctx"), context_default, ctx_cap, notices) as u32;
    Scenario {
        model,
        gpu,
        weight_precision,
        kv_precision,
        tp,
        context_tokens,
        output_tokens: OUT.read(raw.get("out"), f64::from(defaults.output_tokens), notices) as u32,
        tpot_target_s: TPOT.read(raw.get("tpot"), defaults.tpot_target_s, notices),
        ttft_target_s: TTFT.read(raw.get("ttft"), defaults.ttft_target_s, notices),
        memory_utilization: UTIL.read(raw.get("util"), defaults.memory_utilization, notices),
        calibration: Calibration::IDEAL,
    }
}

/// The model preset named by `model`, or the custom model built from the `m_*` keys.
fn read_model(
    raw: &RawQuery,
    lookup: &impl Fn(&str) -> Option<String>,
    notices: &mut Vec<Notice>,
) -> ModelSpec {
    let default = MODELS[0];
    match raw.get("model").map(str::trim) {
        None => default,
        Some(CUSTOM_ID) => {
            let mut custom = read_fields(&MODEL_FIELDS, &CustomModel::from_spec(&default), lookup, notices);
            reconcile_model(&mut custom, notices);
            custom.to_spec()
        }
        Some(id) => model_by_id(id).copied().unwrap_or_else(|| {
            notices.push(unknown("model", id, default.name));
            default
        }),
    }
}

/// The GPU preset named by `gpu`, or the custom GPU built from the `g_*` keys.
fn read_gpu(raw: &RawQuery, lookup: &impl Fn(&str) -> Option<String>, notices: &mut Vec<Notice>) -> GpuSpec {
    let default = GPUS[0];
    match raw.get("gpu").map(str::trim) {
        None => default,
        Some(CUSTOM_ID) => {
            read_fields(&GPU_FIELDS, &CustomGpu::from_spec(&default), lookup, notices).to_spec()
        }
        Some(id) => gpu_by_id(id).copied().unwrap_or_else(|| {
            notices.push(unknown("gpu", id, default.name));
            default
        }),
    }
}

/// A precision among `allowed` by URL id (case-insensitive), else the default with a notice.
fn read_choice(
    raw: Option<&str>,
    key: &'static str,
    allowed: &[Precision],
    default: Precision,
    notices: &mut Vec<Notice>,
) -> Precision {
    let Some(text) = raw else { return default };
    Precision::from_id(&text.trim().to_ascii_lowercase(), allowed).unwrap_or_else(|| {
        let ids: Vec<&str> = allowed.iter().map(|p| p.id()).collect();
        let message =
            format!("{key}={} is not one of {}; using {}.", quoted(text), ids.join(", "), default.id());
        notices.push(Notice { key, message });
        default
    })
}

/// Tensor parallelism: one of 1, 2, 4, 8, else 1 with a notice.
fn read_tp(raw: Option<&str>, notices: &mut Vec<Notice>) -> u32 {
    let Some(text) = raw else { return 1 };
    match text.trim().parse::<u32>() {
        Ok(tp) if TP_CHOICES.contains(&tp) => tp,
        _ => {
            let message = format!("tp={} is not one of 1, 2, 4, 8; using 1.", quoted(text));
            notices.push(Notice { key: "tp", message });
            1
        }
    }
}

/// Realistic mode is on when the query carries `mbu` or `overhead` (or `realistic=1`); the other
/// falls back to [`Calibration::REALISTIC_DEFAULT`].
fn read_realistic(raw: &RawQuery, notices: &mut Vec<Notice>) -> Option<Calibration> {
    let (mbu, overhead) = (raw.get("mbu"), raw.get("overhead"));
    let flag = raw.get("realistic").is_some_and(|v| matches!(v.trim(), "1" | "true" | "on"));
    if mbu.is_none() && overhead.is_none() && !flag {
        return None;
    }
    let defaults = Calibration::REALISTIC_DEFAULT;
    let mbu = MBU.read(mbu, defaults.mbu, notices);
    Some(Calibration { mbu, overhead_s: OVERHEAD.read(overhead, defaults.overhead_s, notices) })
}

/// Parses and validates a whole query string.
pub fn from_query(query: &str) -> (Inputs, Vec<Notice>) {
    validate(&parse_raw(query))
}

/// Parses and validates a whole query string into the inputs and the view, with every notice.
/// With `lesson=N` the inputs start from that lesson's state ([`lessons::under_lesson`]).
pub fn from_page_query(query: &str) -> (Inputs, view::View, Vec<Notice>) {
    let raw = parse_raw(query);
    let (inputs, mut notices) = validate(&lessons::under_lesson(&raw));
    let view = view::read(&raw, &mut notices);
    (inputs, view, notices)
}

/// The page's query string: the inputs' canonical query, then the view's keys that differ from
/// the default view (`lesson=` only while the inputs are still that lesson's state).
pub fn page_query(inputs: &Inputs, view: &view::View) -> String {
    let lesson = lessons::active(inputs, view);
    let mut pairs = query_pairs(inputs);
    // A lesson that opens the simulator reopens it from a link unless the link says it was closed.
    if lesson.is_some_and(|lesson| lesson.inputs().sim.shown && !inputs.sim.shown) {
        let after_inputs = pairs.iter().position(|(k, _)| *k == "price").map_or(pairs.len(), |i| i + 1);
        pairs.insert(after_inputs, ("sim", "0".to_string()));
    }
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    let view = view::View { lesson: lesson.map(|lesson| lesson.number), ..*view };
    let extra = serde_urlencoded::to_string(view.pairs()).unwrap_or_default();
    match (query.is_empty(), extra.is_empty()) {
        (_, true) => query,
        (true, false) => extra,
        (false, false) => format!("{query}&{extra}"),
    }
}

/// The canonical query string for these inputs (no leading `?`): every key that applies, in
/// [`KEYS`] order; custom fields only for a custom model or GPU, `mbu` and `overhead` only in
/// realistic mode.
pub fn to_query(inputs: &Inputs) -> String {
    serde_urlencoded::to_string(query_pairs(inputs)).unwrap_or_default()
}

/// [`to_query`]'s (key, value) pairs, in [`KEYS`] order.
fn query_pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let scenario = &inputs.scenario;
    let mut pairs: Vec<(&str, String)> = vec![("model", scenario.model.id.to_string())];
    if scenario.model.id == CUSTOM_ID {
        pairs.extend(write_fields(&MODEL_FIELDS, &CustomModel::from_spec(&scenario.model)));
    }
    pairs.push(("gpu", scenario.gpu.id.to_string()));
    if scenario.gpu.id == CUSTOM_ID {
        pairs.extend(write_fields(&GPU_FIELDS, &CustomGpu::from_spec(&scenario.gpu)));
    }
    pairs.extend([
        ("w", scenario.weight_precision.id().to_string()),
        ("kv", scenario.kv_precision.id().to_string()),
        ("tp", scenario.tp.to_string()),
        ("ctx", CTX.write(f64::from(scenario.context_tokens))),
        ("out", OUT.write(f64::from(scenario.output_tokens))),
        ("tpot", TPOT.write(scenario.tpot_target_s)),
        ("ttft", TTFT.write(scenario.ttft_target_s)),
        ("util", UTIL.write(scenario.memory_utilization)),
    ]);
    if let Some(calibration) = inputs.realistic() {
        pairs.extend([
            ("mbu", MBU.write(calibration.mbu)),
            ("overhead", OVERHEAD.write(calibration.overhead_s)),
        ]);
    }
    pairs.extend([
        ("rate", RATE.write(inputs.rate_req_per_s)),
        ("price", PRICE.write(inputs.price_per_gpu_hour)),
    ]);
    pairs.extend(inputs.sim.pairs());
    pairs
}

fn unknown(key: &'static str, value: &str, default_name: &str) -> Notice {
    let message = format!("Unknown {key} {}; showing {default_name}.", quoted(value));
    Notice { key, message }
}
