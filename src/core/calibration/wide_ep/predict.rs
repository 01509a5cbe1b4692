//! The TPOT the page predicts for a wide-EP run ([`super::WideEpRow`]) at its decode batch, under a
//! measured engine's terms with given wide-EP per-call costs ([`WideEpProfile`]), and the error
//! against the measurement.
//!
//! Disaggregated: TPOT = step(B, ISL + OSL / 2) of one decode worker at B = concurrency / decode
//! workers, no prompt chunk (prefill runs on other GPUs). Aggregated (single-node trtllm-serve rows):
//! the closed-loop steady state of [`crate::calibration::predict`], prefills included. Either
//! at the run's release (the measured profile's release trend, as for every published run).

use super::link::all_to_all_link;
use super::WideEpProfile;
use super::WideEpRow;
use crate::calibration::predict::closed_loop_tpot_at_s;
use crate::calibration::profile::PROFILE;
use crate::calibration::terms::measured_terms;
use crate::calibration::transfer::month_of;
use crate::calibration::{CostModel, CostTerms, Engine};
use crate::roofline::step_time_at;
use crate::scenario::Scenario;

/// The measured engine's terms for `scenario` with `profile`'s all-to-all terms in place of the
/// shipped ones.
pub fn terms_with(scenario: &Scenario, profile: &WideEpProfile, engine: Engine) -> CostTerms {
    let (call_s, share) = all_to_all_link(profile, scenario);
    CostTerms { all_to_all_call_s: call_s, all_to_all_link_share: share, ..measured_terms(scenario, engine) }
}

/// The TPOT the page predicts for `row` with `profile`'s per-call costs (see the module) at the
/// row's release: x the measured profile's release factor for its GPU's stack at its date, as every
/// published run is predicted ([`crate::calibration::transfer::Profile::release_factor`]; the
/// whole step scales, the all-to-all terms with it, so they describe the profile's reference
/// release), in s; `None` when its GPU or model is not a preset.
pub fn predicted_tpot_s(row: &WideEpRow, profile: &WideEpProfile) -> Option<f64> {
    let base = row.scenario(CostModel::Measured(row.engine))?;
    let scenario = Scenario { calibration: CostModel::Terms(terms_with(&base, profile, row.engine)), ..base };
    let batch = row.decode_batch().max(1.0);
    let step_s = if row.aggregated {
        closed_loop_tpot_at_s(&scenario, batch, row.isl_mean, row.osl_mean)
    } else {
        step_time_at(&scenario, batch).step_s
    };
    // DeepSeek-R1 is MoE: the release trend applies.
    let moe = scenario.model.moe.is_some();
    Some(step_s * PROFILE.release_factor(row.gpu_id, moe, month_of(row.date_ymd())))
}

/// (predicted - measured) / measured for `row` under `profile`; `None` as [`predicted_tpot_s`].
pub fn relative_error(row: &WideEpRow, profile: &WideEpProfile) -> Option<f64> {
    predicted_tpot_s(row, profile).map(|p| (p - row.tpot_s) / row.tpot_s)
}
