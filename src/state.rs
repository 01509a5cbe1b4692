//! The edge: raw query or control values -> validated [`Inputs`] (plus a notice for each value that
//! was rejected), and [`Inputs`] -> query string. Past this module nothing can be invalid.

use serde::{Deserialize, Serialize};

use crate::core::presets::{gpu_by_id, model_by_id, GpuSpec, ModelSpec, GPUS, MODELS};
use crate::core::roofline::{Precision, Scenario};
use crate::core::units::{ms_to_s, s_to_ms};

/// Context length range, in tokens (the slider's ends; a model's own maximum may be lower).
pub const CONTEXT_RANGE_TOKENS: (u32, u32) = (128, 131_072);
/// TPOT target range, in ms.
pub const TPOT_RANGE_MS: (f64, f64) = (1.0, 200.0);
/// Output length range, in tokens.
pub const OUTPUT_RANGE_TOKENS: (u32, u32) = (1, 16_384);
/// Share of HBM given to weights plus KV, as vLLM's `gpu_memory_utilization` default.
pub const DEFAULT_MEMORY_UTILIZATION: f64 = 0.9;

/// The query string as typed: every key optional, every value unparsed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RawQuery {
    pub model: Option<String>,
    pub gpu: Option<String>,
    pub ctx: Option<String>,
    pub kv: Option<String>,
    pub tpot: Option<String>,
    pub out: Option<String>,
}

/// The validated state of every control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    pub model: &'static ModelSpec,
    pub gpu: &'static GpuSpec,
    pub context_tokens: u32,
    pub kv_precision: Precision,
    pub tpot_target_s: f64,
    pub output_tokens: u32,
}

/// A value the page could not use as given, and what it used instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The query key the value came in under.
    pub key: &'static str,
    pub message: String,
}

impl Default for Inputs {
    /// The seed's worked example: Llama 3.1 8B, BF16, one H100 SXM, 2,048 tokens, 10 ms, 256 out.
    fn default() -> Self {
        Inputs {
            model: &MODELS[0],
            gpu: &GPUS[0],
            context_tokens: 2048,
            kv_precision: Precision::Bf16,
            tpot_target_s: ms_to_s(10.0),
            output_tokens: 256,
        }
    }
}

impl Inputs {
    /// The roofline scenario these inputs describe (BF16 weights, 90% memory utilization).
    pub fn scenario(&self) -> Scenario {
        Scenario {
            model: *self.model,
            gpu: *self.gpu,
            weight_precision: Precision::Bf16,
            kv_precision: self.kv_precision,
            context_tokens: self.context_tokens,
            output_tokens: self.output_tokens,
            tpot_target_s: self.tpot_target_s,
            memory_utilization: DEFAULT_MEMORY_UTILIZATION,
        }
    }

    /// The largest context the chosen model accepts within the slider's range, in tokens.
    pub fn max_context_tokens(&self) -> u32 {
        self.model.max_context_tokens.clamp(CONTEXT_RANGE_TOKENS.0, CONTEXT_RANGE_TOKENS.1)
    }
}

/// Splits a query string (with or without its leading `?`) into its raw values; the last of a
/// repeated key wins and unknown keys are ignored.
pub fn parse_raw(query: &str) -> RawQuery {
    let query = query.strip_prefix('?').unwrap_or(query);
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let mut raw = RawQuery::default();
    for (key, value) in pairs {
        let slot = match key.as_str() {
            "model" => &mut raw.model,
            "gpu" => &mut raw.gpu,
            "ctx" => &mut raw.ctx,
            "kv" => &mut raw.kv,
            "tpot" => &mut raw.tpot,
            "out" => &mut raw.out,
            _ => continue,
        };
        *slot = Some(value);
    }
    raw
}

/// Validates raw values into [`Inputs`]: a malformed or unknown value falls back to its default, an
/// out-of-range number is clamped, and each such repair adds a [`Notice`].
pub fn validate(raw: &RawQuery) -> (Inputs, Vec<Notice>) {
    let defaults = Inputs::default();
    let mut notices = Vec::new();
    let mut inputs = defaults;
    if let Some(v) = &raw.model {
        inputs.model = model_by_id(v.trim()).unwrap_or_else(|| {
            notices.push(unknown("model", v, defaults.model.name));
            defaults.model
        });
    }
    if let Some(v) = &raw.gpu {
        inputs.gpu = gpu_by_id(v.trim()).unwrap_or_else(|| {
            notices.push(unknown("gpu", v, defaults.gpu.name));
            defaults.gpu
        });
    }
    if let Some(v) = &raw.kv {
        inputs.kv_precision = Precision::from_id(&v.trim().to_ascii_lowercase()).unwrap_or_else(|| {
            notices.push(unknown("kv", v, defaults.kv_precision.label()));
            defaults.kv_precision
        });
    }
    let (lo, hi) = (CONTEXT_RANGE_TOKENS.0, inputs.max_context_tokens());
    inputs.context_tokens =
        whole_in_range(raw.ctx.as_deref(), "ctx", (lo, hi), "tokens", defaults.context_tokens, &mut notices);
    inputs.output_tokens = whole_in_range(
        raw.out.as_deref(),
        "out",
        OUTPUT_RANGE_TOKENS,
        "tokens",
        defaults.output_tokens,
        &mut notices,
    );
    let tpot_ms = ms_in_range(
        raw.tpot.as_deref(),
        "tpot",
        TPOT_RANGE_MS,
        s_to_ms(defaults.tpot_target_s),
        &mut notices,
    );
    inputs.tpot_target_s = ms_to_s(tpot_ms);
    (inputs, notices)
}

/// Parses and validates a whole query string.
pub fn from_query(query: &str) -> (Inputs, Vec<Notice>) {
    validate(&parse_raw(query))
}

/// The canonical query string for these inputs (no leading `?`), every key present.
pub fn to_query(inputs: &Inputs) -> String {
    let raw = RawQuery {
        model: Some(inputs.model.id.to_string()),
        gpu: Some(inputs.gpu.id.to_string()),
        ctx: Some(inputs.context_tokens.to_string()),
        kv: Some(inputs.kv_precision.id().to_string()),
        tpot: Some(trim_decimal(s_to_ms(inputs.tpot_target_s))),
        out: Some(inputs.output_tokens.to_string()),
    };
    serde_urlencoded::to_string(&raw).unwrap_or_default()
}

/// A number with at most three decimals and no trailing zeros (`10`, `7.5`).
fn trim_decimal(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A whole number within `range`: default on garbage, clamped when outside, a notice either way.
fn whole_in_range(
    raw: Option<&str>,
    key: &'static str,
    range: (u32, u32),
    unit: &str,
    default: u32,
    notices: &mut Vec<Notice>,
) -> u32 {
    let Some(text) = raw else { return default.clamp(range.0, range.1) };
    let cleaned = text.trim().replace([',', '_'], "");
    match cleaned.parse::<f64>() {
        Ok(x) if x.is_finite() && x.fract() == 0.0 => clamp_noted(x, key, range, unit, notices),
        _ => {
            let fallback = default.clamp(range.0, range.1);
            notices.push(not_a_number(
                key,
                text,
                &format!("a whole number of {unit}"),
                &fallback.to_string(),
            ));
            fallback
        }
    }
}

/// `x` clamped into `range` as a whole number, with a notice when it had to move.
fn clamp_noted(x: f64, key: &'static str, range: (u32, u32), unit: &str, notices: &mut Vec<Notice>) -> u32 {
    let (lo, hi) = (f64::from(range.0), f64::from(range.1));
    if x < lo || x > hi {
        let used = x.clamp(lo, hi);
        notices.push(Notice {
            key,
            message: format!("{key}={x} is outside {}–{} {unit}; using {}.", range.0, range.1, used),
        });
        return used as u32;
    }
    x as u32
}

/// A time in ms within `range`: default on garbage, clamped when outside, a notice either way.
fn ms_in_range(
    raw: Option<&str>,
    key: &'static str,
    range: (f64, f64),
    default: f64,
    notices: &mut Vec<Notice>,
) -> f64 {
    let Some(text) = raw else { return default };
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => {
            let used = x.clamp(range.0, range.1);
            if used != x {
                let message =
                    format!("{key}={x} ms is outside {}–{} ms; using {} ms.", range.0, range.1, used);
                notices.push(Notice { key, message });
            }
            used
        }
        _ => {
            notices.push(not_a_number(key, text, "a number of milliseconds", &trim_decimal(default)));
            default
        }
    }
}

/// At most 40 characters of what the user typed, for quoting in a notice.
fn quoted(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("“{short}…”")
    } else {
        format!("“{short}”")
    }
}

fn unknown(key: &'static str, value: &str, default_name: &str) -> Notice {
    let message = format!("Unknown {key} {}; showing {default_name}.", quoted(value));
    Notice { key, message }
}

fn not_a_number(key: &'static str, value: &str, expected: &str, fallback: &str) -> Notice {
    let message = format!("{key}={} is not {expected}; using {fallback}.", quoted(value));
    Notice { key, message }
}

/// Log-spaced slider stops between `min` and `max`: 1, 1.25, 1.5 and 1.75 times each power of two,
/// rounded, plus both ends.
pub fn log_stops(min: u32, max: u32) -> Vec<u32> {
    let mut stops = vec![min, max];
    let mut power: u64 = 1;
    while power <= u64::from(max) {
        for quarter in [4_u64, 5, 6, 7] {
            let stop = (power * quarter + 2) / 4;
            if stop >= u64::from(min) && stop <= u64::from(max) {
                stops.push(stop as u32);
            }
        }
        power *= 2;
    }
    stops.sort_unstable();
    stops.dedup();
    stops
}

/// Index of the stop nearest `value` on a log scale (the slider position that shows it).
pub fn nearest_stop_index(stops: &[u32], value: u32) -> usize {
    let target = f64::from(value.max(1)).ln();
    let distance = |s: &u32| (f64::from((*s).max(1)).ln() - target).abs();
    (0..stops.len()).min_by(|&a, &b| distance(&stops[a]).total_cmp(&distance(&stops[b]))).unwrap_or(0)
}
