//! The wide-EP check: each checked run's TPOT error before (the page without the wide-EP terms) and
//! after (with a fit's terms), and their summary (median |error|, share within 25%, worst), which the
//! bin prints and the tests hold.

use super::predict::relative_error;
use super::{WideEpProfile, WideEpRow};

/// One checked run's errors, (predicted - measured) / measured.
#[derive(Clone, Debug, PartialEq)]
pub struct RowCheck<'a> {
    pub row: &'a WideEpRow,
    pub before: f64,
    pub after: f64,
}

/// Every [checked](WideEpRow::checked) row of `rows` priced without the wide-EP terms and with
/// `profile`'s.
pub fn check<'a>(rows: &[&'a WideEpRow], profile: &WideEpProfile) -> Vec<RowCheck<'a>> {
    rows.iter()
        .filter(|r| r.checked())
        .filter_map(|&row| {
            let before = relative_error(row, &WideEpProfile::NONE)?;
            Some(RowCheck { row, before, after: relative_error(row, profile)? })
        })
        .collect()
}

/// A set of errors summarized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub rows: usize,
    /// Median |error|.
    pub median: f64,
    /// Share of rows with |error| <= 25%.
    pub within_25: f64,
    /// The largest |error|, signed.
    pub worst: f64,
}

/// The summary of `errors` (relative, signed); zeros when empty.
pub fn summarize(errors: &[f64]) -> Summary {
    if errors.is_empty() {
        return Summary { rows: 0, median: 0.0, within_25: 0.0, worst: 0.0 };
    }
    let mut abs: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
    let median = crate::calibration::transfer::median(&mut abs).unwrap_or(0.0);
    let within = errors.iter().filter(|e| e.abs() <= 0.25).count();
    let worst = errors.iter().copied().max_by(|a, b| a.abs().total_cmp(&b.abs())).unwrap_or(0.0);
    Summary { rows: errors.len(), median, within_25: within as f64 / errors.len() as f64, worst }
}

/// (before, after) summaries of the checks `keep` selects.
pub fn before_after(checks: &[RowCheck], keep: impl Fn(&RowCheck) -> bool) -> (Summary, Summary) {
    let chosen: Vec<&RowCheck> = checks.iter().filter(|c| keep(c)).collect();
    let before: Vec<f64> = chosen.iter().map(|c| c.before).collect();
    let after: Vec<f64> = chosen.iter().map(|c| c.after).collect();
    (summarize(&before), summarize(&after))
}
