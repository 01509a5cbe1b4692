//! A measured profile's shape, the slots a scenario's steps use ([`scenario_slots`]) and the transfer
//! rule: the value of a term for a GPU the published measurements cover, or else borrowed from the same
//! vendor and generation, or else the median over the GPUs that have it (then a sibling term's, then
//! the ideal), always saying which.

use serde::{Deserialize, Serialize};

use super::{CostTerms, Efficiency, Engine, Slot};
use crate::core::precision::Precision;
use crate::core::presets::Attention;
use crate::core::scenario::Scenario;

/// A GPU's fitted terms, by [`Slot::index`]; `None` where the data do not determine it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuProfile {
    pub gpu_id: &'static str,
    pub slots: [Option<f64>; Slot::COUNT],
}

/// A fitted profile: the global terms and each covered GPU's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile<'a> {
    /// Per layer per step, in s (every GPU and engine).
    pub layer_overhead_s: f64,
    /// Per step, by [`Engine::index`], in s. SGLang's is 0 by convention (see the fit).
    pub engine_step_overhead_s: [f64; 3],
    pub gpus: &'a [GpuProfile],
}

/// Where a resolved term comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// Fitted on this GPU's own measurements.
    Fitted,
    /// Borrowed from a GPU of the same vendor and generation (its id).
    SameGeneration(&'static str),
    /// The median over the GPUs the data cover.
    Median,
    /// Borrowed from another slot (the data cover none of this one).
    Sibling(Slot),
    /// No data at all: the ideal value.
    Ideal,
}

/// A term's value and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    pub value: f64,
    pub origin: Origin,
}

/// GPU families of one vendor and generation, for the transfer rule.
const GENERATIONS: [&[&str]; 5] = [
    &["h100-sxm", "h100-pcie", "h100-nvl", "h200-sxm", "h200-nvl"],
    &["b200", "gb200", "b300"],
    &["mi300x", "mi325x"],
    &["a100-40gb", "a100-80gb"],
    &["tpu-v5e", "tpu-v6e"],
];

fn same_generation(a: &str, b: &str) -> bool {
    GENERATIONS.iter().any(|g| g.contains(&a) && g.contains(&b))
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

/// `slot`'s value for `gpu_id` by the transfer rule: this GPU's fit; a same-generation GPU's (the
/// first in the profile's order); the median over GPUs that have it; the sibling slot's by the same
/// rule; the ideal.
pub fn resolve(profile: &Profile, gpu_id: &str, slot: Slot) -> Resolved {
    resolve_direct(profile, gpu_id, slot)
        .or_else(|| {
            let sibling = slot.sibling()?;
            let found = resolve_direct(profile, gpu_id, sibling)?;
            Some(Resolved { value: found.value, origin: Origin::Sibling(sibling) })
        })
        .unwrap_or(Resolved { value: slot.ideal(), origin: Origin::Ideal })
}

fn resolve_direct(profile: &Profile, gpu_id: &str, slot: Slot) -> Option<Resolved> {
    let value_of = |g: &GpuProfile| g.slots[slot.index()];
    if let Some(value) = profile.gpus.iter().find(|g| g.gpu_id == gpu_id).and_then(value_of) {
        return Some(Resolved { value, origin: Origin::Fitted });
    }
    let peer = profile.gpus.iter().find(|g| same_generation(g.gpu_id, gpu_id) && value_of(g).is_some());
    if let Some(g) = peer {
        return value_of(g).map(|value| Resolved { value, origin: Origin::SameGeneration(g.gpu_id) });
    }
    // The profile covers a handful of GPUs: the median on the stack, no allocation on the step's path.
    let mut values = [0.0; 32];
    let mut n = 0;
    for v in profile.gpus.iter().filter_map(value_of).take(values.len()) {
        values[n] = v;
        n += 1;
    }
    median(&mut values[..n]).map(|value| Resolved { value, origin: Origin::Median })
}

impl Profile<'_> {
    /// The terms `scenario` pays with `engine`: its GPU's (or transferred) fractions for the slots its
    /// model and precision use, the global per-layer overhead and the engine's per-step overhead.
    pub fn terms(&self, scenario: &Scenario, engine: Engine) -> CostTerms {
        let id = scenario.gpu.id;
        let (gemm_slot, attention_slot) = scenario_slots(scenario);
        let compute = resolve(self, id, Slot::Compute).value;
        let group = |slot| Efficiency { memory: resolve(self, id, slot).value, compute };
        CostTerms {
            gemm: group(gemm_slot),
            decode_attention: group(attention_slot),
            prefill_attention: group(attention_slot),
            step_overhead_s: self.engine_step_overhead_s[engine.index()],
            layer_overhead_s: self.layer_overhead_s,
            collective_latency_s: resolve(self, id, Slot::CollectiveLatency).value,
        }
    }

    /// Each slot `scenario` uses with its value and origin, for the page's "transferred" line.
    pub fn provenance(&self, scenario: &Scenario) -> Vec<(Slot, Resolved)> {
        let (gemm_slot, attention_slot) = scenario_slots(scenario);
        let mut slots = vec![gemm_slot, attention_slot, Slot::Compute];
        if scenario.tp > 1 {
            slots.push(Slot::CollectiveLatency);
        }
        slots.into_iter().map(|s| (s, resolve(self, scenario.gpu.id, s))).collect()
    }
}

/// The slots a scenario's steps use: (GEMM memory, decode attention memory).
pub fn scenario_slots(scenario: &Scenario) -> (Slot, Slot) {
    let gemm = match (scenario.model.moe.is_some(), scenario.weight_precision) {
        (true, _) => Slot::GemmMoe,
        (false, Precision::Bf16) => Slot::GemmDense16,
        (false, _) => Slot::GemmDense8,
    };
    let attention = match scenario.model.attention {
        Attention::Gqa { .. } => Slot::AttentionGqa,
        Attention::Mla { .. } => Slot::AttentionMla,
    };
    (gemm, attention)
}
