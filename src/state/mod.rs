//! The edge: raw query or control values -> validated [`Inputs`] (plus a notice for each value that
//! was rejected), and [`Inputs`] -> query string. Past this module nothing can be invalid.

pub mod animation;
pub mod custom;
pub mod fields;
pub mod keys;
pub mod lessons;
pub mod measured;
pub mod placement;
pub mod prefix;
mod query;
pub mod search;
pub mod sim;
pub mod spec;
mod stops;
mod validation;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::core::presets::ModelSpec;
use crate::core::presets::{GPUS, MODELS};
use crate::core::prefix::PrefixCache;
use crate::core::roofline::{Calibration, Precision, Scenario};
use crate::core::spec::Speculation;
use fields::CTX;
pub use query::{from_page_query, from_query, page_query, parse_raw, to_query, RawQuery, KEYS};
pub use stops::{log_stops, nearest_stop_index};
pub use validation::validate;

/// The validated state of every control, in base units.
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
    /// Where prefill runs, and the disaggregated split.
    pub placement: placement::PlacementInputs,
    /// The configuration search panel: open, order, filters and prices.
    pub search: search::SearchInputs,
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
    speculation: Speculation::OFF,
    prefix: PrefixCache::NONE,
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
            placement: placement::PlacementInputs::default(),
            search: search::SearchInputs::default(),
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
        let mut prefix = self.scenario.prefix;
        prefix.prefix_tokens = prefix.prefix_tokens.min(context_tokens);
        Inputs { scenario: Scenario { model, context_tokens, prefix, ..self.scenario }, ..self }
    }
}

/// A model's maximum context within the context field's range, in tokens.
fn context_tokens_max_for(model: &ModelSpec) -> u32 {
    (model.context_tokens_max as f64).clamp(CTX.min, CTX.max) as u32
}
