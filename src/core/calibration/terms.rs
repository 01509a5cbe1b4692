//! The terms a scenario's steps pay: the one place its cost model ([`CostModel`]) becomes
//! [`CostTerms`], the measured profile's through [`Profile::terms`](super::transfer::Profile::terms)
//! plus the wide-EP per-call all-to-all cost ([`super::wide_ep::profile::WIDE_EP`]).

use super::profile::PROFILE;
use super::wide_ep::link::all_to_all_link;
use super::wide_ep::profile::WIDE_EP;
use super::{CostModel, CostTerms, Engine};
use crate::scenario::Scenario;

/// The terms `scenario`'s steps pay under its cost model.
pub fn cost_terms(scenario: &Scenario) -> CostTerms {
    match scenario.calibration {
        CostModel::Ideal => CostTerms::IDEAL,
        CostModel::Custom(c) => CostTerms::custom(c),
        CostModel::Terms(t) => t,
        CostModel::Measured(engine) => measured_terms(scenario, engine),
    }
}

/// The measured profile's terms for `scenario` with `engine`, with the wide-EP fit's per-call
/// all-to-all cost and link share for the link its stage spans.
pub fn measured_terms(scenario: &Scenario, engine: Engine) -> CostTerms {
    let (call_s, share) = all_to_all_link(&WIDE_EP, scenario);
    CostTerms { all_to_all_call_s: call_s, all_to_all_link_share: share, ..PROFILE.terms(scenario, engine) }
}
