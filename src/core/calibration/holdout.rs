//! The out-of-sample procedure the likely range is read from and judged by: every fitted row predicted
//! by a fit that did not see its group (its GPU family x engine release: [`leave_group_out`]), by one
//! that did not see its GPU ([`leave_gpu_out`]) and, for rows dated on or after [`SPLIT_DATE`], by a
//! fit on the rows dated before it ([`time_split`]); each such prediction judged against a range read
//! from residuals that exclude its group, its GPU or its date ([`judge`], [`judge_time_split`]); and
//! the ranges the page ships, read from all of them ([`calibrate`]).
//!
//! Why these two: a user's question is a newer engine release, often on a GPU or a precision the data
//! hold little of. Leaving a whole release of one GPU family out asks exactly that of the data we have,
//! and the time split asks it the way it happens (older releases predict newer ones). A range read
//! from the same residuals it is judged on covers by construction; here a left-out group's rows are
//! judged by the ranges the other groups' residuals give, and the time split's rows by the ranges the
//! rows before the date give by their own leave-group-out residuals.

use super::bounds::Family;
use super::coverage::{coverage_of, ClassRange, HeldOutPrediction, HoldOut, Ranges};
use super::crossval::{cross_validate, group_key, Held, Scheme};
use super::fit::{fit, fit_with, fitted_rows, Fitted};
use super::published::PublishedPoint;
use super::range::class_ranges;
use super::report::tpot_errors;

/// Rows dated on or after this (year, month, day) are the time split's test rows: the shared data's
/// own boundary for the runs kept aside (InferenceX from 2026-03-01 on).
pub const SPLIT_DATE: (u32, u32, u32) = (2026, 3, 1);

/// A row's group: its GPU family and engine release.
pub fn group_of(p: &PublishedPoint) -> (Family, &'static str) {
    group_key(p.gpu_id, p.release)
}

/// `test`'s fitted rows predicted by a fit on `train` (with or without the release trend), each
/// with the coverage class it had.
fn predict(train: &[PublishedPoint], test: &[PublishedPoint], trend: bool) -> Vec<Held> {
    let fitted = fit_with(train, trend);
    let profile = fitted.profile();
    tpot_errors(test, &profile)
        .into_iter()
        .filter_map(|error| {
            let row = test.iter().find(|p| p.id == error.id)?;
            Some(Held { error, coverage: coverage_of(&profile, train, row), release: row.release })
        })
        .collect()
}

/// Every fitted row of `points` predicted by a fit on `points` without its group ([`group_of`]),
/// groups in order of first appearance.
pub fn leave_group_out(points: &[PublishedPoint]) -> Vec<Held> {
    leave_group_out_with(points, true)
}

/// [`leave_group_out`] with or without the release trend.
pub fn leave_group_out_with(points: &[PublishedPoint], trend: bool) -> Vec<Held> {
    let mut groups: Vec<(Family, &'static str)> = Vec::new();
    for row in fitted_rows(points) {
        if !groups.contains(&group_of(row)) {
            groups.push(group_of(row));
        }
    }
    groups
        .into_iter()
        .flat_map(|g| {
            let (rest, held): (Vec<PublishedPoint>, Vec<PublishedPoint>) =
                points.iter().partition(|p| group_of(p) != g);
            predict(&rest, &held, trend)
        })
        .collect()
}

/// Whether `p` was published before `date`.
pub fn dated_before(p: &PublishedPoint, date: (u32, u32, u32)) -> bool {
    p.date_ymd() < date
}

/// The fitted rows dated on or after `date`, predicted by a fit on the rows before it.
pub fn time_split(points: &[PublishedPoint], date: (u32, u32, u32)) -> Vec<Held> {
    time_split_with(points, date, true)
}

/// [`time_split`] with or without the release trend.
pub fn time_split_with(points: &[PublishedPoint], date: (u32, u32, u32), trend: bool) -> Vec<Held> {
    let (train, test): (Vec<PublishedPoint>, Vec<PublishedPoint>) =
        points.iter().partition(|p| dated_before(p, date));
    predict(&train, &test, trend)
}

/// A held-out prediction with the likely range it was given without its own residual.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    pub held: Held,
    pub hold_out: HoldOut,
    pub range: ClassRange,
}

impl Judged {
    /// Whether the measured TPOT lies in the range.
    pub fn inside(&self) -> bool {
        self.range.holds(self.held.error.predicted, self.held.error.measured)
    }

    /// Half the range's width as a share of the predicted time.
    pub fn half_width(&self) -> f64 {
        (self.range.high - self.range.low) / 2.0
    }
}

/// `held` (predictions of one scheme, tagged `hold_out`), each judged by the class ranges of the
/// residuals in `pool` whose rows are not `same` as its own (its group, its GPU).
pub fn judge(
    points: &[PublishedPoint],
    pool: &[Held],
    held: &[Held],
    hold_out: HoldOut,
    same: impl Fn(&PublishedPoint, &PublishedPoint) -> bool,
) -> Vec<Judged> {
    let row = |h: &Held| points.iter().find(|p| p.id == h.error.id);
    held.iter()
        .filter_map(|h| {
            let own = row(h)?;
            let others: Vec<Held> =
                pool.iter().copied().filter(|o| row(o).is_some_and(|q| !same(own, q))).collect();
            Some(Judged { held: *h, hold_out, range: class_ranges(&others).of(h.stack(), h.coverage) })
        })
        .collect()
}

fn same_group(a: &PublishedPoint, b: &PublishedPoint) -> bool {
    group_of(a) == group_of(b)
}

fn same_gpu(a: &PublishedPoint, b: &PublishedPoint) -> bool {
    a.gpu_id == b.gpu_id
}

/// Every fitted row predicted by a fit without its GPU (the leave-one-GPU-out cross-validation).
pub fn leave_gpu_out(points: &[PublishedPoint]) -> Vec<Held> {
    cross_validate(points, Scheme::LeaveOneGpuOut)
}

/// The residual pool the ranges are read from: leave-group-out and leave-GPU-out together (a release
/// the data lack, and a GPU the data lack).
fn pool(points: &[PublishedPoint]) -> (Vec<Held>, Vec<Held>) {
    (leave_group_out(points), leave_gpu_out(points))
}

/// Time-split predictions, each judged by the class ranges read from the rows before the date
/// alone (their own leave-group-out and leave-GPU-out residuals).
pub fn judge_time_split(points: &[PublishedPoint], date: (u32, u32, u32)) -> Vec<Judged> {
    let train: Vec<PublishedPoint> = points.iter().copied().filter(|p| dated_before(p, date)).collect();
    let (groups, gpus) = pool(&train);
    let ranges = class_ranges(&[groups, gpus].concat());
    time_split(points, date)
        .into_iter()
        .map(|h| Judged { held: h, hold_out: HoldOut::TimeSplit, range: ranges.of(h.stack(), h.coverage) })
        .collect()
}

/// Everything the generator writes and the report prints: the profile fitted on every row, the
/// judged out-of-sample predictions, and the ranges the page ships (read from every left-out,
/// GPU-left-out and time-split residual).
#[derive(Clone, Debug, PartialEq)]
pub struct Calibrated {
    pub fitted: Fitted,
    pub left_out: Vec<Judged>,
    pub gpu_left_out: Vec<Judged>,
    pub time_split: Vec<Judged>,
    pub ranges: Ranges,
}

/// The whole procedure on `points`.
pub fn calibrate(points: &[PublishedPoint]) -> Calibrated {
    let (groups, gpus) = pool(points);
    let both = [groups.clone(), gpus.clone()].concat();
    let left_out = judge(points, &both, &groups, HoldOut::LeftOut, same_group);
    let gpu_left_out = judge(points, &both, &gpus, HoldOut::GpuLeftOut, same_gpu);
    let time_split = judge_time_split(points, SPLIT_DATE);
    let all: Vec<Held> = both.iter().copied().chain(time_split.iter().map(|j| j.held)).collect();
    Calibrated { fitted: fit(points), left_out, gpu_left_out, time_split, ranges: class_ranges(&all) }
}

/// The judged predictions as the generated table's rows: left out, GPU left out, time split.
pub fn held_out_table(c: &Calibrated) -> Vec<HeldOutPrediction> {
    c.left_out
        .iter()
        .chain(&c.gpu_left_out)
        .chain(&c.time_split)
        .map(|j| HeldOutPrediction {
            id: j.held.error.id,
            hold_out: j.hold_out,
            predicted_tpot_s: j.held.error.predicted,
            low: j.range.low,
            high: j.range.high,
        })
        .collect()
}
