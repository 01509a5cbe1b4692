//! The published measurements the measured profile is fitted to and checked against, as typed rows
//! ([`POINTS`], generated from `data/calibration.csv` by `cargo run --bin calibrate`), and how each
//! row is used.

mod data;

use serde::{Deserialize, Serialize};

use super::Engine;
use crate::core::precision::Precision;
use crate::core::roofline::Scenario;
pub use data::POINTS;

/// How a row enters the calibration, from its `use_class` and whether its batch is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UseClass {
    /// `A_step`: a decode step at a known batch (closed loop at a low concurrency): fitted.
    Step,
    /// `B_curve` at a client concurrency: a closed-loop point under load: fitted (see
    /// [`super::predict`]).
    Curve,
    /// `B_curve` whose concurrency is a Little's-law estimate over a whole system (MLPerf): its
    /// throughput at its TPOT is checked, not fitted.
    Load,
    /// `C_ceiling`: an offline maximum, an upper bound: the model's ceiling is checked against it.
    Ceiling,
}

impl UseClass {
    /// Rows whose TPOT the fit uses.
    pub fn fitted(self) -> bool {
        matches!(self, UseClass::Step | UseClass::Curve)
    }
}

/// One published operating point, mapped onto the page's presets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedPoint {
    /// The row's id in the data (`GPS-01`).
    pub id: &'static str,
    /// Who published it.
    pub source: &'static str,
    /// The publication's date (YYYY-MM-DD).
    pub date: &'static str,
    pub engine: Engine,
    /// The engine as the source names it, with its version.
    pub engine_label: &'static str,
    /// The model as the source names it.
    pub model_label: &'static str,
    /// The preset it is priced with (an architecture twin where the exact model is not a preset).
    pub model_id: &'static str,
    pub gpu_id: &'static str,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
    pub tp: u32,
    /// GPUs the row's throughput counts.
    pub gpus: u32,
    pub use_class: UseClass,
    /// The client's concurrency (the decode batch) when known.
    pub concurrency: Option<f64>,
    /// Mean prompt and answer lengths, in tokens.
    pub isl_mean: f64,
    pub osl_mean: f64,
    /// Mean TPOT, in s, when measured.
    pub tpot_s: Option<f64>,
    /// Output tokens/s over all `gpus`, when measured.
    pub output_tokens_per_s: Option<f64>,
}

/// The indices in [`POINTS`] of the priced points that match a scenario's model, GPU, weight
/// precision and TP (the page's references).
pub fn matching(scenario: &Scenario) -> Vec<usize> {
    (0..POINTS.len())
        .filter(|&i| {
            let p = &POINTS[i];
            !p.model_id.is_empty()
                && p.model_id == scenario.model.id
                && p.gpu_id == scenario.gpu.id
                && p.weight_precision == scenario.weight_precision
                && p.tp == scenario.tp
        })
        .collect()
}
