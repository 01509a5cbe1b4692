//! The rate search (the highest Poisson rate whose simulated p99s meet a row's limits), one row's
//! comparison with MLPerf's goodput and the Offline maximum, and the summary against issue 48's
//! budgets.

use super::{in_flight_of, offline_of, MlperfRow, RowSim, REQUESTS};
use crate::calibration::predict::closed_loop_tpot_at_s;
use crate::calibration::published::PublishedPoint;
use crate::calibration::transfer::median;
use crate::roofline::step_time_at;
use crate::sim::RatePoint;

/// The search stops when the failing rate is within this share above the passing one.
pub const RATE_TOLERANCE: f64 = 0.02;
/// Doublings (or halvings) from 1 request/s that bracket the boundary at most.
const BRACKET_STEPS: u32 = 30;
/// Issue 48's budgets: the median page/MLPerf ratio within x0.9-1.1, at least 80% of rows within
/// x0.8-1.25, none above the same system's Offline maximum.
pub const MEDIAN_BAND: (f64, f64) = (0.9, 1.1);
pub const ROW_BAND: (f64, f64) = (0.8, 1.25);
pub const ROW_SHARE_MIN: f64 = 0.8;

/// The highest rate per replica (requests/s) at which `sim` meets its limits, with its run: bracketed
/// by doubling (or halving) from 1 request/s, then bisected in log space until the first failing
/// rate is within [`RATE_TOLERANCE`] of it. Assumes meeting the limits is monotone in the rate (the
/// runs share one draw, scaled in time, so it nearly is). `(0, None)` when even 1 / 2^30 requests/s
/// fails.
pub fn search_rate_per_s(sim: &RowSim) -> (f64, Option<RatePoint>) {
    let try_rate = |r: f64| {
        let p = sim.run_at(r);
        (sim.meets(&p), p)
    };
    let (mut lo, mut hi, mut at_lo) = (0.0, f64::INFINITY, None);
    let mut r = 1.0;
    for _ in 0..=BRACKET_STEPS {
        let (ok, p) = try_rate(r);
        if ok {
            (lo, at_lo) = (r, Some(p));
            if hi.is_finite() {
                break;
            }
            r *= 2.0;
        } else {
            hi = r;
            if lo > 0.0 {
                break;
            }
            r *= 0.5;
        }
    }
    if lo <= 0.0 || !hi.is_finite() {
        return (lo, at_lo);
    }
    while hi > lo * (1.0 + RATE_TOLERANCE) {
        let mid = (lo * hi).sqrt();
        match try_rate(mid) {
            (true, p) => (lo, at_lo) = (mid, Some(p)),
            (false, _) => hi = mid,
        }
    }
    (lo, at_lo)
}

/// The page's TPOT at the batch MLPerf ran (its requests in flight per replica, Little's law), by
/// the closed-loop steady state of [`closed_loop_tpot_at_s`]: the decode step at that batch plus the
/// prompts prefilled in between (batch - 1 per answer), against MLPerf's mean TPOT. It isolates the
/// step's terms from the scheduler: assumes every request in flight decodes (TTFT is a small share
/// of a request's time on these rows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchCheck {
    pub batch: f64,
    pub page_tpot_s: f64,
    /// Of which the decode step alone, in s (the rest is prefill).
    pub page_step_s: f64,
    pub mlperf_tpot_s: f64,
}

/// [`BatchCheck`] for a row (`None` without its in-flight count or TPOT).
pub fn batch_check(sim: &RowSim, row: &MlperfRow) -> Option<BatchCheck> {
    let batch = in_flight_of(row.concurrency)? / f64::from(sim.replicas);
    let (isl, osl) = (sim.dataset.prompt_mean_tokens, f64::from(sim.scenario.output_tokens));
    Some(BatchCheck {
        batch,
        page_tpot_s: closed_loop_tpot_at_s(&sim.scenario, batch, isl, osl),
        page_step_s: step_time_at(&sim.scenario, batch).step_s,
        mlperf_tpot_s: row.point.tpot_s?,
    })
}

/// One row against MLPerf and its Offline row.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub id: &'static str,
    pub replicas: u32,
    pub batch_cap: u32,
    pub token_budget: u32,
    /// The simulated goodput over the whole system, in requests/s.
    pub rate_per_s: f64,
    /// The simulated run at that rate (one replica's), if any rate met the limits.
    pub at_rate: Option<RatePoint>,
    /// What the run one [`RATE_TOLERANCE`] step above the rate misses first ([`RowSim::missed`]).
    pub missed_above: &'static str,
    /// The page's TPOT at MLPerf's own batch ([`BatchCheck`]), where the row states its requests in
    /// flight and its TPOT.
    pub at_mlperf_batch: Option<BatchCheck>,
    /// The page's goodput, output tokens/s per GPU.
    pub page_tokens_per_s_per_gpu: f64,
    /// MLPerf's: output_tokens_per_s / gpus.
    pub mlperf_tokens_per_s_per_gpu: f64,
    /// The same system's Offline row and its output tokens/s per GPU, if it has one.
    pub offline: Option<(&'static str, f64)>,
}

impl Comparison {
    /// Page / MLPerf.
    pub fn ratio(&self) -> f64 {
        self.page_tokens_per_s_per_gpu / self.mlperf_tokens_per_s_per_gpu
    }

    /// The page's goodput above the same system's Offline maximum (physically impossible).
    pub fn above_offline(&self) -> bool {
        self.offline.is_some_and(|(_, max)| self.page_tokens_per_s_per_gpu > max)
    }
}

/// A row compared (`Err` says why it cannot be run: no dataset lengths, no preset, no limits).
pub fn compare(row: &MlperfRow, points: &[PublishedPoint]) -> Result<Comparison, String> {
    let p = row.point;
    let sim = RowSim::of(row, REQUESTS).ok_or_else(|| {
        format!("{}: not simulated (model {:?}: no dataset lengths or preset)", p.id, p.model_label)
    })?;
    let mlperf = p.output_tokens_per_s.ok_or_else(|| format!("{}: no measured throughput", p.id))?;
    let (rate, at_rate) = search_rate_per_s(&sim);
    let per_gpu = |o: &PublishedPoint| o.output_tokens_per_s.map(|t| t / f64::from(o.gpus.max(1)));
    Ok(Comparison {
        id: p.id,
        replicas: sim.replicas,
        batch_cap: sim.server.max_concurrency,
        token_budget: sim.server.chunk_tokens,
        rate_per_s: rate * f64::from(sim.replicas),
        at_rate,
        missed_above: sim.missed(&sim.run_at(rate * (1.0 + RATE_TOLERANCE))),
        at_mlperf_batch: batch_check(&sim, row),
        page_tokens_per_s_per_gpu: sim.output_tokens_per_s_per_gpu(rate),
        mlperf_tokens_per_s_per_gpu: mlperf / f64::from(p.gpus.max(1)),
        offline: offline_of(p, points).and_then(|o| Some((o.id, per_gpu(o)?))),
    })
}

/// The table's summary against the budgets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub rows: usize,
    pub median_ratio: f64,
    /// Share of rows within [`ROW_BAND`].
    pub within_band: f64,
    pub above_offline: usize,
}

impl Summary {
    pub fn median_pass(&self) -> bool {
        self.median_ratio >= MEDIAN_BAND.0 && self.median_ratio <= MEDIAN_BAND.1
    }

    pub fn band_pass(&self) -> bool {
        self.within_band >= ROW_SHARE_MIN
    }

    pub fn offline_pass(&self) -> bool {
        self.above_offline == 0
    }
}

/// Median ratio, share within the band and rows above Offline over `rows`.
pub fn summarize(rows: &[Comparison]) -> Summary {
    let mut ratios: Vec<f64> = rows.iter().map(Comparison::ratio).collect();
    let within = ratios.iter().filter(|r| **r >= ROW_BAND.0 && **r <= ROW_BAND.1).count();
    Summary {
        rows: rows.len(),
        median_ratio: median(&mut ratios).unwrap_or(0.0),
        within_band: within as f64 / rows.len().max(1) as f64,
        above_offline: rows.iter().filter(|c| c.above_offline()).count(),
    }
}
