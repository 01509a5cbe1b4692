//! The accuracy view as the page prints it: the table's headers and each row's cells (the CSV's
//! too), the class words, the filters' options and what a select's value means, and the lines of
//! each class's and each way of holding out's coverage and median |error| over the rows shown.

use crate::core::calibration::accuracy::{
    batch_of, distinct, model_key, AccuracyRow, Class, ClassStats, Filter, HoldOutStats, Quantity,
};
use crate::core::calibration::coverage::HoldOut;
use crate::core::calibration::Engine;
use crate::core::presets::{gpu_by_id, model_by_id};
use crate::view::format::references::signed_percent;
use crate::view::format::{ms, percent, significant, thousands};

/// The table's columns, in order (the CSV's headers).
pub const HEADERS: [&str; 13] = [
    "Row",
    "Source, date",
    "GPU",
    "Engine and release",
    "Model (weights)",
    "Batch (concurrency)",
    "Measures",
    "Measured",
    "Predicted",
    "Likely range",
    "Inside",
    "Error",
    "Class",
];

/// The value of a filter's "All" option.
pub const ALL: &str = "all";

/// The word a row's class prints as in the table.
pub fn class_word(class: Class) -> &'static str {
    match class {
        Class::Fitted => "fitted",
        Class::TimeSplit => "time split",
        Class::LeftOut => "left out",
        Class::GpuLeftOut => "GPU left out",
        Class::Checked => "checked",
        Class::NotPriced => "not priced",
    }
}

/// A class as its filter option and its coverage line name it.
pub fn class_label(class: Class) -> &'static str {
    match class {
        Class::Fitted => "Fitted (in sample)",
        Class::TimeSplit => "Time split (out of sample)",
        Class::LeftOut => "Left out (out of sample)",
        Class::GpuLeftOut => "GPU left out (out of sample)",
        Class::Checked => "Checked (throughput, not fitted)",
        Class::NotPriced => "Not priced",
    }
}

/// The GPU's preset name, or its id where it is no preset.
pub fn gpu_name(gpu_id: &'static str) -> &'static str {
    gpu_by_id(gpu_id).map_or(gpu_id, |g| g.name)
}

/// The model a row is filtered by, as named: its preset's name, or the source's name.
pub fn model_name(key: &'static str) -> &'static str {
    model_by_id(key).map_or(key, |m| m.name)
}

/// A value in the quantity's units as printed: TPOT in ms, tokens/s whole.
fn value(quantity: Quantity, x: f64) -> String {
    match quantity {
        Quantity::TpotS => ms(x),
        Quantity::OutputTokensPerS => thousands(x),
    }
}

/// One row's cells, in [`HEADERS`] order ("—" where a row has no such value).
pub fn cells(row: &AccuracyRow) -> [String; 13] {
    let p = &row.point;
    let dash = || "—".to_string();
    let batch = match (batch_of(p), p.concurrency) {
        (Some(b), _) => thousands(f64::from(b)),
        (None, Some(c)) => significant(c),
        (None, None) => dash(),
    };
    let q = row.quantity;
    let measures = match q {
        Quantity::TpotS => "TPOT (ms)",
        Quantity::OutputTokensPerS => "output tokens/s",
    };
    [
        p.id.to_string(),
        format!("{}, {}", p.source, p.date),
        format!("{} × {}, {}", p.gpus, gpu_name(p.gpu_id), p.parallelism().label()),
        p.engine_label.to_string(),
        format!("{} ({})", model_name(model_key(p)), p.weight_precision.label()),
        batch,
        measures.to_string(),
        row.measured.map_or_else(dash, |m| value(q, m)),
        row.priced.map_or_else(dash, |pr| value(q, pr.predicted)),
        row.range().map_or_else(dash, |(lo, hi)| format!("{}–{}", value(q, lo), value(q, hi))),
        row.inside().map_or_else(dash, |i| if i { "yes" } else { "no" }.to_string()),
        row.error().map_or_else(dash, signed_percent),
        class_word(row.class).to_string(),
    ]
}

/// A filter's options as (value, label), "All" first: the GPUs, engines and models of `rows` in
/// their order, and every class.
pub struct Options {
    pub gpus: Vec<(String, String)>,
    pub engines: Vec<(String, String)>,
    pub models: Vec<(String, String)>,
    pub classes: Vec<(String, String)>,
}

pub fn options(rows: &[AccuracyRow]) -> Options {
    let all = || (ALL.to_string(), "All".to_string());
    let with_all = |v: Vec<(String, String)>| std::iter::once(all()).chain(v).collect();
    let pair = |id: &str, label: &str| (id.to_string(), label.to_string());
    Options {
        gpus: with_all(distinct(rows, |r| r.point.gpu_id).iter().map(|g| pair(g, gpu_name(g))).collect()),
        engines: with_all(
            distinct(rows, |r| r.point.engine).iter().map(|e| pair(e.id(), e.name())).collect(),
        ),
        models: with_all(
            distinct(rows, |r| model_key(&r.point)).iter().map(|m| pair(m, model_name(m))).collect(),
        ),
        classes: with_all(Class::ALL.iter().map(|c| pair(c.id(), class_label(*c))).collect()),
    }
}

/// The filter the four selects' values (`all` or an option's value) ask for.
pub fn filter_of(gpu: &str, engine: &str, model: &str, class: &str) -> Filter {
    let picked = |v: &str| (v != ALL && !v.is_empty()).then(|| v.to_string());
    Filter {
        gpu_id: picked(gpu),
        engine: picked(engine).and_then(|e| Engine::from_id(&e)),
        model: picked(model),
        class: picked(class).and_then(|c| Class::from_id(&c)),
    }
}

/// "Showing 12 of 81 published measurements."
pub fn count_text(shown: usize, total: usize) -> String {
    let noun = if total == 1 { "measurement" } else { "measurements" };
    format!("Showing {} of {} published {noun}.", thousands(shown as f64), thousands(total as f64))
}

/// A class's line over the rows shown: "Time split (out of sample): 14 of 30 inside the likely
/// range (46.7%), median |error| 20.3%."; a class without priced rows says how many rows it has.
pub fn stats_line(s: &ClassStats) -> String {
    let label = class_label(s.class);
    match (s.coverage(), s.median_abs_error) {
        (Some(coverage), Some(error)) => format!(
            "{label}: {} of {} inside the likely range ({}), median |error| {}.",
            s.inside,
            s.priced,
            percent(coverage),
            percent(error)
        ),
        _ => {
            let noun = if s.rows == 1 { "row" } else { "rows" };
            format!("{label}: {} {noun}, no prediction.", s.rows)
        }
    }
}

/// One way of holding out's line over the rows shown, each held-out prediction counted: "Every
/// fitted row with its group left out: 43 of 52 inside the range it had (82.7%), median |error| 7.1%."
pub fn hold_out_line(s: &HoldOutStats) -> String {
    let how = match s.hold_out {
        HoldOut::TimeSplit => "Every fitted row dated after the time split, predicted from the earlier ones",
        HoldOut::LeftOut => {
            "Every fitted row predicted with its group (GPU family and engine release) left out"
        }
        HoldOut::GpuLeftOut => "Every fitted row predicted with its GPU left out",
    };
    match (s.coverage(), s.median_abs_error) {
        (Some(coverage), Some(error)) => format!(
            "{how}: {} of {} inside the range it had ({}), median |error| {}.",
            s.inside,
            s.predictions,
            percent(coverage),
            percent(error)
        ),
        _ => format!("{how}: none among the rows shown."),
    }
}
