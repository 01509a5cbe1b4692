//! What a wide-EP all-to-all call pays beyond the link's datasheet latency and bytes
//! ([`WideEpProfile`], fitted in [`super::fit`]) and which of its link kinds a scenario's stage uses
//! ([`all_to_all_link`]): the leaf the cost model's terms read ([`crate::calibration::terms`]).

use crate::parallel::domain_gpus;
use crate::scenario::Scenario;

/// What multi-node expert parallelism adds beyond the link's datasheet bytes and latency, per link
/// kind, fitted on the wide-EP runs ([`super::fit`]): a fixed cost per all-to-all call (dispatch or
/// combine) and the share of the link's bandwidth the all-to-all's bytes move at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WideEpProfile {
    /// Per call when the stage stays inside one NVLink (or Infinity Fabric) domain, in s.
    pub nvlink_call_s: f64,
    /// Per call when the stage spans domains (the NIC, RDMA), in s.
    pub rdma_call_s: f64,
    /// The all-to-all's achieved share of the NVLink (Infinity Fabric) bandwidth, in (0, 1].
    pub nvlink_link_share: f64,
    /// The all-to-all's achieved share of the NIC's bandwidth, in (0, 1].
    pub rdma_link_share: f64,
}

impl WideEpProfile {
    /// No per-call cost, the datasheet's bandwidth: the page before the fit (the link's latency and
    /// bytes only).
    pub const NONE: WideEpProfile =
        WideEpProfile { nvlink_call_s: 0.0, rdma_call_s: 0.0, nvlink_link_share: 1.0, rdma_link_share: 1.0 };
}

/// The per-call cost and link share `scenario`'s all-to-all pays under `profile`: over RDMA when its
/// stage's G = TP x DP GPUs span more than one scale-up domain, else over NVLink (or Infinity Fabric).
/// Assumes one fixed cost per dispatch or combine call and one achieved share of the link, neither
/// depending on the batch, EP, the engine or the weights (FP8 dispatch, where an engine uses it, is
/// folded into the share: every row's dispatch is half its all-to-all bytes). Used only where the
/// page prices an all-to-all (DP > 1 on a MoE model).
pub fn all_to_all_link(profile: &WideEpProfile, scenario: &Scenario) -> (f64, f64) {
    if scenario.parallel.stage_gpus() > domain_gpus(&scenario.gpu) {
        (profile.rdma_call_s, profile.rdma_link_share)
    } else {
        (profile.nvlink_call_s, profile.nvlink_link_share)
    }
}
