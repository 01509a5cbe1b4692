//! The configuration search's table as the page prints it: which rows the filters keep, in the order
//! chosen, each row's cells (the same rounding as the placement table) and its `data-config` id.

use super::calibration::range_ms;
use super::placement::binds_text;
use super::{ms, significant, thousands};
use crate::core::calibration::range::likely_range;
use crate::core::presets::GPUS;
use crate::core::scenario::Scenario;
use crate::core::search::{Config, Layout, Row};
use crate::state::search::{Filters, SortKey};

/// The table's columns, with units; the CSV's headers.
pub const HEADERS: [&str; 14] = [
    "GPU",
    "Weights",
    "KV",
    "Placement",
    "GPUs",
    "Goodput per GPU (req/s)",
    "Tokens/s per GPU",
    "Tokens/s per user",
    "TPOT (ms)",
    "TTFT (ms)",
    "Binds",
    "GPUs for the load",
    "$ per million tokens",
    "J/token",
];

/// The replica's parallelism, `TP2` or `TP1 EP32 DP32` (colocated), or `2×TP8 : 1×TP1 EP16 DP16`
/// (x prefill instances of one shape : y decode instances of another): [`Parallelism::label`]s.
///
/// [`Parallelism::label`]: crate::core::parallel::Parallelism::label
pub fn layout_text(layout: &Layout) -> String {
    match *layout {
        Layout::Colocated { parallel } => parallel.label(),
        Layout::Disaggregated { prefill_instances, prefill, decode_instances, decode } => {
            format!("{prefill_instances}×{} : {decode_instances}×{}", prefill.label(), decode.label())
        }
    }
}

/// A shape's id: `tp2`, or `tp1-ep32-dp32` ([`layout_text`]'s label, lowercase, hyphens).
fn shape_id(parallel: &crate::core::parallel::Parallelism) -> String {
    parallel.label().to_lowercase().replace(' ', "-")
}

/// A configuration's id in the page: `h100-sxm/bf16/fp8/tp2`, `h200-sxm/fp8/fp8/tp1-ep32-dp32` or
/// (x prefill : y decode instances) `h100-sxm/bf16/fp8/2xtp1-1xtp2`.
pub fn config_id(config: &Config) -> String {
    let gpu = GPUS[usize::from(config.gpu_index).min(GPUS.len() - 1)].id;
    let layout = match config.layout {
        Layout::Colocated { parallel } => shape_id(&parallel),
        Layout::Disaggregated { prefill_instances, prefill, decode_instances, decode } => {
            format!("{prefill_instances}x{}-{decode_instances}x{}", shape_id(&prefill), shape_id(&decode))
        }
    };
    format!("{gpu}/{}/{}/{layout}", config.weight_precision.id(), config.kv_precision.id())
}

/// A row's cells in [`HEADERS`] order: goodput per GPU with [`significant`], TPOT and TTFT with
/// [`ms`], as the placement table prints them; J per output token with [`significant`].
pub fn cells(row: &Row) -> [String; 14] {
    let c = &row.config;
    [
        GPUS[usize::from(c.gpu_index).min(GPUS.len() - 1)].name.to_string(),
        c.weight_precision.label().to_string(),
        c.kv_precision.label().to_string(),
        layout_text(&c.layout),
        thousands(f64::from(row.gpus)),
        significant(row.goodput_per_gpu_req_per_s),
        thousands(row.tokens_per_s_per_gpu),
        significant(row.tokens_per_s_per_user),
        ms(row.tpot_s),
        ms(row.ttft_s),
        binds_text(row.binds).to_string(),
        thousands(f64::from(row.gpus_for_load)),
        usd(row.usd_per_million_tokens),
        significant(row.energy_j_per_token),
    ]
}

/// Dollars with cents below $100, whole dollars (with separators) above.
pub fn usd(amount: f64) -> String {
    if amount < 100.0 {
        format!("${}", super::fixed(amount, 2))
    } else {
        format!("${}", thousands(amount))
    }
}

/// Whether `row` passes every filter that is set.
pub fn passes(row: &Row, filters: &Filters) -> bool {
    let c = &row.config;
    let placement = match c.layout {
        Layout::Colocated { .. } => crate::core::placement::PlacementMode::Colocated,
        Layout::Disaggregated { .. } => crate::core::placement::PlacementMode::Disaggregated,
    };
    filters.gpu_index.is_none_or(|g| g == c.gpu_index)
        && filters.weight_precision.is_none_or(|p| p == c.weight_precision)
        && filters.kv_precision.is_none_or(|p| p == c.kv_precision)
        && filters.placement.is_none_or(|p| p == placement)
}

/// Indices of the rows the filters keep, best first by `sort` (ties: more goodput per GPU, then
/// fewer GPUs, then the rows' order, so the order is total and stable). By GPUs for the load, the
/// rows without a plan (0) come last.
pub fn shown(rows: &[Row], filters: &Filters, sort: SortKey) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..rows.len()).filter(|&i| passes(&rows[i], filters)).collect();
    kept.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        let first = match sort {
            SortKey::GoodputPerGpu => std::cmp::Ordering::Equal,
            SortKey::UsdPerMillionTokens => ra.usd_per_million_tokens.total_cmp(&rb.usd_per_million_tokens),
            // 0 is no plan (`Row::gpus_for_load`): after every planned row.
            SortKey::GpusForLoad => {
                (ra.gpus_for_load == 0, ra.gpus_for_load).cmp(&(rb.gpus_for_load == 0, rb.gpus_for_load))
            }
            SortKey::TokensPerUser => rb.tokens_per_s_per_user.total_cmp(&ra.tokens_per_s_per_user),
            SortKey::EnergyPerToken => ra.energy_j_per_token.total_cmp(&rb.energy_j_per_token),
        };
        first
            .then(rb.goodput_per_gpu_req_per_s.total_cmp(&ra.goodput_per_gpu_req_per_s))
            .then(ra.gpus.cmp(&rb.gpus))
            .then(a.cmp(&b))
    });
    kept
}

/// `showing 50 of 1,664 (37,910 evaluated)`.
pub fn count_text(showing: usize, kept: usize, evaluated: u32) -> String {
    format!(
        "showing {} of {} ({} evaluated)",
        thousands(showing as f64),
        thousands(kept as f64),
        thousands(f64::from(evaluated))
    )
}

/// A row's TPOT cell: under the measured engines, its likely range and coverage beside it
/// ("12.34 (10.65–15.01, transferred)"); else the TPOT alone, as [`cells`] prints it.
pub fn tpot_cell(row: &Row, base: &Scenario) -> String {
    let scenario = row.config.scenario(base);
    match likely_range(&scenario) {
        Some(r) => format!("{} ({}, {})", ms(row.tpot_s), range_ms(&r, row.tpot_s), r.coverage.word()),
        None => ms(row.tpot_s),
    }
}
