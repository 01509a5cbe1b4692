//! The accuracy view's rows: every published measurement against the measured-engines model, each
//! with its class (fitted in sample, predicted out of sample by a time split, with its group or its
//! GPU left out, only checked, or not priced), its prediction, likely range and whether the
//! measurement lies inside; the filters over them; each class's and each way of holding out's
//! coverage and median |error| ([`stats`]).
//!
//! A fitted row (TPOT at a known concurrency) with held-out predictions
//! ([`super::profile::HELD_OUT`]) is shown as one of them, in [`HOLD_OUTS`]'s order: the number a fit
//! that never saw the row gave, and the range it had. A fitted row without
//! one is the shipped profile's prediction of a row it was fitted to. A throughput row (a load point
//! or a ceiling) is the shipped profile's output tokens/s, checked, never fitted. A row the model
//! cannot price (no preset model or GPU, nothing measured) is listed with no prediction.

mod stats;

pub use stats::{class_stats, hold_out_stats, ClassStats, HoldOutStats};

use super::coverage::{HeldOutPrediction, HoldOut};
use super::predict::{predicted_output_tokens_per_s, predicted_tpot_s, scenario_of};
use super::profile::PROFILE;
use super::published::{fitted_rows, PublishedPoint, UseClass};
use super::range::likely_range;
use super::{CostModel, Engine};
use crate::presets::{gpu_by_id, model_by_id};

/// The ways a row is held out, in the order a row shown once is shown by: predicting a later row
/// from earlier ones first (every user's situation), then its group left out, then its GPU.
pub const HOLD_OUTS: [HoldOut; 3] = [HoldOut::TimeSplit, HoldOut::LeftOut, HoldOut::GpuLeftOut];

/// How a row stands to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Fitted, and predicted by the profile fitted to it (in sample).
    Fitted,
    /// Predicted by a fit on the rows dated before it.
    TimeSplit,
    /// Predicted by a fit that left its group (GPU family x engine release) out.
    LeftOut,
    /// Predicted by a fit that left its GPU out.
    GpuLeftOut,
    /// A throughput row (a load point or a ceiling): checked against the model, not fitted.
    Checked,
    /// The model cannot price it.
    NotPriced,
}

impl Class {
    /// In the order the view lists them: out of sample first.
    pub const ALL: [Class; 6] = [
        Class::TimeSplit,
        Class::LeftOut,
        Class::GpuLeftOut,
        Class::Fitted,
        Class::Checked,
        Class::NotPriced,
    ];

    /// Its id in the filter (`time-split`).
    pub fn id(self) -> &'static str {
        match self {
            Class::Fitted => "fitted",
            Class::TimeSplit => "time-split",
            Class::LeftOut => "left-out",
            Class::GpuLeftOut => "gpu-left-out",
            Class::Checked => "checked",
            Class::NotPriced => "not-priced",
        }
    }

    /// The class with this [`Class::id`].
    pub fn from_id(id: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The class of an out-of-sample prediction.
    pub fn of_hold_out(hold_out: HoldOut) -> Class {
        match hold_out {
            HoldOut::TimeSplit => Class::TimeSplit,
            HoldOut::LeftOut => Class::LeftOut,
            HoldOut::GpuLeftOut => Class::GpuLeftOut,
        }
    }
}

/// What a row's numbers measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Mean TPOT, in s.
    TpotS,
    /// Output tokens/s over all the row's GPUs.
    OutputTokensPerS,
}

/// A prediction and its likely range as factors (low, high) on a predicted time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Priced {
    pub predicted: f64,
    pub low: f64,
    pub high: f64,
}

/// One published measurement against the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AccuracyRow {
    pub point: PublishedPoint,
    pub class: Class,
    pub quantity: Quantity,
    /// The measured value (s or tokens/s), when the row has the quantity.
    pub measured: Option<f64>,
    /// The prediction and its range, for a priced row.
    pub priced: Option<Priced>,
}

impl AccuracyRow {
    /// The likely range in the quantity's units (low, high): a time t in [t x low, t x high], a rate
    /// r in [r / high, r / low].
    pub fn range(&self) -> Option<(f64, f64)> {
        let p = self.priced?;
        Some(match self.quantity {
            Quantity::TpotS => (p.predicted * p.low, p.predicted * p.high),
            Quantity::OutputTokensPerS => (p.predicted / p.high, p.predicted / p.low),
        })
    }

    /// Whether the measurement lies inside the likely range; `None` for a row not priced.
    pub fn inside(&self) -> Option<bool> {
        let measured = self.measured?;
        let (low, high) = self.range()?;
        Some(measured >= low * (1.0 - 1e-12) && measured <= high * (1.0 + 1e-12))
    }

    /// predicted / measured - 1; `None` for a row not priced.
    pub fn error(&self) -> Option<f64> {
        let measured = self.measured.filter(|m| *m > 0.0)?;
        Some(self.priced?.predicted / measured - 1.0)
    }
}

/// A run's concurrency as a batch: a whole number of at least 1.
pub fn batch_of(point: &PublishedPoint) -> Option<u32> {
    let c = point.concurrency?;
    (c >= 1.0 && c.fract() == 0.0 && c <= f64::from(u32::MAX)).then_some(c as u32)
}

/// The shipped profile's prediction of `point` under the measured engines at the row's own release
/// ([`super::transfer::Profile::run_factor`], as the page's published runs are), with the likely
/// range of its scenario: TPOT for a row with a TPOT at a known concurrency, output tokens/s for a
/// throughput row.
pub fn shipped(point: &PublishedPoint) -> Option<Priced> {
    let model = CostModel::Measured(point.engine);
    let range = likely_range(&scenario_of(point, model)?)?;
    let release = PROFILE.run_factor(point);
    let predicted = if point.use_class.fitted() {
        predicted_tpot_s(point, model)? * release
    } else {
        predicted_output_tokens_per_s(point, model)? / release
    };
    Some(Priced { predicted, low: range.low, high: range.high })
}

/// Every point of `points` against the shipped profile and the held-out predictions `held`.
pub fn rows(points: &[PublishedPoint], held: &[HeldOutPrediction]) -> Vec<AccuracyRow> {
    rows_with(points, held, shipped)
}

/// Every point against `held` and `price` (the shipped profile's prediction, or a test's).
pub fn rows_with(
    points: &[PublishedPoint],
    held: &[HeldOutPrediction],
    price: impl Fn(&PublishedPoint) -> Option<Priced>,
) -> Vec<AccuracyRow> {
    points.iter().map(|p| row_of(p, held, &price)).collect()
}

/// Whether the fit uses `point`'s TPOT ([`fitted_rows`]'s rule).
pub(crate) fn is_fitted(point: &PublishedPoint) -> bool {
    !fitted_rows(std::slice::from_ref(point)).is_empty()
}

/// Whether the model has `point`'s model and GPU as presets.
fn has_presets(point: &PublishedPoint) -> bool {
    !point.model_id.is_empty() && model_by_id(point.model_id).is_some() && gpu_by_id(point.gpu_id).is_some()
}

fn row_of(
    point: &PublishedPoint,
    held: &[HeldOutPrediction],
    price: &impl Fn(&PublishedPoint) -> Option<Priced>,
) -> AccuracyRow {
    let fitted = is_fitted(point);
    let (quantity, measured) = if fitted || point.use_class.fitted() {
        (Quantity::TpotS, point.tpot_s)
    } else {
        (Quantity::OutputTokensPerS, point.output_tokens_per_s)
    };
    let not_priced = AccuracyRow { point: *point, class: Class::NotPriced, quantity, measured, priced: None };
    // Throughput rows, and TPOT rows the fit leaves to the wide-EP fit (an all-to-all), are checked.
    let checked = matches!(point.use_class, UseClass::Load | UseClass::Ceiling)
        || (point.use_class.fitted() && point.concurrency.is_some() && !point.speculative);
    if !has_presets(point) || measured.is_none() || !(fitted || checked) {
        return not_priced;
    }
    let out_of_sample = HOLD_OUTS
        .into_iter()
        .find_map(|h| held.iter().find(|p| p.id == point.id && p.hold_out == h))
        .filter(|_| fitted);
    let (class, priced) = match out_of_sample {
        Some(h) => {
            let priced = Priced { predicted: h.predicted_tpot_s, low: h.low, high: h.high };
            (Class::of_hold_out(h.hold_out), Some(priced))
        }
        None => (if fitted { Class::Fitted } else { Class::Checked }, price(point)),
    };
    match priced {
        Some(priced) => AccuracyRow { class, priced: Some(priced), ..not_priced },
        None => not_priced,
    }
}

/// The view's filters; `None` lets every row through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub gpu_id: Option<String>,
    pub engine: Option<Engine>,
    /// A row's [`model_key`].
    pub model: Option<String>,
    pub class: Option<Class>,
}

impl Filter {
    pub fn lets_through(&self, row: &AccuracyRow) -> bool {
        let p = &row.point;
        self.gpu_id.as_deref().is_none_or(|g| g == p.gpu_id)
            && self.engine.is_none_or(|e| e == p.engine)
            && self.model.as_deref().is_none_or(|m| m == model_key(p))
            && self.class.is_none_or(|c| c == row.class)
    }

    /// The rows of `rows` it lets through, in order.
    pub fn apply<'a>(&self, rows: &'a [AccuracyRow]) -> Vec<&'a AccuracyRow> {
        rows.iter().filter(|r| self.lets_through(r)).collect()
    }
}

/// The model a row is filtered by: the preset it is priced with, or the source's name for a row
/// priced with none.
pub fn model_key(point: &PublishedPoint) -> &'static str {
    if point.model_id.is_empty() {
        point.model_label
    } else {
        point.model_id
    }
}

/// The distinct values `key` takes over `rows`, in their first row's order.
pub fn distinct<T: PartialEq>(rows: &[AccuracyRow], key: impl Fn(&AccuracyRow) -> T) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for r in rows {
        let k = key(r);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}
