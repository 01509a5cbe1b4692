//! The published measurements' table and read-out as the page prints them: each reference's source,
//! engine, date, its lengths and concurrency, measured and predicted TPOT and the error.

use crate::core::calibration::references::Reference;
use crate::core::calibration::CostModel;
use crate::core::scenario::Scenario;
use crate::view::format::{fixed, ms, thousands};

/// The table's columns, in order.
pub const HEADERS: [&str; 6] = ["Run", "Batch", "In / out (tokens)", "Measured (ms)", "Model (ms)", "Error"];

/// A signed percentage with one decimal (`+12.7%`, `-0.3%`).
pub fn signed_percent(share: f64) -> String {
    let sign = if share >= 0.0 { "+" } else { "-" };
    format!("{sign}{}%", fixed(100.0 * share.abs(), 1))
}

/// One reference's cells, in [`HEADERS`] order; the run is "GPS-03: vLLM v0.11.0, GPUStack
/// performance lab, 2025-10/11 (doc)".
pub fn row(r: &Reference) -> [String; 6] {
    let p = r.point();
    [
        format!("{}: {}, {}, {}{}", p.id, p.engine_label, p.source, p.date, other_engine(r)),
        thousands(f64::from(r.batch)),
        format!("{} / {}", thousands(p.isl_mean.round()), thousands(p.osl_mean.round())),
        ms(r.tpot_s),
        ms(r.predicted_tpot_s),
        signed_percent(r.error()),
    ]
}

/// " (another engine than the chosen one)" for a run of another engine, else "".
fn other_engine(r: &Reference) -> &'static str {
    if r.other_engine {
        " (another engine than the chosen one)"
    } else {
        ""
    }
}

/// The table's caption: what the rows are and which cost model predicted them.
pub fn caption(scenario: &Scenario, model_name: &str) -> String {
    format!(
        "Published TPOT of {} on {} × {} ({} weights) beside the page's cost model ({}), at each run's own lengths \
         and concurrency",
        scenario.model.name,
        scenario.parallel.gpus(),
        scenario.gpu.name,
        scenario.weight_precision.label(),
        model_name
    )
}

/// The read-out's line for a reference at the shown batch: "Published GPS-03, GPUStack performance
/// lab, vLLM v0.11.0: 7.38 ms (model 7.45 ms)".
pub fn readout_line(r: &Reference) -> String {
    let p = r.point();
    format!(
        "Published {}, {}, {}{}: {} ms (model {} ms)",
        p.id,
        p.source,
        p.engine_label,
        other_engine(r),
        ms(r.tpot_s),
        ms(r.predicted_tpot_s)
    )
}

/// Under the measured engines, what the runs say of the chosen engine: "No published run of vLLM on
/// H200 SXM in this configuration: …" when none of them is the chosen engine's; `None` otherwise.
pub fn engine_note(scenario: &Scenario, references: &[Reference]) -> Option<String> {
    let CostModel::Measured(engine) = scenario.calibration else { return None };
    if references.is_empty() || references.iter().any(|r| !r.other_engine) {
        return None;
    }
    Some(format!(
        "No published run of {} on {} in this configuration: the runs listed are of other engines, each \
         predicted with its own engine's terms.",
        engine.name(),
        scenario.gpu.name
    ))
}
