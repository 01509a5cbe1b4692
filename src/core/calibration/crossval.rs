//! Cross-validation as a procedure: each fitted row predicted by a profile fitted without it (leave
//! one row out), without its GPU (leave one GPU out) and without its engine (leave one engine out),
//! with each held-out row's coverage class as the page would see it, and the summaries (median, p90,
//! worst |error|) overall, per GPU and per engine.

use super::bounds::{Family, Stack};
use super::coverage::{coverage_of, Coverage};
use super::fit::{fit_with, fitted_rows};
use super::published::PublishedPoint;
use super::report::{tpot_errors, RowError};
use super::transfer::median;

/// The cross-validation schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    InSample,
    LeaveOneRowOut,
    LeaveOneGpuOut,
    LeaveOneEngineOut,
}

impl Scheme {
    pub const ALL: [Scheme; 4] =
        [Scheme::InSample, Scheme::LeaveOneRowOut, Scheme::LeaveOneGpuOut, Scheme::LeaveOneEngineOut];

    pub fn name(self) -> &'static str {
        match self {
            Scheme::InSample => "in-sample",
            Scheme::LeaveOneRowOut => "leave-one-row-out",
            Scheme::LeaveOneGpuOut => "leave-one-GPU-out",
            Scheme::LeaveOneEngineOut => "leave-one-engine-out",
        }
    }
}

/// A held-out row's error with the coverage class its prediction had.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Held {
    pub error: RowError,
    pub coverage: Coverage,
    /// The row's engine release: with its GPU's family, the group its residual is drawn with.
    pub release: &'static str,
}

impl Held {
    /// The software stack of the row's GPU: its range is read among that stack's rows.
    pub fn stack(&self) -> Stack {
        Family::of(self.error.gpu_id).stack()
    }

    /// The row's group: its GPU family and engine release (what a new release changes together).
    pub fn group(&self) -> (Family, &'static str) {
        group_key(self.error.gpu_id, self.release)
    }
}

/// A published row's group: its GPU's family and its engine release, the unit a new release moves
/// together (left out together by [`super::holdout`], one draw in [`super::range`]).
pub fn group_key(gpu_id: &str, release: &'static str) -> (Family, &'static str) {
    (Family::of(gpu_id), release)
}

/// Every fitted row predicted under `scheme`, in the data's order within each held-out group.
pub fn cross_validate(points: &[PublishedPoint], scheme: Scheme) -> Vec<Held> {
    cross_validate_with(points, scheme, true)
}

/// [`cross_validate`] with or without the release trend ([`super::fit::fit_with`]).
pub fn cross_validate_with(points: &[PublishedPoint], scheme: Scheme, trend: bool) -> Vec<Held> {
    let groups: Vec<Vec<&'static str>> = match scheme {
        Scheme::InSample => vec![Vec::new()],
        Scheme::LeaveOneRowOut => fitted_rows(points).iter().map(|r| vec![r.id]).collect(),
        Scheme::LeaveOneGpuOut => group_ids(points, |p| p.gpu_id),
        Scheme::LeaveOneEngineOut => group_ids(points, |p| p.engine.name()),
    };
    let mut out = Vec::new();
    for ids in groups {
        let (rest, held): (Vec<PublishedPoint>, Vec<PublishedPoint>) =
            points.iter().partition(|p| !ids.contains(&p.id));
        let held = if scheme == Scheme::InSample { points.to_vec() } else { held };
        let fitted = fit_with(&rest, trend);
        let profile = fitted.profile();
        for error in tpot_errors(&held, &profile) {
            let Some(row) = held.iter().find(|p| p.id == error.id) else { continue };
            out.push(Held { error, coverage: coverage_of(&profile, &rest, row), release: row.release });
        }
    }
    out
}

/// The ids of every row (fitted or a throughput bound) grouped by `key` (a GPU, an engine), one group
/// per key a fitted row has, in order of first appearance: leaving a GPU out leaves its offline
/// maxima out too.
fn group_ids(
    points: &[PublishedPoint],
    key: impl Fn(&PublishedPoint) -> &'static str,
) -> Vec<Vec<&'static str>> {
    let mut keys: Vec<&'static str> = Vec::new();
    for row in fitted_rows(points) {
        if !keys.contains(&key(row)) {
            keys.push(key(row));
        }
    }
    keys.into_iter().map(|k| points.iter().filter(|p| key(p) == k).map(|p| p.id).collect()).collect()
}

/// Median, 90th percentile and worst |error| over `count` rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub count: usize,
    pub median_abs_error: f64,
    pub p90_abs_error: f64,
    pub worst_abs_error: f64,
}

pub fn spread(rows: &[RowError]) -> Spread {
    let mut abs: Vec<f64> = rows.iter().map(|r| r.error().abs()).collect();
    abs.sort_by(f64::total_cmp);
    Spread {
        count: rows.len(),
        median_abs_error: median(&mut abs.clone()).unwrap_or(0.0),
        p90_abs_error: quantile(&abs, 0.9),
        worst_abs_error: abs.last().copied().unwrap_or(0.0),
    }
}

/// The `q` quantile of sorted `values` by linear interpolation between order statistics (0 if empty).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n => {
            let at = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
            sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo as f64)
        }
    }
}

/// The rows' spread per value of `key` (a GPU id, an engine's name), in order of first appearance.
pub fn spread_by(
    points: &[PublishedPoint],
    held: &[Held],
    key: impl Fn(&PublishedPoint) -> &'static str,
) -> Vec<(&'static str, Spread)> {
    let mut keys: Vec<&'static str> = Vec::new();
    for h in held {
        if let Some(p) = points.iter().find(|p| p.id == h.error.id) {
            if !keys.contains(&key(p)) {
                keys.push(key(p));
            }
        }
    }
    keys.into_iter()
        .map(|k| {
            let rows: Vec<RowError> = held
                .iter()
                .filter(|h| points.iter().any(|p| p.id == h.error.id && key(p) == k))
                .map(|h| h.error)
                .collect();
            (k, spread(&rows))
        })
        .collect()
}

/// The engines' names, for [`spread_by`].
pub fn engine_name(p: &PublishedPoint) -> &'static str {
    p.engine.name()
}

/// Every scheme's held-out predictions, by [`Scheme::ALL`]'s order.
pub fn all_schemes(points: &[PublishedPoint]) -> Vec<(Scheme, Vec<Held>)> {
    Scheme::ALL.iter().map(|&s| (s, cross_validate(points, s))).collect()
}

/// The held-out predictions the likely ranges are read from: every scheme's but in-sample.
pub fn out_of_sample(schemes: &[(Scheme, Vec<Held>)]) -> Vec<Held> {
    schemes.iter().filter(|(s, _)| *s != Scheme::InSample).flat_map(|(_, h)| h.iter().copied()).collect()
}
