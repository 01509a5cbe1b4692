//! Numeric controls as the URL and the page see them: key, label, display unit, range, and the one
//! place display units (ms, %, GB, TB/s) convert to base units (s, fractions, bytes, bytes/s).

use super::{Aim, Inputs, Notice};
use crate::core::roofline::CustomCalibration;

/// A numeric control: its URL key, label, display unit and range (in display units), and the base
/// units one display unit is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberField {
    pub key: &'static str,
    pub label: &'static str,
    /// Display unit, as printed after the number (`ms`, `%`, `tokens`).
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    /// Only whole numbers are accepted.
    pub whole: bool,
    /// Base units per display unit: 1e-3 for ms -> s, 0.01 for % -> fraction, 1e9 for GB -> B.
    pub scale: f64,
}

impl NumberField {
    pub(crate) const fn new(
        key: &'static str,
        label: &'static str,
        unit: &'static str,
        range: (f64, f64),
    ) -> Self {
        NumberField { key, label, unit, min: range.0, max: range.1, whole: false, scale: 1.0 }
    }

    pub(crate) const fn whole(self) -> Self {
        NumberField { whole: true, ..self }
    }

    pub(crate) const fn scaled(self, scale: f64) -> Self {
        NumberField { scale, ..self }
    }

    /// Display value -> base units. Counts of bytes, bytes/s, FLOP/s and parameters are whole
    /// numbers, so large scales round to one (8.03 billion is 8,030,000,000, not 8,029,999,999.999999).
    pub fn to_base(&self, display: f64) -> f64 {
        let base = display * self.scale;
        if self.scale >= 1e3 {
            base.round()
        } else {
            base
        }
    }

    /// Base units -> display value.
    pub fn to_display(&self, base: f64) -> f64 {
        base / self.scale
    }

    /// The raw text validated into base units: the default when absent, the default plus a notice
    /// when malformed, clamped into range with a notice when outside it.
    pub fn read(&self, raw: Option<&str>, default_base: f64, notices: &mut Vec<Notice>) -> f64 {
        self.read_within(raw, default_base, (self.min, self.max), notices)
    }

    /// As [`NumberField::read`] with a narrower display range.
    pub fn read_within(
        &self,
        raw: Option<&str>,
        default_base: f64,
        range: (f64, f64),
        notices: &mut Vec<Notice>,
    ) -> f64 {
        self.read_noted(raw, default_base, range, None, notices)
    }

    /// As [`NumberField::read`] with the top of the range lowered to `cap` (display units) for a
    /// reason the notice gives when it clamps a value down to the cap (a model's own maximum
    /// context: "the most Gemma 2 9B accepts").
    pub fn read_capped(
        &self,
        raw: Option<&str>,
        default_base: f64,
        (cap, reason): (f64, &str),
        notices: &mut Vec<Notice>,
    ) -> f64 {
        let note = (cap < self.max).then_some(reason);
        self.read_noted(raw, default_base, (self.min, cap.min(self.max)), note, notices)
    }

    /// The reading behind [`NumberField::read_within`], with `top_note` added to the notice of a
    /// value clamped down to the top of `range`.
    fn read_noted(
        &self,
        raw: Option<&str>,
        default_base: f64,
        range: (f64, f64),
        top_note: Option<&str>,
        notices: &mut Vec<Notice>,
    ) -> f64 {
        let default = self.to_display(default_base).clamp(range.0, range.1);
        let Some(text) = raw else {
            let inside = (range.0..=range.1).contains(&self.to_display(default_base));
            return if inside { default_base } else { self.to_base(default) };
        };
        let cleaned = text.trim().replace([',', '_'], "");
        let parsed =
            cleaned.parse::<f64>().ok().filter(|x| x.is_finite() && (!self.whole || x.fract() == 0.0));
        let Some(x) = parsed else {
            let message = format!(
                "{}={} is not {}; using {}.",
                self.key,
                quoted(text),
                self.expected(),
                self.with_unit(default)
            );
            notices.push(Notice { key: self.key, message });
            return self.to_base(default);
        };
        let used = x.clamp(range.0, range.1);
        if used != x {
            let note = top_note.filter(|_| x > range.1).map_or(String::new(), |why| format!(", {why}"));
            let message = format!(
                "{}={} is outside {}–{}{note}; using {}.",
                self.key,
                compact(x),
                trim_decimal(range.0),
                self.with_unit(range.1),
                self.with_unit(used)
            );
            notices.push(Notice { key: self.key, message });
        }
        self.to_base(used)
    }

    /// The value in base units written as the URL carries it (display units, at most 3 decimals).
    pub fn write(&self, base: f64) -> String {
        trim_decimal(self.to_display(base))
    }

    pub(crate) fn expected(&self) -> String {
        if self.whole && self.unit.is_empty() {
            "a whole number".to_string()
        } else if self.whole {
            format!("a whole number of {}", self.unit)
        } else if self.unit.is_empty() {
            "a number".to_string()
        } else {
            format!("a number ({})", self.unit)
        }
    }

    /// A display value with this field's unit (`10 ms`, `90%`, `$2.5/GPU-hour`); a count of one
    /// in the singular (`1 token`).
    pub fn with_unit(&self, x: f64) -> String {
        let singular = if self.whole && x == 1.0 { self.unit.strip_suffix('s') } else { None };
        match singular.unwrap_or(self.unit) {
            "%" => format!("{}%", trim_decimal(x)),
            "$/GPU-hour" => format!("${}/GPU-hour", trim_decimal(x)),
            "" | "×" => format!("{}{}", trim_decimal(x), self.unit),
            unit => format!("{} {unit}", trim_decimal(x)),
        }
    }
}

/// A numeric control bound to its place in the inputs: the field (URL key, label, unit, range) and
/// how to read its value (base units) from the inputs and write one back, so a widget given it needs
/// nothing else.
#[derive(Clone, Copy)]
pub struct InputField {
    pub field: NumberField,
    pub get: fn(&Inputs) -> f64,
    pub set: fn(&mut Inputs, f64),
}

impl NumberField {
    /// This field bound to the inputs through `get` and `set`.
    pub const fn bound(self, get: fn(&Inputs) -> f64, set: fn(&mut Inputs, f64)) -> InputField {
        InputField { field: self, get, set }
    }
}

/// Realistic mode's calibration with `f` applied, when realistic mode is on (else unchanged).
fn calibrate(inputs: &mut Inputs, f: impl FnOnce(&mut CustomCalibration)) {
    if let Some(mut calibration) = inputs.realistic() {
        f(&mut calibration);
        inputs.set_realistic(Some(calibration));
    }
}

/// The calibration a slider shows: realistic mode's, or its starting point while it is off.
fn shown_calibration(inputs: &Inputs) -> CustomCalibration {
    inputs.realistic().unwrap_or(CustomCalibration::REALISTIC_DEFAULT)
}

/// [`UTIL`] in the scenario.
pub const UTIL_INPUT: InputField =
    UTIL.bound(|i| i.scenario.memory_utilization, |i, v| i.scenario.memory_utilization = v);
/// [`TPOT`] in the scenario.
pub const TPOT_INPUT: InputField =
    TPOT.bound(|i| i.scenario.tpot_target_s, |i, v| i.scenario.tpot_target_s = v);
/// [`MBU`] in realistic mode's calibration.
pub const MBU_INPUT: InputField = MBU.bound(|i| shown_calibration(i).mbu, |i, v| calibrate(i, |c| c.mbu = v));
/// [`OVERHEAD`] in realistic mode's calibration.
pub const OVERHEAD_INPUT: InputField =
    OVERHEAD.bound(|i| shown_calibration(i).step_overhead_s, |i, v| calibrate(i, |c| c.step_overhead_s = v));
/// [`RATE`] for the capacity plan.
pub const RATE_INPUT: InputField = RATE.bound(|i| i.rate_req_per_s, |i, v| i.rate_req_per_s = v);
/// [`PRICE`] for the capacity plan: the page's GPU's price ([`Inputs::usd_per_gpu_hour`]).
pub const PRICE_INPUT: InputField = PRICE.bound(|i| i.usd_per_gpu_hour(), |i, v| i.set_usd_per_gpu_hour(v));

/// Context length held per sequence, in tokens; a model's maximum may be lower. The page sets it
/// from the prompt and the output ([`PROMPT`], [`crate::core::scenario::context_for`]); `ctx` is
/// still read from links that carry it and no `in`.
pub const CTX: NumberField =
    NumberField::new("ctx", "Context length", "tokens", (128.0, 1_048_576.0)).whole();
/// Prompt length (tokens in) per request: the workload as users state it.
pub const PROMPT: NumberField =
    NumberField::new("in", "Prompt length", "tokens", (16.0, 1_048_576.0)).whole();
/// Output tokens per request.
pub const OUT: NumberField = NumberField::new("out", "Output length", "tokens", (1.0, 16_384.0)).whole();
/// TPOT target.
pub const TPOT: NumberField = NumberField::new("tpot", "TPOT target", "ms", (1.0, 500.0)).scaled(1e-3);
/// Where the TPOT slider's track goes: 5-60 ms in 1 ms stops. The worked example's weights take
/// 4.8 ms to read, so below 5 ms no batch meets the target, and its knee reaches the KV pool (208)
/// at 21.5 ms; a longer context, FP8 weights or a larger model on TP move that range up. MLPerf's
/// interactive TPOT targets for DeepSeek-R1 (15 ms), Llama 3.1 8B (30 ms) and Llama 2 70B (40 ms)
/// lie in it. Past 60 ms only round targets (70, 100, 150 ms ...) up to 500 ms, and MLPerf
/// Llama 3.1 405B's 80 ms interactive and 175 ms server targets.
pub const TPOT_AIM_MS: Aim = Aim { lo: 5, hi: 60, step: 1, named: &[80, 175] };
/// TTFT target.
pub const TTFT: NumberField = NumberField::new("ttft", "TTFT target", "ms", (10.0, 60_000.0)).scaled(1e-3);
/// Where the TTFT slider's track goes: 100 ms-3 s in 50 ms stops, the targets chat and agents
/// state (the worked example's is 2 s, MLPerf's are 450 ms-2 s for Llama and DeepSeek-R1);
/// outside it round targets from 10 ms to 60 s, and MLPerf Llama 3.1 405B's 4.5 s interactive and
/// 6 s server targets.
pub const TTFT_AIM_MS: Aim = Aim { lo: 100, hi: 3_000, step: 50, named: &[4_500, 6_000] };
/// Share of HBM for weights plus KV.
pub const UTIL: NumberField = NumberField::new("util", "Memory utilization", "%", (10.0, 100.0)).scaled(0.01);
/// Achieved share of peak HBM bandwidth (realistic mode).
pub const MBU: NumberField =
    NumberField::new("mbu", "Achieved bandwidth (MBU)", "%", (5.0, 100.0)).scaled(0.01);
/// Fixed per-step overhead (realistic mode).
pub const OVERHEAD: NumberField =
    NumberField::new("overhead", "Overhead per step", "ms", (0.0, 20.0)).scaled(1e-3);
/// Target request rate for the capacity plan.
pub const RATE: NumberField = NumberField::new("rate", "Target load", "req/s", (0.01, 1e6));
/// Price of one GPU-hour for the capacity plan.
pub const PRICE: NumberField = NumberField::new("price", "Price", "$/GPU-hour", (0.0, 1000.0));

/// A number with at most three decimals and no trailing zeros (`10`, `7.5`).
pub fn trim_decimal(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A number as typed into a message, short whatever its size: [`trim_decimal`] from 0.001 up to a
/// trillion (and 0), else scientific with four significant digits (`3.972e307`, `-1e-9`), never a
/// 300-digit number nor one that rounds to a misleading `0`.
pub fn compact(x: f64) -> String {
    let a = x.abs();
    if a == 0.0 || (1e-3..1e12).contains(&a) {
        return trim_decimal(x);
    }
    let text = format!("{x:.3e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    format!("{mantissa}e{exponent}")
}

/// At most 40 characters of what the user typed, for quoting in a notice.
pub fn quoted(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("“{short}…”")
    } else {
        format!("“{short}”")
    }
}
