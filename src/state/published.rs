//! A published run's scenario loaded into the page (the accuracy view's "Load"): its model, GPU,
//! weight and KV precision, TP and EP, its engine under the measured engines and its mean lengths,
//! each through the control's own setter; and the batch its concurrency marks.

use super::view::MARK_MAX;
use super::Inputs;
use crate::core::calibration::accuracy::batch_of;
use crate::core::calibration::published::{PublishedPoint, POINTS};
use crate::core::precision::Precision;
use crate::core::presets::{gpu_by_id, model_by_id};

/// The published point with row id `id`.
pub fn published_point(id: &str) -> Option<&'static PublishedPoint> {
    POINTS.iter().find(|p| p.id == id)
}

/// The batch a run marks on the page: its concurrency when whole and within `mark=`'s range.
pub fn marked_batch(point: &PublishedPoint) -> Option<u32> {
    batch_of(point).filter(|b| *b <= MARK_MAX)
}

/// Whether the page can load `point`: its model and GPU are presets.
pub fn loadable(point: &PublishedPoint) -> bool {
    model_by_id(point.model_id).is_some() && gpu_by_id(point.gpu_id).is_some()
}

impl Inputs {
    /// Sets the page to `point`'s scenario (see the module); a point whose model or GPU is not a
    /// preset changes nothing and gives false. A precision the page does not offer for weights or KV
    /// is left as it was.
    pub fn load_published(&mut self, point: &PublishedPoint) -> bool {
        let (Some(model), Some(gpu)) = (model_by_id(point.model_id), gpu_by_id(point.gpu_id)) else {
            return false;
        };
        let mut next = self.with_model(*model);
        next.set_gpu(*gpu);
        if Precision::WEIGHTS.contains(&point.weight_precision) {
            next.scenario.weight_precision = point.weight_precision;
        }
        if Precision::KV.contains(&point.kv_precision) {
            next.scenario.kv_precision = point.kv_precision;
        }
        next.set_parallel(point.parallelism());
        next.set_measured(point.engine);
        next.set_output_tokens(point.osl_mean.round().clamp(1.0, f64::from(u32::MAX)) as u32);
        next.set_prompt_tokens(point.isl_mean.round().clamp(1.0, f64::from(u32::MAX)) as u32);
        *self = next;
        true
    }
}
