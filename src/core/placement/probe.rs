//! How far one evaluation of an operating point goes ([`Probe`]: in full, or only far enough to tell
//! whether a rate passes), and the least fixed point of its mean step found up to the TPOT target
//! before the runaway limit.

use super::percentile::{tpot_meets, tpot_quantile_s, Percentile, TpotSpread};
use super::queue::fixed_point_s;
use crate::scenario::Scenario;

/// A steady step longer than this many TPOT targets has run away (the load exceeds capacity).
const RUNAWAY_TARGETS: f64 = 1e3;

/// How far an evaluation goes: in full, or only far enough to tell whether the rate passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Every number, out to the runaway limit.
    Full,
    /// Stops once the step passes the TPOT target: the iterates rise to the least fixed point
    /// (the map is monotone), so one past the target means the point misses it. Only its
    /// `binds == Nothing` is meaningful.
    PassOrFail,
}

impl Probe {
    /// TPOT's p-quantile in full; for pass or fail only whether it meets the target (the target
    /// itself when it does, infinity when not), which is all [`first_missed`] reads.
    pub(super) fn tpot_s(self, spread: &TpotSpread, percentile: &Percentile, target_s: f64) -> f64 {
        match self {
            Probe::Full => tpot_quantile_s(spread, percentile),
            Probe::PassOrFail if tpot_meets(spread, percentile, target_s) => target_s,
            Probe::PassOrFail => f64::INFINITY,
        }
    }

    pub(super) fn limit_s(self, scenario: &Scenario) -> f64 {
        match self {
            Probe::Full => RUNAWAY_TARGETS * scenario.tpot_target_s.max(1e-6),
            Probe::PassOrFail => scenario.tpot_target_s,
        }
    }

    /// The least fixed point of `next` from next(0), searched up to the TPOT target first and then,
    /// in full, to the runaway limit: a fixed point under the target is found without a secant jump
    /// that a wide limit lets pass it ([`fixed_point_s`]), so a rate that passes the target in a
    /// probe also has its fixed point in full. `scale` turns the TPOT limits into step limits.
    pub(super) fn fixed_point_s(
        self,
        scenario: &Scenario,
        scale: f64,
        next: impl Fn(f64) -> f64,
    ) -> Option<f64> {
        let target_limit_s = Probe::PassOrFail.limit_s(scenario) * scale;
        fixed_point_s(next(0.0), target_limit_s, &next).or_else(|| match self {
            Probe::Full => fixed_point_s(next(0.0), self.limit_s(scenario) * scale, &next),
            Probe::PassOrFail => None,
        })
    }
}
