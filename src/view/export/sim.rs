//! The simulator's data table as the export downloads it: its headers by load and counting, each
//! rate's cells as the page prints them, and the CSV of a sweep.

use super::write_csv;
use crate::core::sim::{Counting, LoadMode, RatePoint, SeedBand, Sweep};
use crate::view::format::{ms_or_dash, percent, significant, thousands};

/// The simulator data table's headers, as the page prints them (with units).
pub fn sim_table_headers(load: LoadMode, counting: Counting) -> Vec<String> {
    let by = if counting == Counting::Tokens { " (by tokens)" } else { "" };
    let rate = match load {
        LoadMode::Closed => "Clients → achieved rate (req/s)",
        LoadMode::Open => "Offered rate (req/s)",
    };
    let mut h = vec![rate.to_string(), format!("Both targets{by} (%)")];
    h.push(format!("Both targets{by}, lowest to highest seed (%)"));
    h.extend(["TTFT only", "TPOT only"].map(|t| format!("{t}{by} (%)")));
    h.extend(
        [
            "TTFT p50 (ms)",
            "TTFT p90 (ms)",
            "TPOT p50 (ms)",
            "TPOT p90 (ms)",
            "Throughput (tokens/s)",
            "Steady state",
        ]
        .map(String::from),
    );
    h
}

/// What the table prints for a level whose queue still grows, and for one that is steady.
pub const OVERLOADED_MARK: &str = "overloaded: the queue grows";
pub const STEADY_MARK: &str = "steady";

/// The range cell of a level's attainment over seeds: "88.0% to 95.5%" (one value when they agree).
pub fn seed_range_cell(lo: f64, hi: f64) -> String {
    if percent(lo) == percent(hi) {
        percent(lo)
    } else {
        format!("{} to {}", percent(lo), percent(hi))
    }
}

/// One simulated rate's cells exactly as the page's data table prints them (medians over seeds;
/// `band`, when given, the attainment's range over seeds, else the point's own value).
pub fn sim_row_cells(p: &RatePoint, band: Option<&SeedBand>, counting: Counting) -> Vec<String> {
    let tokens = counting == Counting::Tokens;
    let a = if tokens { p.tokens } else { p.requests };
    let (lo, hi) = band.map_or((a.both, a.both), |b| {
        let (lo, hi) = if tokens { b.tokens } else { b.requests };
        (lo.both, hi.both)
    });
    let rate = if p.concurrency > 0 {
        format!("{} → {}", p.concurrency, significant(p.rate_req_per_s))
    } else {
        significant(p.rate_req_per_s)
    };
    vec![
        rate,
        percent(a.both),
        seed_range_cell(lo, hi),
        percent(a.ttft),
        percent(a.tpot),
        ms_or_dash(p.ttft.p50_s),
        ms_or_dash(p.ttft.p90_s),
        ms_or_dash(p.tpot.p50_s),
        ms_or_dash(p.tpot.p90_s),
        thousands(p.throughput_tokens_per_s),
        if p.overloaded { OVERLOADED_MARK } else { STEADY_MARK }.to_string(),
    ]
}

/// Simulated points as CSV (one seed's, with no band).
pub fn sim_table_csv(points: &[RatePoint], load: LoadMode, counting: Counting) -> String {
    let headers = sim_table_headers(load, counting);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    write_csv(&headers, points.iter().map(|p| sim_row_cells(p, None, counting)))
}

/// The simulator's data table as CSV: every level's medians, its range over seeds, its state.
pub fn sim_sweep_csv(sweep: &Sweep, load: LoadMode, counting: Counting) -> String {
    let headers = sim_table_headers(load, counting);
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let rows = sweep.points.iter().enumerate().map(|(j, p)| sim_row_cells(p, sweep.bands.get(j), counting));
    write_csv(&headers, rows)
}
