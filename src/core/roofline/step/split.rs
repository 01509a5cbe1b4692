//! A step under expert, data and pipeline parallelism ([`Split`]): which tokens the busiest GPU
//! runs, the expert weights it reads, and the all-to-all and pipeline transfers it waits for. Tensor
//! parallelism alone never comes here ([`super::StepRoofline`] keeps its exact path).
//!
//! Per step of T tokens (decodes x (1 + k) + prompt tokens) on a replica of PP stages of
//! G = TP x DP GPUs, EP expert ranks:
//!
//! - **Data-parallel attention:** the decodes spread evenly over the DP ranks; a step's prompt
//!   chunks run on one rank (a prompt is not split across ranks), which paces the step. That rank's
//!   T_rank = decodes x (1 + k) / DP + prompt tokens go through attention and the dense weights
//!   (dense weights / TP per GPU, 2 x dense active params x T_rank FLOPs over its TP GPUs). The
//!   simulator, which runs the ranks, passes each rank's own work instead
//!   ([`super::StepRoofline::terms_ranks`]) and takes the slowest rank's step.
//! - **Experts:** all T tokens are routed; the busiest EP rank receives f x the mean (f the
//!   imbalance: set by the user, else uniform routing's busiest rank,
//!   [`crate::parallel::busiest_rank_factor`]), and reads the experts those tokens touch:
//!   expert params x E[distinct experts of f x T tokens] / G bytes per GPU
//!   ([`crate::model::expected_experts`]) and does 2 x expert params x k x f x T / G FLOPs.
//! - **All-to-all (DP > 1):** each MoE layer dispatches the routed tokens to their experts and
//!   combines them back: two calls, each latency + per-call cost + f x T x k / EP x hidden x 2 B x
//!   (G - 1) / G over the slowest link the stage's G GPUs span, at a share of its bandwidth (the
//!   per-call cost and the share: what the wide-EP kernels add, fitted for the measured engines over
//!   NVLink or RDMA, 0 and 1 on the ideal roofline: [`crate::calibration::wide_ep`]). With DP = 1 every GPU already holds every token and
//!   the MoE output is combined by the TP all-reduce, so there is no all-to-all.
//! - **Two-batch overlap:** the step pays max(kernel groups, all-to-all) instead of their sum.
//! - **Pipeline (PP > 1):** the decodes run as m = min(PP, decoding sequences) microbatches; a token's
//!   step is one trip through every stage, so TPOT = step(B / m) of the whole model + (PP - 1)
//!   point-to-point sends of a microbatch's activations (latency + its tokens x hidden x 2 B over the
//!   link). A step's prompt chunks ride whole in one microbatch, which then paces the cycle. With
//!   fewer sequences than stages (m < PP) the stages idle part of the time: the bubble, 1 - m / PP.

use crate::calibration::CostTerms;
use crate::model::{expected_experts, expert_params, moe_layers};
use crate::parallel::{busiest_rank_factor, link_bytes_per_s, ExpertLoad, Parallelism};
use crate::roofline::ACTIVATION_BYTES;
use crate::scenario::Scenario;

use super::StepMix;

/// The coefficients of a step under EP, DP or PP (see the module).
#[derive(Clone, Copy, Debug)]
pub struct Split {
    pub parallel: Parallelism,
    load: ExpertLoad,
    /// Dense weight bytes per GPU (attention, embeddings, dense and shared MLPs): / TP, in B.
    pub dense_bytes_per_gpu: f64,
    /// One routed expert's weight bytes over the stage's G GPUs, in B.
    expert_bytes_per_gpu: f64,
    /// 2 x dense active params, in FLOP per token.
    dense_flop_per_token: f64,
    /// 2 x one expert's params, in FLOP per routed (token, expert) pair.
    expert_flop_per_pair: f64,
    experts: u32,
    top_k: u32,
    /// All-to-all bytes per routed pair at the busiest GPU over the link, in s per pair (0 without).
    all_to_all_s_per_pair: f64,
    /// All-to-all calls per step: 2 x MoE layers when DP > 1 on a MoE model, else 0.
    all_to_all_calls: f64,
    /// Pipeline sends per token over the link: hidden x 2 B / link, in s per token.
    p2p_s_per_token: f64,
    /// One collective call's latency under the cost model, in s.
    latency_s: f64,
    /// One all-to-all call's fixed cost: the link's latency + the kernels' per-call cost, in s.
    all_to_all_call_s: f64,
}

/// The pieces [`Split::rank_tokens`] and the rest return for one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SplitStep {
    /// Tokens through the busiest DP rank's attention and dense weights.
    pub rank_tokens: f64,
    /// The busiest EP rank's routed tokens over the mean.
    pub imbalance: f64,
    /// Expert weight bytes and FLOPs per GPU (FLOPs in TP-group units: per GPU x TP).
    pub expert_bytes: f64,
    pub expert_flop: f64,
    /// Dispatch + combine, in s.
    pub all_to_all_s: f64,
}

impl Split {
    /// The split of `scenario` (any parallelism; used when it is not TP alone) under its cost model's
    /// `terms`: one collective call's latency, and an all-to-all call's own fixed cost on top of it
    /// and the share of the link its bytes move at.
    pub fn new(scenario: &Scenario, terms: &CostTerms) -> Split {
        let latency_s = terms.collective_latency_s;
        let model = &scenario.model;
        let p = scenario.parallel;
        let bytes = scenario.weight_precision.bytes_per_element();
        let per_expert = expert_params(model);
        let (experts, top_k) = model.moe.map_or((0, 0), |m| (m.experts, m.top_k));
        let dense_params = (model.params - per_expert * f64::from(experts)).max(0.0);
        let dense_active = (model.active_params - per_expert * f64::from(top_k)).max(0.0);
        let g = f64::from(p.stage_gpus());
        let link = |gpus| link_bytes_per_s(&scenario.gpu, &scenario.cluster, gpus);
        let pair_bytes = f64::from(model.hidden_size) * ACTIVATION_BYTES;
        let a2a = p.dp > 1 && per_expert > 0.0 && p.stage_gpus() > 1;
        Split {
            parallel: p,
            load: scenario.expert_load,
            dense_bytes_per_gpu: dense_params * bytes / f64::from(p.tp.max(1)),
            expert_bytes_per_gpu: per_expert * bytes / g,
            dense_flop_per_token: 2.0 * dense_active,
            expert_flop_per_pair: 2.0 * per_expert,
            experts,
            top_k,
            all_to_all_s_per_pair: if a2a {
                pair_bytes * (g - 1.0)
                    / g
                    / f64::from(p.ep.max(1))
                    / (link(p.stage_gpus()) * terms.all_to_all_link_share)
            } else {
                0.0
            },
            all_to_all_calls: if a2a { 2.0 * f64::from(moe_layers(model)) } else { 0.0 },
            p2p_s_per_token: pair_bytes / link(p.gpus()),
            latency_s,
            all_to_all_call_s: latency_s + terms.all_to_all_call_s,
        }
    }

    /// A step of `tokens` tokens on every rank whose pacing rank runs `rank_tokens` of them through
    /// attention and the dense weights (evenly spread decodes plus the prompt chunks: see the
    /// module; the simulator's DP ranks: the slowest rank's own).
    #[inline]
    pub fn step(&self, tokens: f64, rank_tokens: f64) -> SplitStep {
        let imbalance = self.imbalance(tokens);
        let routed = tokens * imbalance;
        let g_over_tp = f64::from(self.parallel.dp.max(1));
        let expert_bytes = self.expert_bytes_per_gpu * expected_experts(self.experts, self.top_k, routed);
        let expert_flop = self.expert_flop_per_pair * f64::from(self.top_k) * routed / g_over_tp;
        let all_to_all_s = if self.all_to_all_calls > 0.0 {
            self.all_to_all_calls
                * (self.all_to_all_call_s + self.all_to_all_s_per_pair * routed * f64::from(self.top_k))
        } else {
            0.0
        };
        SplitStep { rank_tokens, imbalance, expert_bytes, expert_flop, all_to_all_s }
    }

    /// The busiest EP rank's routed tokens over the mean for a step of `tokens` tokens: the user's
    /// factor or uniform routing's ([`busiest_rank_factor`]), capped where that rank would get
    /// more pairs than its experts can take (each token at most min(k, E / EP) of them); 1 at EP 1.
    fn imbalance(&self, tokens: f64) -> f64 {
        let ep = self.parallel.ep.max(1);
        if ep <= 1 || self.top_k == 0 {
            return 1.0;
        }
        let pairs = tokens * f64::from(self.top_k);
        let f = self.load.imbalance.unwrap_or_else(|| busiest_rank_factor(ep, pairs));
        let per_rank_max = f64::from(self.top_k).min(f64::from(self.experts) / f64::from(ep));
        f.clamp(1.0, (per_rank_max * f64::from(ep) / f64::from(self.top_k)).max(1.0))
    }

    /// 2 x dense active params, in FLOP per token through a rank's attention and dense weights.
    pub fn dense_flop_per_token(&self) -> f64 {
        self.dense_flop_per_token
    }

    /// Whether the all-to-all hides behind the kernel groups (two-batch overlap).
    pub fn overlapped(&self) -> bool {
        self.load.two_batch_overlap
    }

    /// Microbatches a step of `mix` runs as: min(PP, decoding sequences), at least 1.
    pub fn microbatches(&self, mix: &StepMix) -> f64 {
        mix.decode_seqs.clamp(1.0, f64::from(self.parallel.pp.max(1)))
    }

    /// (PP - 1) sends of one microbatch's `tokens` activations, in s (0 at PP 1).
    pub fn pipeline_s(&self, tokens: f64) -> f64 {
        let sends = f64::from(self.parallel.pp.max(1) - 1);
        sends * (self.latency_s + self.p2p_s_per_token * tokens)
    }
}

/// The busiest of `m` microbatches of `mix`: its share of the decodes, and the step's prompt chunks
/// whole (a prompt chunk is not split across microbatches; the microbatch that carries it paces
/// the pipeline's cycle, so adding a prompt never shortens a step).
pub fn microbatch(mix: &StepMix, m: f64) -> StepMix {
    StepMix { decode_seqs: mix.decode_seqs / m, decode_kv_tokens: mix.decode_kv_tokens / m, ..*mix }
}
