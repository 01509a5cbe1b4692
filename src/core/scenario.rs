//! One validated what-if, [`Scenario`]: a model on GPUs with its precisions, lengths, targets,
//! cost model, speculation and prefix cache, the one input every formula of the core reads; the
//! workload's rule for the context it holds ([`context_for`]); and the worked example's scenario
//! ([`WORKED_EXAMPLE`]).

use serde::{Deserialize, Serialize};

use super::calibration::CostModel;
use super::parallel::{Cluster, ExpertLoad, Parallelism};
use super::precision::Precision;
use super::prefix::PrefixCache;
use super::presets::{GpuSpec, ModelSpec, DEFAULT_MEMORY_UTILIZATION, DEFAULT_TTFT_S, GPUS, MODELS};
use super::spec::Speculation;

/// One validated what-if: a model on GPUs with its precisions, lengths, targets and calibration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub model: ModelSpec,
    pub gpu: GpuSpec,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
    /// The replica's parallelism, TP x EP x DP x PP ([`Parallelism::tp`] alone by default).
    pub parallel: Parallelism,
    /// The system it runs on: NVLink domains and the NIC between them ([`Cluster::ONE_NODE`]).
    pub cluster: Cluster,
    /// How routed tokens spread over EP ranks, and two-batch overlap ([`ExpertLoad::UNIFORM`]).
    pub expert_load: ExpertLoad,
    /// Tokens of KV every running sequence holds (the worked example's simplification: all at this
    /// length): the mean context over a request's answer, prompt + output / 2 ([`context_for`]).
    pub context_tokens: u32,
    /// Tokens each request generates.
    pub output_tokens: u32,
    /// Time-per-output-token objective, in s.
    pub tpot_target_s: f64,
    /// Time-to-first-token objective, in s.
    pub ttft_target_s: f64,
    /// Share of HBM the server may use for weights plus KV (0.9 by default, as vLLM).
    pub memory_utilization: f64,
    /// The cost model: ideal, custom, measured ([`crate::calibration`]).
    pub calibration: CostModel,
    /// Speculative decoding ([`Speculation::OFF`] by default).
    pub speculation: Speculation,
    /// A shared prompt prefix and its cache hit rate ([`PrefixCache::NONE`] by default).
    pub prefix: PrefixCache,
}

/// The one rule from the workload as users state it to the context the step model reads:
/// context = prompt + floor(output / 2), in tokens. A sequence holds its prompt plus the tokens it
/// has written, so over its answer it holds prompt + output / 2 on average.
pub fn context_for(prompt_tokens: u32, output_tokens: u32) -> u32 {
    prompt_tokens.saturating_add(output_tokens / 2)
}

impl Scenario {
    /// The prompt (tokens in) of the scenario's requests: the inverse of [`context_for`],
    /// context - floor(output / 2), at least 1 token.
    pub fn prompt_tokens(&self) -> u32 {
        self.context_tokens.saturating_sub(self.output_tokens / 2).max(1)
    }

    /// The same scenario on the ideal roofline.
    pub fn ideal(&self) -> Scenario {
        Scenario { calibration: CostModel::Ideal, ..*self }
    }
}

/// The worked example's scenario: Llama 3.1 8B, BF16, one H100 SXM, 2,048 tokens, 10 ms TPOT, 256
/// out, on the ideal roofline.
pub const WORKED_EXAMPLE: Scenario = Scenario {
    model: MODELS[0],
    gpu: GPUS[0],
    weight_precision: Precision::Bf16,
    kv_precision: Precision::Bf16,
    parallel: Parallelism::tp(1),
    cluster: Cluster::ONE_NODE,
    expert_load: ExpertLoad::UNIFORM,
    context_tokens: 2048,
    output_tokens: 256,
    tpot_target_s: 0.010,
    ttft_target_s: DEFAULT_TTFT_S,
    memory_utilization: DEFAULT_MEMORY_UTILIZATION,
    calibration: CostModel::Ideal,
    speculation: Speculation::OFF,
    prefix: PrefixCache::NONE,
};
