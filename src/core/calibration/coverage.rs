//! A prediction's coverage class: how much of its GPU, engine and weight precision the published
//! measurements cover ([`coverage`]), and a class's likely range as factors ([`ClassRange`]; read from
//! the cross-validation by [`super::range`]).

use serde::{Deserialize, Serialize};

use super::bounds::{Family, Stack};
use super::published::{fitted_rows, PublishedPoint};
use super::transfer::{model_slots, resolve, Origin, Profile};
use super::{Engine, Slot};
use crate::parallel::Parallelism;
use crate::precision::Precision;
use crate::presets::model_by_id;

/// How much of a prediction's GPU the data cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GpuCoverage {
    /// Its own rows fitted its terms.
    Fitted,
    /// A GPU of the same vendor and generation lent them.
    SameGeneration,
    /// Nothing of its family: the published priors.
    NotMeasured,
}

/// A prediction's coverage class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    pub gpu: GpuCoverage,
    /// A row of the same engine and weight precision ran on the GPU's family.
    pub config_measured: bool,
}

impl Coverage {
    /// Every class, best covered first (the order ranges widen in).
    pub const ALL: [Coverage; 6] = [
        Coverage { gpu: GpuCoverage::Fitted, config_measured: true },
        Coverage { gpu: GpuCoverage::Fitted, config_measured: false },
        Coverage { gpu: GpuCoverage::SameGeneration, config_measured: true },
        Coverage { gpu: GpuCoverage::SameGeneration, config_measured: false },
        Coverage { gpu: GpuCoverage::NotMeasured, config_measured: true },
        Coverage { gpu: GpuCoverage::NotMeasured, config_measured: false },
    ];

    pub fn index(self) -> usize {
        Coverage::ALL.iter().position(|c| *c == self).unwrap_or(Coverage::ALL.len() - 1)
    }

    /// "fitted", "transferred" or "not measured", for the page.
    pub fn word(self) -> &'static str {
        match (self.gpu, self.config_measured) {
            (GpuCoverage::Fitted, true) => "fitted",
            (GpuCoverage::NotMeasured, _) => "not measured",
            _ => "transferred",
        }
    }
}

/// One class's range as factors on the predicted time, and the held-out rows it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRange {
    pub low: f64,
    pub high: f64,
    pub rows: usize,
}

impl ClassRange {
    /// Whether `measured` lies in the range around `predicted`.
    pub fn holds(&self, predicted: f64, measured: f64) -> bool {
        let r = measured / predicted;
        r >= self.low * (1.0 - 1e-12) && r <= self.high * (1.0 + 1e-12)
    }
}

/// Every class's range for each software stack (by [`Stack::index`], then [`Coverage::index`]): the
/// ROCm stack's releases have moved its runs more than CUDA's, so each stack's range is read from its
/// own held-out rows ([`super::range::class_ranges`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranges(pub [[ClassRange; 6]; Stack::COUNT]);

impl Ranges {
    /// The range of a prediction of `coverage` on a GPU of `stack`.
    pub fn of(&self, stack: Stack, coverage: Coverage) -> ClassRange {
        self.0[stack.index()][coverage.index()]
    }

    /// The range of a prediction of `coverage` on `gpu_id`: its stack's, or for a GPU of no known
    /// family (a custom one) the widest of every stack's.
    pub fn for_gpu(&self, gpu_id: &str, coverage: Coverage) -> ClassRange {
        let family = Family::of(gpu_id);
        if family != Family::Unknown {
            return self.of(family.stack(), coverage);
        }
        let all = Stack::ALL.map(|s| self.of(s, coverage));
        all.iter().fold(all[0], |w, r| ClassRange {
            low: w.low.min(r.low),
            high: w.high.max(r.high),
            rows: w.rows.max(r.rows),
        })
    }
}

/// How a held-out prediction of a published row was made: by a fit on the rows dated before a split
/// date (the row is after it), by a fit that left the row's group (GPU family x engine release) out,
/// or by one that left its GPU out (what the page does for a GPU with no runs of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HoldOut {
    TimeSplit,
    LeftOut,
    GpuLeftOut,
}

impl HoldOut {
    /// "time split", "left out" or "GPU left out", for the page.
    pub fn word(self) -> &'static str {
        match self {
            HoldOut::TimeSplit => "time split",
            HoldOut::LeftOut => "left out",
            HoldOut::GpuLeftOut => "GPU left out",
        }
    }
}

/// One fitted row predicted out of sample, with the likely range the procedure gave it without its
/// own group's residuals (generated into [`super::profile::HELD_OUT`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldOutPrediction {
    /// The row's id in [`super::published::POINTS`].
    pub id: &'static str,
    pub hold_out: HoldOut,
    /// The TPOT the held-out fit predicts, in s.
    pub predicted_tpot_s: f64,
    /// The likely range as factors on `predicted_tpot_s`.
    pub low: f64,
    pub high: f64,
}

/// `row`'s coverage under `profile`, fitted on `data`.
pub fn coverage_of(profile: &Profile, data: &[PublishedPoint], row: &PublishedPoint) -> Coverage {
    let slots = model_by_id(row.model_id).map_or((Slot::GemmDense, Slot::AttentionGqa), model_slots);
    let config = Config {
        gpu_id: row.gpu_id,
        engine: row.engine,
        weights: row.weight_precision,
        parallel: row.parallelism(),
    };
    coverage(profile, data, config, slots)
}

/// What a prediction is for: a GPU, an engine, a weight precision and a parallelism.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config<'a> {
    pub gpu_id: &'a str,
    pub engine: Engine,
    pub weights: Precision,
    pub parallel: Parallelism,
}

/// The kind of a parallelism the data must hold for a configuration to count as measured: whether it
/// runs expert parallelism, attention data parallelism, pipeline stages (the degrees themselves are
/// the formulas' to carry).
fn kind(p: Parallelism) -> (bool, bool, bool) {
    (p.ep > 1, p.dp > 1, p.pp > 1)
}

/// The coverage of a prediction for `config`, whose steps read through the memory `slots` (GEMMs,
/// attention), under `profile`, fitted on `data`: not measured when a slot is a prior that no row of
/// the GPU's family uses; transferred when one is borrowed from a GPU of its family or the GPU has no
/// rows of its own; else fitted (a slot its own rows hold at its prior counts as theirs). The
/// configuration counts as measured when a fitted row of the GPU's family ran the same engine, weight
/// precision and kind of parallelism ([`kind`]).
pub fn coverage(profile: &Profile, data: &[PublishedPoint], config: Config, slots: (Slot, Slot)) -> Coverage {
    let Config { gpu_id, engine, weights, parallel } = config;
    let origins = [slots.0, slots.1].map(|slot| resolve(profile, gpu_id, slot).origin);
    let gpu = if origins.contains(&Origin::Prior) {
        GpuCoverage::NotMeasured
    } else if origins.iter().any(|o| matches!(o, Origin::SameGeneration(_)))
        || !profile.gpus.iter().any(|g| g.gpu_id == gpu_id)
    {
        GpuCoverage::SameGeneration
    } else {
        GpuCoverage::Fitted
    };
    let family = Family::of(gpu_id);
    // The cheap comparisons first: every search row's range asks this of every published row.
    let config_measured = family != Family::Unknown
        && data.iter().any(|r| {
            Family::of(r.gpu_id) == family
                && r.engine == engine
                && r.weight_precision == weights
                && kind(r.parallelism()) == kind(parallel)
                && !fitted_rows(std::slice::from_ref(r)).is_empty()
        });
    Coverage { gpu, config_measured }
}
