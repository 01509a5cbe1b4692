//! A step's composition and its cost per kernel group: what [`super::StepRoofline::terms`] takes
//! ([`StepMix`]) and returns ([`StepTerms`], one [`GroupCost`] per [`Group`]).

use serde::{Deserialize, Serialize};

use crate::roofline::Bound;

/// What one step runs, in tokens (real-valued so that the knee can bisect over the batch).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepMix {
    /// Sequences decoding one token each.
    pub decode_seqs: f64,
    /// KV tokens those sequences hold when the step starts: the sum of their contexts.
    pub decode_kv_tokens: f64,
    /// Prompt tokens prefilled in this step, all chunks together.
    pub prefill_tokens: f64,
    /// KV tokens the chunks' prompts hold from their earlier chunks, read by their attention.
    pub prefill_kv_tokens: f64,
    /// Causal attention FLOPs of the chunks (a chunk of prompt tokens done..done + n:
    /// prefill_attention_flop(done + n) - prefill_attention_flop(done)), in FLOP.
    pub prefill_attention_flop: f64,
    /// Draft tokens each decoding sequence also verifies in this step (speculative decoding's k; 0
    /// without it): the step's GEMMs run decode_seqs x (1 + k) tokens and its decode attention does
    /// (1 + k) x the FLOPs, while the weights and the KV are still read once.
    pub verify_draft_tokens: f64,
}

impl StepMix {
    /// A decode step: `batch` sequences holding `context_tokens` each.
    pub fn decode(batch: f64, context_tokens: f64) -> StepMix {
        StepMix { decode_seqs: batch, decode_kv_tokens: batch * context_tokens, ..StepMix::default() }
    }
}

/// One kernel group's roofline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupCost {
    /// Bytes the group reads per GPU, in B.
    pub bytes: f64,
    /// FLOPs the group does over the whole replica, in FLOP.
    pub flop: f64,
    /// bytes / (bandwidth x MBU), in s.
    pub memory_s: f64,
    /// flop / (TP x peak), in s.
    pub compute_s: f64,
}

impl GroupCost {
    /// max(memory_s, compute_s), in s.
    pub fn time_s(&self) -> f64 {
        self.memory_s.max(self.compute_s)
    }

    /// Compute when its FLOPs take longer than its reads, else memory.
    pub fn bound(&self) -> Bound {
        if self.compute_s > self.memory_s {
            Bound::Compute
        } else {
            Bound::Memory
        }
    }
}

/// The kernel groups of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Group {
    Gemm,
    DecodeAttention,
    PrefillAttention,
}

impl Group {
    pub const ALL: [Group; 3] = [Group::Gemm, Group::DecodeAttention, Group::PrefillAttention];
}

/// A step's cost per group, and its total.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepTerms {
    pub gemm: GroupCost,
    pub decode_attention: GroupCost,
    pub prefill_attention: GroupCost,
    /// All-reduces' bytes for the step's tokens over the link, in s (0 at TP 1).
    pub allreduce_s: f64,
    /// The cost model's fixed costs per step (per step + layers x per layer + the all-reduces'
    /// latency), in s.
    pub fixed_s: f64,
    /// Σ group times + allreduce_s + fixed_s (+ all_to_all_s and pipeline_s under expert, data or
    /// pipeline parallelism), in s.
    pub step_s: f64,
    /// The group that takes longest (the first of equals).
    pub binding: Group,
    /// The MoE dispatch and combine all-to-alls (DP > 1), latency and bytes, in s (0 without).
    pub all_to_all_s: f64,
    /// The pipeline's point-to-point sends, (PP - 1) x (latency + bytes / link), in s (0 at PP 1).
    pub pipeline_s: f64,
    /// The busiest EP rank's routed tokens over the mean (1 at EP 1).
    pub imbalance: f64,
    /// Microbatches the step ran as, min(PP, sequences) (1 at PP 1).
    pub microbatches: f64,
}

impl StepTerms {
    pub fn group(&self, g: Group) -> &GroupCost {
        match g {
            Group::Gemm => &self.gemm,
            Group::DecodeAttention => &self.decode_attention,
            Group::PrefillAttention => &self.prefill_attention,
        }
    }

    /// The binding group's bound.
    pub fn bound(&self) -> Bound {
        self.group(self.binding).bound()
    }

    /// True when no group is compute-bound: the step is then the single roofline's
    /// (all bytes) / bandwidth + all-reduce + overhead.
    pub fn all_memory_bound(&self) -> bool {
        Group::ALL.iter().all(|&g| self.group(g).bound() == Bound::Memory)
    }
}
