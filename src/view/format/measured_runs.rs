//! The measured-runs comparison as the panel prints it: the caption naming the model (and that it
//! stands in for the page's cost model), each run's cells and the summary line.

use crate::core::calibration::Engine;
use crate::core::measured_runs::{RunComparison, RunRow};
use crate::view::format::references::signed_percent;
use crate::view::format::{fixed, ms, thousands};

/// The table's columns, in order.
pub const HEADERS: [&str; 7] = [
    "Batch",
    "In / out (tokens)",
    "Measured (ms)",
    "Model (ms)",
    "Likely range (ms)",
    "Error",
    "Inside the range",
];

/// What marks a row priced at the page's lengths.
pub const PAGE_LENGTHS: &str = "page's lengths";

/// “Measured engines (vLLM)”.
pub fn model_name(engine: Engine) -> String {
    format!("Measured engines ({})", engine.name())
}

/// The caption: the model, and why it is not the page's cost model when it is not.
pub fn caption(c: &RunComparison, page_model: &str) -> String {
    let model = model_name(c.engine);
    let stand_in = if c.substituted {
        format!(" The page's cost model is {page_model}; this table uses {model}, the calibrated model.")
    } else {
        String::new()
    };
    format!(
        "Your runs beside the model ({model}): its closed-loop TPOT at each run's concurrency and mean lengths, \
         and the error (model / measured − 1).{stand_in}"
    )
}

/// A mean length as printed: a whole number of tokens (`1,792`).
fn tokens(x: f64) -> String {
    thousands(x.round())
}

/// One row's cells, in [`HEADERS`] order.
pub fn row(r: &RunRow) -> [String; 7] {
    let mark = if r.page_lengths { format!(" ({PAGE_LENGTHS})") } else { String::new() };
    [
        thousands(f64::from(r.batch)),
        format!("{} / {}{mark}", tokens(r.isl_tokens_mean), tokens(r.osl_tokens_mean)),
        ms(r.tpot_s),
        ms(r.predicted_tpot_s),
        format!("{}–{}", ms(r.likely_tpot_s.0), ms(r.likely_tpot_s.1)),
        signed_percent(r.error()),
        if r.inside() { "yes" } else { "no" }.to_string(),
    ]
}

/// “6 runs: median |error| 3.1%, worst 7.4% (batch 128).”, or none without runs.
pub fn summary(c: &RunComparison) -> Option<String> {
    let s = c.summary?;
    let worst_batch = c
        .rows
        .get(s.worst_row)
        .map_or(String::new(), |r| format!(" (batch {})", thousands(f64::from(r.batch))));
    Some(format!(
        "{} run{}: median |error| {}%, worst {}%{worst_batch}; {} of {} inside the model's likely range.",
        thousands(s.count as f64),
        if s.count == 1 { "" } else { "s" },
        fixed(100.0 * s.median_abs_error, 1),
        fixed(100.0 * s.worst_abs_error, 1),
        thousands(s.inside as f64),
        thousands(s.count as f64)
    ))
}
