//! How well a profile predicts the published measurements: each row's error, their summary (the
//! cross-validation is [`super::crossval`]), and the throughput rows (load points and ceilings) checked, not fitted.

use super::fit::{fitted_rows, predict_with};
use super::predict::predicted_output_tokens_per_s;
use super::predict::scenario_of;
use super::published::{PublishedPoint, UseClass};
use super::transfer::{median, Profile};
use super::CostModel;

/// One row's measured and predicted value (TPOT in s, or output tokens/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowError {
    pub id: &'static str,
    pub gpu_id: &'static str,
    pub measured: f64,
    pub predicted: f64,
}

/// Half of the last printed digit of a published offline maximum (whole tokens/s): a true maximum
/// lies within it of the figure.
pub const CEILING_PRECISION_TOKENS_PER_S: f64 = 0.5;

impl RowError {
    /// For an offline maximum: the prediction exceeds it beyond its printed precision.
    pub fn exceeds_ceiling(&self) -> bool {
        self.predicted > self.measured + CEILING_PRECISION_TOKENS_PER_S
    }

    /// predicted / measured - 1.
    pub fn error(&self) -> f64 {
        self.predicted / self.measured - 1.0
    }
}

/// Median and worst |error| over `count` rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub median_abs_error: f64,
    pub worst_abs_error: f64,
}

pub fn summarize(rows: &[RowError]) -> Summary {
    let mut abs: Vec<f64> = rows.iter().map(|r| r.error().abs()).collect();
    Summary {
        count: rows.len(),
        median_abs_error: median(&mut abs).unwrap_or(0.0),
        worst_abs_error: abs.iter().fold(0.0, |m: f64, v| m.max(*v)),
    }
}

/// Every fitted row's TPOT against `profile`'s prediction.
pub fn tpot_errors(points: &[PublishedPoint], profile: &Profile) -> Vec<RowError> {
    fitted_rows(points)
        .into_iter()
        .map(|r| RowError {
            id: r.id,
            gpu_id: r.gpu_id,
            measured: r.tpot_s.unwrap_or(0.0),
            predicted: predict_with(profile, r),
        })
        .collect()
}

/// The throughput rows (MLPerf load points, offline ceilings): measured output tokens/s against the
/// model's ([`predicted_output_tokens_per_s`]) at the row's release ([`Profile::run_factor`]).
pub fn throughput_checks(points: &[PublishedPoint], profile: &Profile) -> Vec<RowError> {
    points
        .iter()
        .filter(|p| matches!(p.use_class, UseClass::Load | UseClass::Ceiling))
        .filter_map(|p| {
            let scenario = scenario_of(p, CostModel::Ideal)?;
            let terms = CostModel::Terms(profile.terms(&scenario, p.engine));
            Some(RowError {
                id: p.id,
                gpu_id: p.gpu_id,
                measured: p.output_tokens_per_s?,
                predicted: predicted_output_tokens_per_s(p, terms)? / profile.run_factor(p),
            })
        })
        .collect()
}
