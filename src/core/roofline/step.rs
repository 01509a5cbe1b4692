//! One step's cost from its composition, per operator group: the one formula that the analytic
//! decode step, the prefill (TTFT) and the simulator's mixed steps all call.
//!
//! A step runs its kernel groups one after another, each on the same GPUs:
//!
//! - **GEMMs** (every weight matrix, MoE experts included): bytes = params_read(T) x bytes per
//!   weight / TP per GPU (MoE: the experts the step's T tokens touch), FLOPs = 2 x active params x T,
//!   where T = decode sequences x (1 + k) + prefill tokens (k: draft tokens verified per sequence,
//!   0 without speculative decoding).
//! - **Decode attention**: bytes = the KV the decoding sequences hold (held tokens x KV per token /
//!   shards, per GPU), FLOPs = one query-key pair per held token per layer x
//!   [`attention_flop_per_pair`](crate::model::attention_flop_per_pair) x (1 + k): a verify
//!   step scores k + 1 queries per sequence against the KV it reads once.
//! - **Prefill attention**: bytes = the KV the prompts hold from their earlier chunks, FLOPs = the
//!   chunks' causal pairs x the same per-pair FLOPs.
//!
//! Each group costs max(bytes / (bandwidth x f_memory), FLOPs / (TP x peak x f_compute)), with the
//! cost model's achieved fractions ([`crate::calibration`]; 1 on the ideal roofline); the step
//! is their sum plus the all-reduces' bytes (two per layer, linear in T, over the link) and the cost
//! model's fixed costs (per step + layers x per layer + the all-reduces' latency), in s:
//!
//! step = Σ_g max(bytes_g / bw, FLOP_g / peak) + all-reduce(T) + overhead
//!      = (bytes of the memory-bound groups) / bw + (FLOPs of the compute-bound groups) / peak + ...
//!
//! Assumptions: the groups do not overlap (a kernel waits for the one before it); within a group,
//! reading and computing overlap perfectly (the roofline); every group multiplies at the weight
//! precision's tensor peak; the tokens a step adds to the cache are written by its GEMMs and not
//! counted as a read; activations are not counted as bytes. Where every group is memory-bound (the
//! worked example: decode at 2,048 tokens of context up to the KV pool) the sum is (weights + KV) /
//! bw, the single roofline max(memory, compute) to the bit. It is longer than the single max where
//! a group is compute-bound while another still reads: a large batch with FP8 or FP4 weights (the
//! GEMMs compute-bound, the KV still read) or a step with many prefill tokens (the GEMMs
//! compute-bound while the decodes' attention reads all their KV), which is why prefill and decode
//! interfere. Attention FLOPs also enter decode steps, which the single max left out.

mod split;
mod terms;

use super::{allreduce_s, kv_bytes_per_seq, kv_shards, peak_flop_per_s, Bound};
use crate::calibration::terms::cost_terms;
use crate::calibration::Efficiency;
use crate::model::{decode_attention_flop, params_read};
use crate::presets::ModelSpec;
use crate::scenario::Scenario;
use split::{microbatch, Split};
pub use terms::{Group, GroupCost, StepMix, StepTerms};

/// A scenario's per-step coefficients, gathered once (the simulator prices millions of steps).
#[derive(Clone, Copy, Debug)]
pub struct StepRoofline {
    model: ModelSpec,
    /// Bytes per weight element, in B.
    weight_bytes_per_param: f64,
    /// GPUs the weights split over.
    tp: f64,
    /// KV bytes a held token costs each GPU: kv_per_seq(context) / context / shards, in B.
    kv_bytes_per_token: f64,
    /// Decode attention FLOPs per held token: decode_attention_flop(context) / context, in FLOP.
    attention_flop_per_kv_token: f64,
    /// 2 x active params, in FLOP per token.
    flop_per_token: f64,
    /// Each group's achieved bandwidth and peak: HBM bandwidth x its memory fraction, TP x the
    /// weight precision's per-GPU peak x its compute fraction ([`Rates`]).
    gemm: Rates,
    decode_attention: Rates,
    prefill_attention: Rates,
    /// All-reduce time per token in the step (bytes over the link), in s.
    allreduce_s_per_token: f64,
    /// The cost model's fixed costs per step: per step + layers x per layer + the all-reduces'
    /// latency (2 x layers x per call at TP > 1), in s.
    fixed_s: f64,
    /// Expert, data or pipeline parallelism ([`split`]); `None` for tensor parallelism alone.
    split: Option<Split>,
}

/// One kernel group's achieved bandwidth and peak, and their ratios to the GEMM group's (1 where
/// equal, so an all-memory-bound step is (weights + KV) / bw to the bit).
#[derive(Clone, Copy, Debug)]
struct Rates {
    bandwidth_bytes_per_s: f64,
    peak_flop_per_s: f64,
    /// GEMM group's memory fraction / this group's.
    bytes_weight: f64,
    /// GEMM group's compute fraction / this group's.
    flop_weight: f64,
}

impl Rates {
    fn new(bw: f64, peak: f64, e: Efficiency, gemm: Efficiency) -> Rates {
        Rates {
            bandwidth_bytes_per_s: bw * e.memory,
            peak_flop_per_s: peak * e.compute,
            bytes_weight: gemm.memory / e.memory,
            flop_weight: gemm.compute / e.compute,
        }
    }

    fn group(&self, bytes: f64, flop: f64) -> GroupCost {
        GroupCost {
            bytes,
            flop,
            memory_s: bytes / self.bandwidth_bytes_per_s,
            compute_s: flop / self.peak_flop_per_s,
        }
    }
}

impl StepRoofline {
    /// The coefficients of `scenario` under its cost model ([`cost_terms`]). Per-token KV bytes and
    /// attention FLOPs are the scenario's context's averages (exact without sliding windows; with
    /// them, exact at that context).
    pub fn new(scenario: &Scenario) -> StepRoofline {
        let context = f64::from(scenario.context_tokens.max(1));
        let attention = decode_attention_flop(&scenario.model, scenario.context_tokens.max(1));
        let c = cost_terms(scenario);
        let (bw, peak) = (scenario.gpu.hbm_bandwidth_bytes_per_s, peak_flop_per_s(scenario));
        StepRoofline {
            model: scenario.model,
            weight_bytes_per_param: scenario.weight_precision.bytes_per_element(),
            tp: f64::from(scenario.parallel.tp.max(1)),
            kv_bytes_per_token: kv_bytes_per_seq(scenario) / context / kv_shards(scenario),
            attention_flop_per_kv_token: attention / context,
            flop_per_token: 2.0 * scenario.model.active_params,
            gemm: Rates::new(bw, peak, c.gemm, c.gemm),
            decode_attention: Rates::new(bw, peak, c.decode_attention, c.gemm),
            prefill_attention: Rates::new(bw, peak, c.prefill_attention, c.gemm),
            allreduce_s_per_token: allreduce_s(scenario, 1.0),
            fixed_s: c.step_fixed_s(&scenario.model, &scenario.parallel),
            split: (!scenario.parallel.tp_only()).then(|| Split::new(scenario, &c)),
        }
    }

    /// Whether this is tensor parallelism alone, whose GEMM group depends on the step's token count
    /// only ([`StepRoofline::gemm`], so a caller may price it once per count).
    pub fn tp_only(&self) -> bool {
        self.split.is_none()
    }

    /// Data-parallel ranks the replica's attention runs on (1 under tensor parallelism alone).
    pub fn dp_ranks(&self) -> u32 {
        self.split.map_or(1, |s| s.parallel.dp.max(1))
    }

    /// The step's cost per group and in total (see the module's equations), in s. Allocation-free.
    #[inline]
    pub fn terms(&self, mix: &StepMix) -> StepTerms {
        if let Some(split) = &self.split {
            return self.even_split_terms(split, mix);
        }
        let tokens = mix.decode_seqs * (1.0 + mix.verify_draft_tokens) + mix.prefill_tokens;
        self.terms_with_gemm(self.gemm(tokens), tokens, mix)
    }

    /// One replica step of data-parallel ranks: `total` is every rank's work together (the experts
    /// and the all-to-all see all its tokens), `rank` one rank's (its tokens through attention and
    /// the dense weights, its decodes' and prompts' attention). The step is paced by its slowest
    /// rank: the simulator prices every rank this way and takes the longest. [`StepRoofline::terms`]
    /// is the case of `rank` = the decodes spread evenly and every prompt chunk on the one rank;
    /// with one rank (or tensor parallelism alone) this is `terms(total)`.
    #[inline]
    pub fn terms_ranks(&self, total: &StepMix, rank: &StepMix) -> StepTerms {
        let Some(split) = &self.split else { return self.terms(total) };
        let microbatches = split.microbatches(total);
        let mb = microbatch(total, microbatches);
        let r = microbatch(rank, microbatches);
        let rank_tokens = r.decode_seqs * (1.0 + r.verify_draft_tokens) + r.prefill_tokens;
        self.split_terms(split, microbatches, &mb, rank_tokens, &r)
    }

    /// [`StepRoofline::terms`] under expert, data or pipeline parallelism ([`split`]): the decodes
    /// spread evenly over the DP ranks and the prompt chunks on one rank, which paces the step.
    fn even_split_terms(&self, split: &Split, mix: &StepMix) -> StepTerms {
        let microbatches = split.microbatches(mix);
        let mb = microbatch(mix, microbatches);
        let dp = f64::from(split.parallel.dp.max(1));
        let rank_tokens = mb.decode_seqs * (1.0 + mb.verify_draft_tokens) / dp + mb.prefill_tokens;
        let rank = StepMix { decode_kv_tokens: mb.decode_kv_tokens / dp, ..mb };
        self.split_terms(split, microbatches, &mb, rank_tokens, &rank)
    }

    /// One microbatch's step on the busiest ranks (`mb` every rank's microbatch, `rank_tokens` and
    /// `rank`'s attention the pacing rank's), plus the all-to-all and the pipeline's sends.
    fn split_terms(
        &self,
        split: &Split,
        microbatches: f64,
        mb: &StepMix,
        rank_tokens: f64,
        rank: &StepMix,
    ) -> StepTerms {
        let tokens = mb.decode_seqs * (1.0 + mb.verify_draft_tokens) + mb.prefill_tokens;
        let s = split.step(tokens, rank_tokens);
        let gemm = self.gemm.group(
            split.dense_bytes_per_gpu + s.expert_bytes,
            split.dense_flop_per_token() * s.rank_tokens + s.expert_flop,
        );
        let decode_attention = self.decode_attention(rank);
        let prefill_attention = self.prefill_attention(rank.prefill_kv_tokens, rank.prefill_attention_flop);
        let groups_s = self.groups_s(&gemm, &decode_attention, &prefill_attention);
        let exposed_s =
            if split.overlapped() { groups_s.max(s.all_to_all_s) } else { groups_s + s.all_to_all_s };
        let allreduce_s = self.allreduce_s_per_token * s.rank_tokens;
        let pipeline_s = split.pipeline_s(s.rank_tokens);
        StepTerms {
            gemm,
            decode_attention,
            prefill_attention,
            allreduce_s,
            fixed_s: self.fixed_s,
            step_s: exposed_s + allreduce_s + pipeline_s + self.fixed_s,
            binding: binding(&gemm, &decode_attention, &prefill_attention),
            all_to_all_s: s.all_to_all_s,
            pipeline_s,
            imbalance: s.imbalance,
            microbatches,
        }
    }

    /// The decode attention group of `mix`'s decodes (held KV read, (1 + k) x its FLOPs).
    #[inline]
    fn decode_attention(&self, mix: &StepMix) -> GroupCost {
        self.decode_attention.group(
            mix.decode_kv_tokens * self.kv_bytes_per_token,
            mix.decode_kv_tokens * self.attention_flop_per_kv_token * (1.0 + mix.verify_draft_tokens),
        )
    }

    /// The groups' time summed as bytes over the GEMMs' bandwidth plus FLOPs over their peak (each
    /// group's weighted by its rate's ratio to the GEMMs', exactly 1 where equal), so that an
    /// all-memory-bound step with one memory fraction is (weights + KV) / bw to the bit, as the
    /// single roofline computed it, in s.
    #[inline]
    fn groups_s(&self, gemm: &GroupCost, decode_attention: &GroupCost, prefill_attention: &GroupCost) -> f64 {
        let (mut bytes, mut flop) = (0.0, 0.0);
        let groups = [(gemm, &self.gemm), (decode_attention, &self.decode_attention)];
        for (g, rates) in groups.into_iter().chain([(prefill_attention, &self.prefill_attention)]) {
            match g.bound() {
                Bound::Compute => flop += g.flop * rates.flop_weight,
                Bound::Memory => bytes += g.bytes * rates.bytes_weight,
            }
        }
        bytes / self.gemm.bandwidth_bytes_per_s + flop / self.gemm.peak_flop_per_s
    }

    /// The GEMM group of a step of `tokens` tokens (decode sequences x (1 + k) + prefill tokens):
    /// params_read(T) x bytes per weight / TP, and 2 x active params x T.
    #[inline]
    pub fn gemm(&self, tokens: f64) -> GroupCost {
        let weights = params_read(&self.model, tokens) * self.weight_bytes_per_param / self.tp;
        self.gemm.group(weights, self.flop_per_token * tokens)
    }

    /// The prefill attention group: the prompts' earlier KV read (held tokens x KV bytes per token)
    /// and their chunks' causal attention FLOPs.
    #[inline]
    pub fn prefill_attention(&self, prefill_kv_tokens: f64, prefill_attention_flop: f64) -> GroupCost {
        self.prefill_attention.group(prefill_kv_tokens * self.kv_bytes_per_token, prefill_attention_flop)
    }

    /// [`StepRoofline::terms`] given its GEMM group ([`StepRoofline::gemm`] of `tokens`, the step's
    /// tokens as `terms` counts them from `mix`), so a caller stepping the same token count many
    /// times prices the GEMMs once.
    #[inline]
    pub fn terms_with_gemm(&self, gemm: GroupCost, tokens: f64, mix: &StepMix) -> StepTerms {
        let decode_attention = self.decode_attention(mix);
        let prefill_attention = self.prefill_attention(mix.prefill_kv_tokens, mix.prefill_attention_flop);
        let allreduce_s = self.allreduce_s_per_token * tokens;
        let step_s = self.groups_s(&gemm, &decode_attention, &prefill_attention) + allreduce_s + self.fixed_s;
        StepTerms {
            gemm,
            decode_attention,
            prefill_attention,
            allreduce_s,
            fixed_s: self.fixed_s,
            step_s,
            binding: binding(&gemm, &decode_attention, &prefill_attention),
            all_to_all_s: 0.0,
            pipeline_s: 0.0,
            imbalance: 1.0,
            microbatches: 1.0,
        }
    }
}

/// The group that takes longest (the first of equals).
fn binding(gemm: &GroupCost, decode_attention: &GroupCost, prefill_attention: &GroupCost) -> Group {
    let mut binding = Group::Gemm;
    if decode_attention.time_s() > gemm.time_s() {
        binding = Group::DecodeAttention;
    }
    if prefill_attention.time_s() > gemm.time_s().max(decode_attention.time_s()) {
        binding = Group::PrefillAttention;
    }
    binding
}

/// [`StepRoofline::terms`] for one step of `scenario`.
pub fn step_terms(scenario: &Scenario, mix: &StepMix) -> StepTerms {
    StepRoofline::new(scenario).terms(mix)
}
