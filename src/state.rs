//! The edge: raw query or control values -> validated [`Inputs`] (plus a notice for each value that
//! was rejected), and [`Inputs`] -> query string. Past this module nothing can be invalid.

pub mod animation;
pub mod calibration;
pub mod csv_text;
pub mod custom;
pub mod drag;
pub mod energy;
pub mod fields;
pub mod fleet;
pub mod keys;
pub mod lessons;
pub mod measured;
pub mod number;
pub mod open;
pub mod parallel;
pub mod placement;
pub mod prefix;
pub mod published;
mod query;
pub mod read;
pub mod search;
pub mod sim;
pub mod spec;
mod stops;
pub mod trace;
mod validation;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::core::calibration::{CostModel, Engine};
use crate::core::energy::EnergyPrice;
use crate::core::presets::ModelSpec;
use crate::core::roofline::CustomCalibration;
use crate::core::scenario::{context_for, Scenario};
use fields::{CTX, OUT, PROMPT};
pub use query::{from_page_query, from_query, page_query, parse_raw, to_query, RawQuery, KEYS};
use read::UrlId;
pub use stops::{aimed_stops, log_stops, nearest_stop_index, Aim};
pub use validation::validate;

/// The validated state of every control, in base units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inputs {
    /// The what-if the core analyzes: model (a preset, or the spec built from the custom model's
    /// numbers, id `custom`), GPU, precisions, TP, lengths, targets, memory utilization and the
    /// cost model (the ideal roofline unless the calibration control says otherwise).
    pub scenario: Scenario,
    /// What the calibration control shows: with `Custom` and `Fit` the URL carries the scenario's
    /// calibration as `mbu` and `overhead`, even when it equals the ideal roofline's. Set it with the
    /// scenario's cost model through [`Inputs::set_realistic`], [`Inputs::set_fit`] or
    /// [`Inputs::set_measured`].
    pub calibration_choice: CalibrationChoice,
    /// Target load for the capacity plan, in requests/s.
    pub rate_req_per_s: f64,
    /// Price of one GPU-hour, in $.
    pub price_per_gpu_hour: f64,
    /// The power's price, PUE and host power per GPU (`kwh`, `pue`, `hostw`).
    pub energy: EnergyPrice,
    /// The simulator's controls.
    pub sim: sim::SimInputs,
    /// Where prefill runs, and the disaggregated split.
    pub placement: placement::PlacementInputs,
    /// The configuration search panel: open, order, filters and prices.
    pub search: search::SearchInputs,
    /// The simulator's traffic trace as the `trace` key names it (inline, or by its summary).
    pub trace: trace::url::TraceKey,
}

/// The calibration control's four choices (URL key `calib`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CalibrationChoice {
    /// "Ideal roofline": `calib=ideal`.
    Ideal,
    /// "Measured engines": the fitted profile, `calib=measured` (with `engine`).
    Measured,
    /// "Custom": MBU and overhead, `calib=custom` (or `mbu` / `overhead` alone).
    Custom,
    /// "Your measurements": the measured-data fit's MBU and overhead, `calib=fit`.
    Fit,
}

impl CalibrationChoice {
    pub const ALL: [CalibrationChoice; 4] = [
        CalibrationChoice::Ideal,
        CalibrationChoice::Measured,
        CalibrationChoice::Custom,
        CalibrationChoice::Fit,
    ];

    /// The URL id: [`UrlId::url_id`].
    pub fn id(self) -> &'static str {
        self.url_id()
    }

    /// The control's label.
    pub fn label(self) -> &'static str {
        match self {
            CalibrationChoice::Ideal => "Ideal roofline",
            CalibrationChoice::Measured => "Measured engines",
            CalibrationChoice::Custom => "Custom",
            CalibrationChoice::Fit => "Your measurements",
        }
    }

    /// The choice with this URL id: [`UrlId::from_url_id`].
    pub fn from_id(id: &str) -> Option<CalibrationChoice> {
        CalibrationChoice::from_url_id(id)
    }
}

impl UrlId for CalibrationChoice {
    const VARIANTS: &'static [CalibrationChoice] = &CalibrationChoice::ALL;

    fn url_id(self) -> &'static str {
        match self {
            CalibrationChoice::Ideal => "ideal",
            CalibrationChoice::Measured => "measured",
            CalibrationChoice::Custom => "custom",
            CalibrationChoice::Fit => "fit",
        }
    }
}

/// A value the page could not use as given, and what it used instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The query key the value came in under.
    pub key: &'static str,
    pub message: String,
}

pub use crate::core::presets::{DEFAULT_MEMORY_UTILIZATION, DEFAULT_TTFT_S};
pub use crate::core::scenario::WORKED_EXAMPLE;
/// Capacity plan default load, in requests/s: four worked-example replicas' worth.
pub const DEFAULT_RATE_REQ_PER_S: f64 = 100.0;
/// Capacity plan default price: an assumed $2.50 per GPU-hour, to be replaced by your own.
pub const DEFAULT_PRICE_PER_GPU_HOUR: f64 = 2.5;

impl Default for Inputs {
    /// The worked example, with realistic mode off and the default capacity plan and simulator.
    fn default() -> Self {
        Inputs {
            scenario: WORKED_EXAMPLE,
            calibration_choice: CalibrationChoice::Ideal,
            rate_req_per_s: DEFAULT_RATE_REQ_PER_S,
            price_per_gpu_hour: DEFAULT_PRICE_PER_GPU_HOUR,
            energy: EnergyPrice::DEFAULT,
            sim: sim::SimInputs::default(),
            placement: placement::PlacementInputs::default(),
            search: search::SearchInputs::default(),
            trace: trace::url::TraceKey::None,
        }
    }
}

impl Inputs {
    /// The custom calibration (custom or the user's measurements' fit), `None` otherwise. A custom
    /// calibration other than the ideal one counts even without the choice, so the URL always says
    /// what the core analyzes.
    pub fn realistic(&self) -> Option<CustomCalibration> {
        let custom = self.scenario.calibration.custom()?;
        let chosen = matches!(self.calibration_choice, CalibrationChoice::Custom | CalibrationChoice::Fit);
        (chosen || custom != CustomCalibration::IDEAL).then_some(custom)
    }

    /// Custom calibration with `calibration` (keeping `Fit` while the values are the fit's), or the
    /// ideal roofline with `None`.
    pub fn set_realistic(&mut self, calibration: Option<CustomCalibration>) {
        let keep_fit = self.calibration_choice == CalibrationChoice::Fit && calibration.is_some();
        self.calibration_choice = match calibration {
            Some(_) if keep_fit => CalibrationChoice::Fit,
            Some(_) => CalibrationChoice::Custom,
            None => CalibrationChoice::Ideal,
        };
        self.scenario.calibration = calibration.map_or(CostModel::Ideal, CostModel::Custom);
    }

    /// These inputs with the calibration set as [`Inputs::set_realistic`] does.
    pub fn with_realistic(mut self, calibration: Option<CustomCalibration>) -> Inputs {
        self.set_realistic(calibration);
        self
    }

    /// "Custom": these MBU and overhead values, whatever was chosen before.
    pub fn set_custom(&mut self, calibration: CustomCalibration) {
        self.calibration_choice = CalibrationChoice::Custom;
        self.scenario.calibration = CostModel::Custom(calibration);
    }

    /// "Your measurements": custom terms from the measured-data fit.
    pub fn set_fit(&mut self, calibration: CustomCalibration) {
        self.calibration_choice = CalibrationChoice::Fit;
        self.scenario.calibration = CostModel::Custom(calibration);
    }

    /// "Measured engines": the profile fitted to published measurements, with `engine`'s terms.
    pub fn set_measured(&mut self, engine: Engine) {
        self.calibration_choice = CalibrationChoice::Measured;
        self.scenario.calibration = CostModel::Measured(engine);
    }

    /// The engine of the measured profile, while it is chosen.
    pub fn engine(&self) -> Option<Engine> {
        match self.scenario.calibration {
            CostModel::Measured(e) => Some(e),
            _ => None,
        }
    }

    /// The largest context the chosen model accepts within the slider's range, in tokens.
    pub fn context_tokens_max(&self) -> u32 {
        context_tokens_max_for(&self.scenario.model)
    }

    /// The longest prompt whose context (prompt + output / 2) the model accepts, in tokens.
    pub fn prompt_tokens_max(&self) -> u32 {
        prompt_tokens_max_for(self.context_tokens_max(), self.scenario.output_tokens)
    }

    /// The prompt slider's stops: log-spaced from the field's minimum to the longest prompt the
    /// model accepts at this output (its last stop), so no part of the slider does nothing.
    pub fn prompt_stops(&self) -> Vec<u32> {
        let top = self.prompt_tokens_max();
        let mut stops = log_stops(PROMPT.min as u32, top);
        // The worked example's prompt (2,048 of context less 256 / 2) is a stop, so the slider
        // starts on it.
        let worked = WORKED_EXAMPLE.prompt_tokens();
        if worked < top && !stops.contains(&worked) {
            stops.push(worked);
            stops.sort_unstable();
        }
        stops
    }

    /// Sets the prompt (tokens in), within what the model accepts: the context follows by
    /// [`context_for`], and the shared prefix stays within it.
    pub fn set_prompt_tokens(&mut self, prompt_tokens: u32) {
        let prompt = prompt_tokens.clamp(PROMPT.min as u32, self.prompt_tokens_max());
        self.scenario.context_tokens = context_for(prompt, self.scenario.output_tokens);
        self.scenario.prefix.prefix_tokens = self.scenario.prefix.prefix_tokens.min(prompt);
    }

    /// Sets the output (tokens out) and keeps the prompt: the context follows.
    pub fn set_output_tokens(&mut self, output_tokens: u32) {
        let prompt = self.scenario.prompt_tokens();
        self.scenario.output_tokens = output_tokens.clamp(OUT.min as u32, OUT.max as u32);
        self.set_prompt_tokens(prompt);
    }

    /// These inputs with the model (the prompt clamped to what it accepts, the parallelism to what
    /// it allows).
    pub fn with_model(self, model: ModelSpec) -> Inputs {
        let prompt = self.scenario.prompt_tokens();
        let mut next = Inputs { scenario: Scenario { model, ..self.scenario }, ..self };
        next.set_prompt_tokens(prompt);
        // EP falls back to 1 on a dense model, PP to its layers.
        next.set_parallel(next.scenario.parallel);
        next
    }
}

/// A model's maximum context within the context field's range, in tokens.
fn context_tokens_max_for(model: &ModelSpec) -> u32 {
    (model.context_tokens_max as f64).clamp(CTX.min, CTX.max) as u32
}

/// The longest prompt whose context stays within `context_max` at `output_tokens`, at least the
/// prompt field's minimum.
fn prompt_tokens_max_for(context_max: u32, output_tokens: u32) -> u32 {
    context_max.saturating_sub(output_tokens / 2).max(PROMPT.min as u32)
}
