//! The model against your own runs: each measured run beside the calibrated model's closed-loop TPOT
//! at that run's concurrency and mean lengths ([`closed_loop_tpot_at_s`]), the signed error, and a
//! summary over the runs (median and worst |error|).
//!
//! The model is the page's scenario under "Measured engines" (the profile fitted to published
//! measurements): the page's own engine when it is on that cost model, else `fallback` (the page's
//! default engine), and the comparison says it substituted. A run whose file states no lengths (a
//! CSV of batch, TPOT) is priced at the page's prompt and output lengths and marked.

use serde::{Deserialize, Serialize};

use super::calibration::predict::{at_run_lengths, closed_loop_tpot_at_s};
use super::calibration::range::likely_range;
use super::calibration::transfer::median;
use super::calibration::{CostModel, Engine};
use super::fit::YourPoint;
use super::scenario::Scenario;

/// One run against the model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// The run's concurrency, taken as the decode batch.
    pub batch: u32,
    /// Mean prompt length, in tokens (the page's when the run states none).
    pub isl_tokens_mean: f64,
    /// Mean answer length, in tokens (the page's when the run states none).
    pub osl_tokens_mean: f64,
    /// The run states no lengths, so the page's are used.
    pub page_lengths: bool,
    /// Measured mean TPOT, in s.
    pub tpot_s: f64,
    /// The model's closed-loop TPOT at this run's concurrency and lengths, in s.
    pub predicted_tpot_s: f64,
    /// Its likely range ([`likely_range`]: the coverage class's out-of-sample spread), in s.
    pub likely_tpot_s: (f64, f64),
}

impl RunRow {
    /// model / measured - 1.
    pub fn error(&self) -> f64 {
        self.predicted_tpot_s / self.tpot_s - 1.0
    }

    /// The measured TPOT lies inside the model's likely range.
    pub fn inside(&self) -> bool {
        (self.likely_tpot_s.0..=self.likely_tpot_s.1).contains(&self.tpot_s)
    }
}

/// The errors over all runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Runs compared.
    pub count: usize,
    /// Median of |error| (the mean of the middle two for an even count).
    pub median_abs_error: f64,
    /// Largest |error|, and the index of its row.
    pub worst_abs_error: f64,
    pub worst_row: usize,
    /// Runs whose measured TPOT lies inside the model's likely range.
    pub inside: usize,
}

/// The table: which engine's profile priced it, whether that is not the page's cost model, the
/// rows in the points' order and their summary (none without rows).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunComparison {
    pub engine: Engine,
    /// The page's cost model is not "Measured engines", so its `fallback` engine's profile was used.
    pub substituted: bool,
    pub rows: Vec<RunRow>,
    pub summary: Option<RunSummary>,
}

/// Each point against the measured-engines model on `page` (its engine, or `fallback` when the page
/// is on another cost model).
pub fn compare_runs(page: &Scenario, points: &[YourPoint], fallback: Engine) -> RunComparison {
    let (engine, substituted) = match page.calibration {
        CostModel::Measured(engine) => (engine, false),
        _ => (fallback, true),
    };
    let base = Scenario { calibration: CostModel::Measured(engine), ..*page };
    let page_isl = f64::from(page.prompt_tokens());
    let page_osl = f64::from(page.output_tokens.max(1));
    let rows: Vec<RunRow> = points
        .iter()
        .map(|p| {
            let (isl, osl) =
                p.lengths.map_or((page_isl, page_osl), |l| (l.isl_tokens_mean, l.osl_tokens_mean));
            let scenario = at_run_lengths(base, isl, osl);
            let predicted_tpot_s = closed_loop_tpot_at_s(&scenario, f64::from(p.batch), isl, osl);
            let likely_tpot_s = likely_range(&scenario)
                .map_or((predicted_tpot_s, predicted_tpot_s), |r| r.time_s(predicted_tpot_s));
            RunRow {
                batch: p.batch,
                isl_tokens_mean: isl,
                osl_tokens_mean: osl,
                page_lengths: p.lengths.is_none(),
                tpot_s: p.tpot_s,
                predicted_tpot_s,
                likely_tpot_s,
            }
        })
        .collect();
    let summary = summarize(&rows);
    RunComparison { engine, substituted, rows, summary }
}

/// The median and worst |error| over `rows`; none when there are no rows.
pub fn summarize(rows: &[RunRow]) -> Option<RunSummary> {
    let errors: Vec<f64> = rows.iter().map(|r| r.error().abs()).collect();
    let (worst_row, worst_abs_error) =
        errors.iter().copied().enumerate().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let median_abs_error = median(&mut errors.clone())?;
    let inside = rows.iter().filter(|r| r.inside()).count();
    Some(RunSummary { count: rows.len(), median_abs_error, worst_abs_error, worst_row, inside })
}
