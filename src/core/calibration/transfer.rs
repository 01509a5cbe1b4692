//! A measured profile's shape, the slots a scenario's steps use ([`scenario_slots`]) and the transfer
//! rule: a term's value on a GPU the published measurements cover, else borrowed from a GPU of the
//! same vendor and generation (capped at this GPU's own ceiling), else its published prior
//! ([`super::bounds`]), always saying which. A GPU with nothing of its family in the data is "not
//! measured" ([`Profile::measured_family`]).

use serde::{Deserialize, Serialize};

use super::bounds::{self, Family, Stack, LAYER_PRIOR_S};
use super::published::PublishedPoint;
use super::{CostTerms, Efficiency, Engine, Slot};
use crate::precision::Precision;
use crate::presets::{Attention, ModelSpec};
use crate::scenario::Scenario;

/// One slot of a covered GPU: fitted, held at its prior (the GPU's rows use it but do not identify
/// it), or not used by any of its rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Term {
    Fitted(f64),
    Held,
    Absent,
}

impl Term {
    fn fitted(self) -> Option<f64> {
        match self {
            Term::Fitted(v) => Some(v),
            _ => None,
        }
    }
}

/// A GPU's fitted terms, by [`Slot::index`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuProfile {
    pub gpu_id: &'static str,
    pub slots: [Term; Slot::COUNT],
}

/// A fitted profile: the fixed costs and each covered GPU's fractions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile<'a> {
    /// Per layer per step, by [`Stack::index`], in s; `None` where no row identifies it (then
    /// [`LAYER_PRIOR_S`]).
    pub layer_overhead_s: [Option<f64>; Stack::COUNT],
    /// Per layer per step with 8-bit or smaller weights (the activations' quantization), in s.
    pub quantize_layer_s: f64,
    /// Per MoE layer per step with expert parallelism (EP > 1): what EP's dispatch, permutation and
    /// grouped GEMMs add on one node, fitted on the TP 8 / EP 8 rows, in s.
    pub expert_layer_s: f64,
    /// Per step, by [`Engine::index`], in s. SGLang's is 0 by convention (see the fit).
    pub engine_step_overhead_s: [f64; Engine::COUNT],
    pub gpus: &'a [GpuProfile],
    /// How much slower per month of release date an older engine release runs a MoE model than the
    /// newest in the data, by [`Stack::index`], per month (see [`Profile::release_factor`]).
    pub release_trend_per_month: [f64; Stack::COUNT],
    /// The newest fitted row's publication month (months since year 0, fractional): the release the
    /// profile's terms describe.
    pub reference_month: f64,
}

/// Where a resolved term comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Fitted on this GPU's own measurements.
    Fitted,
    /// Borrowed from a GPU of the same vendor and generation (its id).
    SameGeneration(&'static str),
    /// The published prior, held there because the rows of this GPU's family use the term but do
    /// not identify it ([`Term::Held`]).
    Held,
    /// The published prior: no row of this GPU's family uses the term.
    Prior,
}

/// A term's value and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    pub value: f64,
    pub origin: Origin,
}

/// The median of `values` (the mean of the middle two for an even count); `None` when empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 })
}

/// `slot`'s value for `gpu_id` by the transfer rule: this GPU's fit, or its prior where its rows hold
/// it there; else a same-family GPU's fit (the first in the profile's order), capped at this GPU's
/// ceiling, or the prior where that family's rows hold it; else the prior.
pub fn resolve(profile: &Profile, gpu_id: &str, slot: Slot) -> Resolved {
    let prior = |origin| Resolved { value: slot.prior(gpu_id), origin };
    match profile.gpus.iter().find(|g| g.gpu_id == gpu_id).map(|g| g.slots[slot.index()]) {
        Some(Term::Fitted(value)) => return Resolved { value, origin: Origin::Fitted },
        Some(Term::Held) => return prior(Origin::Held),
        _ => {}
    }
    let family = Family::of(gpu_id);
    let peers =
        || profile.gpus.iter().filter(move |g| family != Family::Unknown && Family::of(g.gpu_id) == family);
    if let Some((id, v)) = peers().find_map(|g| g.slots[slot.index()].fitted().map(|v| (g.gpu_id, v))) {
        return Resolved { value: v.min(slot.ceiling(gpu_id).value), origin: Origin::SameGeneration(id) };
    }
    if peers().any(|g| g.slots[slot.index()] == Term::Held) {
        return prior(Origin::Held);
    }
    prior(Origin::Prior)
}

/// A publication date (year, month, day) in months since year 0.
pub fn month_of(date: (u32, u32, u32)) -> f64 {
    let (y, m, d) = date;
    f64::from(y) * 12.0 + f64::from(m.max(1) - 1) + f64::from(d.max(1) - 1) / 30.0
}

impl Profile<'_> {
    /// The factor on the step time of a run of a MoE model (`moe`) published at `month` on `gpu_id`'s
    /// stack: exp(trend x months before the reference), 1 at or after it, and 1 for a dense model.
    /// Assumptions: engines of one software stack speed a MoE model up at one steady relative rate
    /// over release dates (kernels and fixed costs alike, so the whole step scales) and never slow it
    /// down (the trend is >= 0); the only model the data hold over several release dates is
    /// DeepSeek-R1 (MoE, MLA), so dense models, whose kernels were mature before the data begin, are
    /// priced alike at every release; nothing is extrapolated past the newest release in the data:
    /// the page prices the reference release.
    pub fn release_factor(&self, gpu_id: &str, moe: bool, month: f64) -> f64 {
        if !moe {
            return 1.0;
        }
        let trend = self.release_trend_per_month[Family::of(gpu_id).stack().index()];
        (trend * (self.reference_month - month).max(0.0)).exp()
    }

    /// [`Profile::release_factor`] for a published run: its GPU and model at its publication date.
    pub fn run_factor(&self, run: &PublishedPoint) -> f64 {
        let moe = crate::presets::model_by_id(run.model_id).is_some_and(|m| m.moe.is_some());
        self.release_factor(run.gpu_id, moe, month_of(run.date_ymd()))
    }

    /// The per-layer overhead of `gpu_id`'s stack and whether a row identified it, in s.
    pub fn layer_s(&self, gpu_id: &str) -> Resolved {
        match self.layer_overhead_s[Family::of(gpu_id).stack().index()] {
            Some(value) => Resolved { value, origin: Origin::Fitted },
            None => Resolved { value: LAYER_PRIOR_S, origin: Origin::Prior },
        }
    }

    /// Whether the data hold any GPU of `gpu_id`'s vendor and generation.
    pub fn measured_family(&self, gpu_id: &str) -> bool {
        let family = Family::of(gpu_id);
        family != Family::Unknown && self.gpus.iter().any(|g| Family::of(g.gpu_id) == family)
    }

    /// The terms `scenario` pays with `engine`: its GPU's (or transferred) fractions for the slots its
    /// model uses, its stack's per-layer overhead (plus the quantization cost with 8-bit or smaller
    /// weights), the engine's per-step overhead and its link's all-reduce latency.
    pub fn terms(&self, scenario: &Scenario, engine: Engine) -> CostTerms {
        let id = scenario.gpu.id;
        let (gemm_slot, attention_slot) = scenario_slots(scenario);
        let compute = resolve(self, id, Slot::Compute).value;
        let group = |slot| Efficiency { memory: resolve(self, id, slot).value, compute };
        let quantize = if quantized(scenario.weight_precision) { self.quantize_layer_s } else { 0.0 };
        CostTerms {
            gemm: group(gemm_slot),
            decode_attention: group(attention_slot),
            prefill_attention: group(attention_slot),
            step_overhead_s: self.engine_step_overhead_s[engine.index()],
            layer_overhead_s: self.layer_s(id).value + quantize,
            expert_layer_s: self.expert_layer_s,
            collective_latency_s: bounds::collective_latency_s(id).value,
            all_to_all_call_s: 0.0,
            all_to_all_link_share: 1.0,
        }
    }

    /// Each slot `scenario` uses with its value and origin, for the page's "transferred" line.
    pub fn provenance(&self, scenario: &Scenario) -> Vec<(Slot, Resolved)> {
        let (gemm_slot, attention_slot) = scenario_slots(scenario);
        [gemm_slot, attention_slot, Slot::Compute]
            .into_iter()
            .map(|s| (s, resolve(self, scenario.gpu.id, s)))
            .collect()
    }
}

/// Weights of 8 bits or fewer, whose GEMMs quantize their activations first.
pub fn quantized(weights: Precision) -> bool {
    weights != Precision::Bf16
}

/// The slots a scenario's steps use: (GEMM memory, decode attention memory).
pub fn scenario_slots(scenario: &Scenario) -> (Slot, Slot) {
    model_slots(&scenario.model)
}

/// The memory slots a model's steps use: (GEMM, decode attention).
pub fn model_slots(model: &ModelSpec) -> (Slot, Slot) {
    let gemm = if model.moe.is_some() { Slot::GemmMoe } else { Slot::GemmDense };
    let attention = match model.attention {
        Attention::Gqa { .. } => Slot::AttentionGqa,
        Attention::Mla { .. } => Slot::AttentionMla,
    };
    (gemm, attention)
}
