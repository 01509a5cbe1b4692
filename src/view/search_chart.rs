//! The search chart's view model: its points (every shown row), the frontier of the shown rows,
//! the hovered point, and its text alternative.

use crate::core::search::pareto::frontier;
use crate::core::search::{Layout, Row};
use crate::view::format::search::layout_text;

/// One configuration on the chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchPoint {
    /// 1 / TPOT, in tokens/s per user.
    pub tokens_per_s_per_user: f64,
    pub tokens_per_s_per_gpu: f64,
    /// Disaggregated prefill and decode (else colocated).
    pub disaggregated: bool,
}

/// What the chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchChartData {
    pub points: Vec<SearchPoint>,
    /// Indices into `points` on the Pareto frontier, by tokens/s per user ascending.
    pub frontier: Vec<usize>,
    /// The TPOT target, in s.
    pub tpot_target_s: f64,
    /// The point to ring (the hovered row or point).
    pub hovered: Option<usize>,
    /// Each point's placement and parallelism ([`layout_text`]: `TP1 EP32 DP32`), as `points`.
    pub labels: Vec<String>,
}

/// The chart's title (its figure caption and export title).
pub const TITLE: &str = "Tokens/s per GPU against tokens/s per user, every configuration";

/// The chart's data from the run's rows, the shown indices and the hovered row.
pub fn chart_data(
    rows: &[Row],
    shown: &[usize],
    hovered: Option<usize>,
    tpot_target_s: f64,
) -> SearchChartData {
    let picked: Vec<Row> = shown.iter().map(|&i| rows[i]).collect();
    let points = picked
        .iter()
        .map(|r| SearchPoint {
            tokens_per_s_per_user: r.tokens_per_s_per_user,
            tokens_per_s_per_gpu: r.tokens_per_s_per_gpu,
            disaggregated: matches!(r.config.layout, Layout::Disaggregated { .. }),
        })
        .collect();
    let hovered = hovered.and_then(|h| shown.iter().position(|&i| i == h));
    let labels = picked.iter().map(|r| layout_text(&r.config.layout)).collect();
    SearchChartData { points, frontier: frontier(&picked), tpot_target_s, hovered, labels }
}

/// The chart's text alternative.
pub fn describe(data: Option<&SearchChartData>) -> String {
    match data {
        Some(d) => {
            let named: Vec<&str> =
                d.frontier.iter().filter_map(|&i| d.labels.get(i)).map(String::as_str).collect();
            format!(
                "{TITLE}: {} configurations and the Pareto frontier of {} points ({}); the table below lists them.",
                d.points.len(),
                d.frontier.len(),
                named.join(", ")
            )
        }
        None => format!("{TITLE}: searching…"),
    }
}
