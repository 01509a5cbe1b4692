//! The terms a scenario's steps pay: the one place its cost model ([`CostModel`]) becomes
//! [`CostTerms`], the measured profile's through [`Profile::terms`](super::transfer::Profile::terms).

use super::profile::PROFILE;
use super::{CostModel, CostTerms};
use crate::core::scenario::Scenario;

/// The terms `scenario`'s steps pay under its cost model.
pub fn cost_terms(scenario: &Scenario) -> CostTerms {
    match scenario.calibration {
        CostModel::Ideal => CostTerms::IDEAL,
        CostModel::Custom(c) => CostTerms::custom(c),
        CostModel::Terms(t) => t,
        CostModel::Measured(engine) => PROFILE.terms(scenario, engine),
    }
}
