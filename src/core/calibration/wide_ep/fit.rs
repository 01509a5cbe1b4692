//! The wide-EP fit: what multi-node expert parallelism adds beyond the link's datasheet latency and
//! bytes, from the wide-EP runs' TPOTs, by a procedure, never by hand (`cargo run --bin
//! calibrate_wide_ep` writes [`super::profile`]; `tests/it/wide_ep.rs` fails when it differs).
//!
//! Unknowns, each >= 0, per link kind (NVLink or Infinity Fabric inside a scale-up domain, RDMA over
//! the NIC past it): the fixed cost per all-to-all call (dispatch or combine), and u - 1 with u = 1 /
//! the all-to-all's achieved share of the link's bandwidth (so the share never exceeds the
//! datasheet's, its ceiling). Rows: the [checked](super::WideEpRow::checked) runs whose decode worker
//! runs an all-to-all (DP > 1). The step is linear in every unknown (a call cost adds calls x cost;
//! u multiplies the bytes' time), so one non-negative least squares ([`nnls`]) on the relative TPOT
//! errors solves it: column j = d TPOT / d x_j / measured, right side (measured - TPOT at 0) /
//! measured. No prior rows: the terms' priors are 0 (the page before the fit), the bound x >= 0 the
//! only constraint.
//!
//! Identification (as the measured profile's, [`crate::calibration::fit::IDENTIFY_MIN`]): a
//! term whose change by its scale moves the rows' relative TPOTs by less than 5% (root of the summed
//! squares) is held at its prior (0: no cost, the datasheet's bandwidth). A call cost's scale is the
//! link's measured collective latency the page already prices per call
//! ([`crate::calibration::bounds::collective_latency_s`]); a share's is u = 2 (half the bandwidth).
//!
//! The RDMA call cost, held where no checked row crosses the NIC, is then set at the least value the
//! MTP rows over the NIC allow ([`rdma_call_bound`]): a stated lower bound, not a fit.

use super::predict::predicted_tpot_s;
use super::{WideEpProfile, WideEpRow};
use crate::calibration::bounds::collective_latency_s;
use crate::calibration::fit::IDENTIFY_MIN;
use crate::calibration::nnls::{nnls, Matrix};

/// The time split: the fit's rows are dated before this day; the rows on or after it are predicted.
pub const SPLIT_DATE: &str = "2026-02-08";

/// The fit's unknowns, in column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WideEpTerm {
    NvlinkCall,
    RdmaCall,
    NvlinkShare,
    RdmaShare,
}

impl WideEpTerm {
    pub const ALL: [WideEpTerm; 4] =
        [WideEpTerm::NvlinkCall, WideEpTerm::RdmaCall, WideEpTerm::NvlinkShare, WideEpTerm::RdmaShare];

    pub fn label(self) -> &'static str {
        match self {
            WideEpTerm::NvlinkCall => "per all-to-all call, NVLink / Infinity Fabric (s)",
            WideEpTerm::RdmaCall => "per all-to-all call, RDMA over the NIC (s)",
            WideEpTerm::NvlinkShare => "all-to-all share of NVLink bandwidth",
            WideEpTerm::RdmaShare => "all-to-all share of the NIC bandwidth",
        }
    }

    /// The field it sets in [`WideEpProfile`].
    pub fn id(self) -> &'static str {
        match self {
            WideEpTerm::NvlinkCall => "nvlink_call_s",
            WideEpTerm::RdmaCall => "rdma_call_s",
            WideEpTerm::NvlinkShare => "nvlink_link_share",
            WideEpTerm::RdmaShare => "rdma_link_share",
        }
    }

    fn is_call(self) -> bool {
        matches!(self, WideEpTerm::NvlinkCall | WideEpTerm::RdmaCall)
    }
}

/// The profile at unknowns `x` (by [`WideEpTerm::ALL`]): call costs x, shares 1 / (1 + x).
pub fn profile_at(x: &[f64; 4]) -> WideEpProfile {
    WideEpProfile {
        nvlink_call_s: x[0],
        rdma_call_s: x[1],
        nvlink_link_share: 1.0 / (1.0 + x[2]),
        rdma_link_share: 1.0 / (1.0 + x[3]),
    }
}

/// A fit's result: the profile, the rows it used and which terms the data identified.
#[derive(Clone, Debug, PartialEq)]
pub struct WideEpFit {
    pub profile: WideEpProfile,
    pub rows: usize,
    pub identified: [bool; 4],
    /// The MTP rows that bound an unidentified RDMA call cost from below (0: none; the cost then 0).
    pub rdma_bound_rows: usize,
}

/// Whether `row` enters the fit: checked (no MTP, below the knee) and running an all-to-all.
pub fn fit_row(row: &WideEpRow) -> bool {
    row.checked() && row.crosses_nic().is_some()
}

/// The rows dated before [`SPLIT_DATE`] (`before`) or on and after it.
pub fn split(rows: &[WideEpRow], before: bool) -> Vec<&WideEpRow> {
    rows.iter().filter(|r| (r.date.as_str() < SPLIT_DATE) == before).collect()
}

/// One fit row linearized at 0: d TPOT / d x_j / measured, the relative move of a term's scale,
/// and (measured - TPOT at 0) / measured.
fn linearized(row: &WideEpRow) -> ([f64; 4], [f64; 4], f64) {
    let base = predicted_tpot_s(row, &WideEpProfile::NONE).unwrap_or(row.tpot_s);
    let mut col = [0.0; 4];
    let mut moved = [0.0; 4];
    for (j, term) in WideEpTerm::ALL.into_iter().enumerate() {
        let step = if term.is_call() { collective_latency_s(row.gpu_id).value } else { 1.0 };
        let mut x = [0.0; 4];
        x[j] = step;
        let at = predicted_tpot_s(row, &profile_at(&x)).unwrap_or(base);
        col[j] = (at - base) / step / row.tpot_s;
        moved[j] = (at - base) / row.tpot_s;
    }
    (col, moved, (row.tpot_s - base) / row.tpot_s)
}

/// Fits the unknowns on `rows`' [fit rows](fit_row) (see the module), then bounds an unidentified
/// RDMA call cost from below ([`rdma_call_bound`]).
pub fn fit(rows: &[&WideEpRow]) -> WideEpFit {
    let used: Vec<&WideEpRow> = rows.iter().copied().filter(|r| fit_row(r)).collect();
    let lines: Vec<([f64; 4], [f64; 4], f64)> = used.iter().map(|r| linearized(r)).collect();
    let identified: [bool; 4] = std::array::from_fn(|j| {
        lines.iter().map(|(_, m, _)| m[j] * m[j]).sum::<f64>().sqrt() >= IDENTIFY_MIN
    });
    let free: Vec<usize> = (0..4).filter(|&j| identified[j]).collect();
    let a = Matrix {
        rows: lines.len(),
        cols: free.len(),
        data: lines.iter().flat_map(|(c, _, _)| free.iter().map(move |&j| c[j])).collect(),
    };
    let rhs: Vec<f64> = lines.iter().map(|(_, _, b)| *b).collect();
    let solved = if free.is_empty() || lines.is_empty() { Vec::new() } else { nnls(&a, &rhs) };
    let mut x = [0.0; 4];
    for (k, &j) in free.iter().enumerate() {
        x[j] = solved[k];
    }
    let bound = if identified[1] { None } else { rdma_call_bound(rows, &x) };
    if let Some((value, _)) = bound {
        x[1] = value;
    }
    WideEpFit {
        profile: profile_at(&x),
        rows: used.len(),
        identified,
        rdma_bound_rows: bound.map_or(0, |b| b.1),
    }
}

/// The rows that bound the RDMA call cost: MTP runs below the knee whose all-to-all crosses the NIC.
pub fn rdma_bound_row(row: &WideEpRow) -> bool {
    row.mtp && !row.past_knee && row.crosses_nic() == Some(true)
}

/// The least RDMA call cost consistent with the [MTP rows over the NIC](rdma_bound_row), and how many
/// there are; `None` without such rows. Assumes MTP never makes a sequence's tokens slower than plain
/// decoding at the same batch (the data agree: at matched concurrency the MTP runs' TPOT per accepted
/// token is 0.58 of the plain runs', MI355X), so a plain step at the row's batch takes at least
/// its measured TPOT: each row needs cost >= (measured - TPOT at 0) / (d TPOT / d cost), and the
/// bound is the largest of those (at least 0), at the fitted NVLink terms `x`.
pub fn rdma_call_bound(rows: &[&WideEpRow], x: &[f64; 4]) -> Option<(f64, usize)> {
    let bounding: Vec<&WideEpRow> = rows.iter().copied().filter(|r| rdma_bound_row(r)).collect();
    let at = |row: &WideEpRow, cost: f64| {
        let mut y = *x;
        y[1] = cost;
        predicted_tpot_s(row, &profile_at(&y)).unwrap_or(row.tpot_s)
    };
    let needed = bounding.iter().map(|row| {
        let step = collective_latency_s(row.gpu_id).value;
        let (base, per_s) = (at(row, 0.0), (at(row, step) - at(row, 0.0)) / step);
        if per_s > 0.0 {
            (row.tpot_s - base) / per_s
        } else {
            0.0
        }
    });
    let bound = needed.fold(0.0_f64, f64::max);
    (!bounding.is_empty()).then_some((bound, bounding.len()))
}
