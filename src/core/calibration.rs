//! The cost model's calibrations: which fixed costs and achieved fractions a step pays on top of the
//! roofline, and where they come from (none: the ideal roofline; two round numbers: custom; a fit to
//! published measurements: measured).
//!
//! A calibrated step is the roofline's per-operator step with four changes, each zero (or 1) on the
//! ideal roofline, so the worked example's numbers stay exact:
//!
//! - every kernel group (GEMMs, decode attention, prefill attention) reads at an achieved fraction of
//!   peak HBM bandwidth and multiplies at an achieved fraction of the tensor peak: time =
//!   max(bytes / (bw x f_memory), FLOPs / (peak x f_compute));
//! - a per-step overhead (scheduler, sampling, the step's launch), per engine;
//! - a per-layer overhead x layers (the launches and small operators every layer runs: norms, rotary
//!   embedding, activation, residual adds, MoE routing);
//! - each of the two all-reduces per layer under TP costs latency + bytes / link bandwidth.
//!
//! Assumptions: the fractions depend on the GPU, the kernel group and (for GEMMs) on dense against MoE
//! weights and 16-bit against 8-bit-or-less weights, not on the batch; the overheads do not depend on
//! the batch or the context; the collective latency does not depend on TP (small all-reduces on one
//! node are one-shot); the all-reduce's bytes move at the datasheet's link bandwidth.

pub mod fit;
mod nnls;
pub mod predict;
pub mod profile;
pub mod published;
pub mod references;
pub mod render;
pub mod report;
pub mod summary;
pub mod transfer;

use serde::{Deserialize, Serialize};

use super::precision::Precision;
use super::presets::Attention;
use super::roofline::Scenario;
use super::url_id::UrlId;
pub use transfer::{resolve, Origin, Resolved};

/// An inference engine the published measurements cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Engine {
    Vllm,
    Sglang,
    Trtllm,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Vllm, Engine::Sglang, Engine::Trtllm];

    /// The URL id (`vllm`, `sglang`, `trtllm`): [`UrlId::url_id`].
    pub fn id(self) -> &'static str {
        self.url_id()
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Vllm => "vLLM",
            Engine::Sglang => "SGLang",
            Engine::Trtllm => "TensorRT-LLM",
        }
    }

    /// The engine with this URL id: [`UrlId::from_url_id`].
    pub fn from_id(id: &str) -> Option<Engine> {
        Engine::from_url_id(id)
    }

    /// The engine's index in [`Engine::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl UrlId for Engine {
    const VARIANTS: &'static [Engine] = &Engine::ALL;

    fn url_id(self) -> &'static str {
        match self {
            Engine::Vllm => "vllm",
            Engine::Sglang => "sglang",
            Engine::Trtllm => "trtllm",
        }
    }
}

/// Custom calibration's two terms (today's realistic mode): one achieved share of HBM bandwidth for
/// every kernel group and a fixed per-step overhead.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Achieved share of peak HBM bandwidth (MBU), in (0, 1].
    pub mbu: f64,
    /// Fixed time added to every step (scheduling, sampling, launches), in s.
    pub overhead_s: f64,
}

impl Calibration {
    /// Full bandwidth, no overhead: numerically the ideal roofline.
    pub const IDEAL: Calibration = Calibration { mbu: 1.0, overhead_s: 0.0 };
    /// Custom mode's starting point: 80% MBU and 1 ms per step. Round figures in the range public
    /// engine measurements report; assumptions to replace with a measurement, not data.
    pub const REALISTIC_DEFAULT: Calibration = Calibration { mbu: 0.8, overhead_s: 1e-3 };
}

/// Which cost model prices a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum CostModel {
    /// The ideal roofline: the worked example and the teaching model.
    Ideal,
    /// One MBU and one per-step overhead (custom, or the user's own measurements' fit).
    Custom(Calibration),
    /// The profile fitted to published measurements ([`profile::PROFILE`]), with this engine's
    /// per-step overhead.
    Measured(Engine),
    /// Explicit terms (the fit prices candidate profiles this way).
    Terms(CostTerms),
}

impl CostModel {
    /// The custom calibration, if this is one.
    pub fn custom(self) -> Option<Calibration> {
        match self {
            CostModel::Custom(c) => Some(c),
            _ => None,
        }
    }
}

impl From<Calibration> for CostModel {
    fn from(c: Calibration) -> CostModel {
        CostModel::Custom(c)
    }
}

/// Achieved fractions of one kernel group: of peak HBM bandwidth and of the tensor peak, in (0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Efficiency {
    pub memory: f64,
    pub compute: f64,
}

impl Efficiency {
    pub const FULL: Efficiency = Efficiency { memory: 1.0, compute: 1.0 };
}

/// The resolved terms one scenario's steps pay.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostTerms {
    pub gemm: Efficiency,
    pub decode_attention: Efficiency,
    pub prefill_attention: Efficiency,
    /// Per step, in s.
    pub step_overhead_s: f64,
    /// Per layer per step, in s.
    pub layer_overhead_s: f64,
    /// Per all-reduce call (two per layer) at TP > 1, in s.
    pub collective_latency_s: f64,
}

impl CostTerms {
    pub const IDEAL: CostTerms = CostTerms {
        gemm: Efficiency::FULL,
        decode_attention: Efficiency::FULL,
        prefill_attention: Efficiency::FULL,
        step_overhead_s: 0.0,
        layer_overhead_s: 0.0,
        collective_latency_s: 0.0,
    };

    /// Custom: every group reads at `mbu` of peak and multiplies at the full peak; the overhead per step.
    pub fn custom(c: Calibration) -> CostTerms {
        let e = Efficiency { memory: c.mbu, compute: 1.0 };
        CostTerms {
            gemm: e,
            decode_attention: e,
            prefill_attention: e,
            step_overhead_s: c.overhead_s,
            ..CostTerms::IDEAL
        }
    }

    /// The fixed costs every step pays: per step + layers x per layer + (at TP > 1) two all-reduce
    /// latencies per layer, in s.
    pub fn fixed_s(&self, layers: u32, tp: u32) -> f64 {
        let layers = f64::from(layers);
        let collectives = if tp > 1 { 2.0 * layers * self.collective_latency_s } else { 0.0 };
        self.step_overhead_s + layers * self.layer_overhead_s + collectives
    }
}

/// Which per-GPU term of the measured profile a scenario's step uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    /// Dense GEMMs' memory fraction with 16-bit weights.
    GemmDense16,
    /// Dense GEMMs' memory fraction with 8-bit or smaller weights (FP8; INT4 and FP4 assumed alike).
    GemmDense8,
    /// MoE grouped GEMMs' memory fraction (the whole GEMM group of an MoE model).
    GemmMoe,
    /// Decode attention's memory fraction, grouped-query attention.
    AttentionGqa,
    /// Decode attention's memory fraction, multi-head latent attention.
    AttentionMla,
    /// The tensor-core fraction every compute-bound group reaches.
    Compute,
    /// An all-reduce call's latency, in s.
    CollectiveLatency,
}

impl Slot {
    pub const ALL: [Slot; 7] = [
        Slot::GemmDense16,
        Slot::GemmDense8,
        Slot::GemmMoe,
        Slot::AttentionGqa,
        Slot::AttentionMla,
        Slot::Compute,
        Slot::CollectiveLatency,
    ];
    pub const COUNT: usize = 7;

    pub fn index(self) -> usize {
        self as usize
    }

    /// What the slot is, for the page.
    pub fn label(self) -> &'static str {
        match self {
            Slot::GemmDense16 => "dense GEMMs, 16-bit weights (HBM fraction)",
            Slot::GemmDense8 => "dense GEMMs, 8-bit or smaller weights (HBM fraction)",
            Slot::GemmMoe => "MoE grouped GEMMs (HBM fraction)",
            Slot::AttentionGqa => "decode attention, GQA (HBM fraction)",
            Slot::AttentionMla => "decode attention, MLA (HBM fraction)",
            Slot::Compute => "compute-bound groups (tensor-peak fraction)",
            Slot::CollectiveLatency => "all-reduce latency per call",
        }
    }

    /// The slot a value is borrowed from when no GPU of the data has this one (then the ideal).
    pub fn sibling(self) -> Option<Slot> {
        match self {
            Slot::GemmDense16 => Some(Slot::GemmDense8),
            Slot::GemmDense8 => Some(Slot::GemmDense16),
            Slot::GemmMoe => Some(Slot::GemmDense8),
            Slot::AttentionGqa => Some(Slot::AttentionMla),
            Slot::AttentionMla => Some(Slot::AttentionGqa),
            Slot::Compute | Slot::CollectiveLatency => None,
        }
    }

    /// The value of this slot on the ideal roofline.
    pub fn ideal(self) -> f64 {
        match self {
            Slot::CollectiveLatency => 0.0,
            _ => 1.0,
        }
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

/// The terms `scenario`'s steps pay under its cost model.
pub fn cost_terms(scenario: &Scenario) -> CostTerms {
    match scenario.calibration {
        CostModel::Ideal => CostTerms::IDEAL,
        CostModel::Custom(c) => CostTerms::custom(c),
        CostModel::Terms(t) => t,
        CostModel::Measured(engine) => profile::PROFILE.terms(scenario, engine),
    }
}
