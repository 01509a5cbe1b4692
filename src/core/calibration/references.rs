//! The published measurements that match the page's configuration (model, GPU, weight precision and
//! TP), each with what the page's cost model predicts for it at its own lengths and concurrency: the
//! references the step-time and interactivity charts draw and the table lists.

use serde::{Deserialize, Serialize};

use super::predict::predicted_tpot_s;
use super::profile::PROFILE;
use super::published::{matching, PublishedPoint, POINTS};
use super::CostModel;
use crate::scenario::Scenario;

/// One published point against the model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// Index into [`POINTS`] (its id, source, engine and date).
    pub point_index: u16,
    /// The client's concurrency, taken as the decode batch.
    pub batch: u32,
    /// Measured mean TPOT, in s.
    pub tpot_s: f64,
    /// The page's cost model's TPOT for the same run (its lengths, its concurrency), in s.
    pub predicted_tpot_s: f64,
    /// Measured output tokens/s per GPU (the run's total over its GPUs; batch / TPOT / TP when the
    /// source gives no throughput).
    pub tokens_per_s_per_gpu: f64,
    /// Under the measured engines, the run's engine is not the one the page chose (it is predicted
    /// with its own engine's terms, so its error compares like with like).
    pub other_engine: bool,
}

impl Reference {
    pub fn point(&self) -> &'static PublishedPoint {
        &POINTS[usize::from(self.point_index)]
    }

    /// predicted / measured - 1.
    pub fn error(&self) -> f64 {
        self.predicted_tpot_s / self.tpot_s - 1.0
    }

    /// 1 / measured TPOT, in tokens/s.
    pub fn tokens_per_s_per_user(&self) -> f64 {
        1.0 / self.tpot_s
    }
}

/// The references for `scenario`, predicted under its own cost model (under the measured engines,
/// with each run's own engine), in the data's order. Only points with a TPOT at a known concurrency
/// are drawn (ceilings have neither).
pub fn references(scenario: &Scenario) -> Vec<Reference> {
    matching(scenario)
        .into_iter()
        .filter_map(|index| {
            let p = &POINTS[index];
            let (tpot_s, batch) = (p.tpot_s?, p.concurrency?);
            let (model, other_engine) = match scenario.calibration {
                CostModel::Measured(chosen) => (CostModel::Measured(p.engine), p.engine != chosen),
                own => (own, false),
            };
            // The measured profile prices its newest release: a run of an older one is predicted
            // at its own release, like with like.
            let release = if matches!(model, CostModel::Measured(_)) { PROFILE.run_factor(p) } else { 1.0 };
            let predicted = predicted_tpot_s(p, model)? * release;
            let per_gpu = p.output_tokens_per_s.map_or(batch / tpot_s, |t| t) / f64::from(p.gpus.max(1));
            Some(Reference {
                point_index: u16::try_from(index).ok()?,
                batch: batch.round().max(1.0) as u32,
                tpot_s,
                predicted_tpot_s: predicted,
                tokens_per_s_per_gpu: per_gpu,
                other_engine,
            })
        })
        .collect()
}
