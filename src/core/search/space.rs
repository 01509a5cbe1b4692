//! The search's space of replica shapes: every TP x EP x DP x PP a replica may have on one GPU
//! preset's system ([`parallelisms`]), in a fixed order, and the system each needs ([`cluster_for`]).
//!
//! The bounds, and why:
//! - TP in {1, 2, 4, 8} ([`TP_DEGREES`]): attention and the dense layers stay inside one 8-GPU board
//!   (the all-reduce on NVLink); published wide-EP deployments run attention at TP 1-8 with DP across.
//! - DP a power of two up to 64, and on a 72-GPU NVLink domain (GB200/GB300 NVL72) also TP x DP = 72,
//!   for MoE models only: a dense model's DP ranks share no weights, so TP x DP GPUs are DP replicas of
//!   the TP one, whose goodput per GPU the search already prices (DP = 1 for dense models).
//! - EP = 1 or EP = TP x DP, at most the model's routed experts (EP = 1 for dense models): the two
//!   layouts engines deploy (vLLM's `--enable-expert-parallel` makes the experts' group the whole
//!   TP x DP; without it the experts are tensor-parallel over it). An EP between them splits each
//!   rank's experts tensor-parallel again, which no engine offers.
//! - PP in {1, 2, 4} ([`PP_DEGREES`]): a pipeline only divides the weights and KV over more GPUs (it
//!   adds sends and, below PP sequences, a bubble). TP 8 x PP 4 already holds 1/32 of the weights per
//!   GPU (DeepSeek-V3's 1.34 TB at BF16: 42 GB on each of 32 GPUs), and a MoE model rather widens
//!   EP x DP, so deeper pipelines are left out. The search prices a pipeline only where half as many
//!   stages do not hold the weights ([`pipeline_unneeded`]): engines deploy PP to fit a model, and
//!   where the KV pool binds a replica that already fits, the extra KV room a pipeline would give is
//!   left out (a stated limit, which keeps the default search inside its time budget).
//! - TP x DP x PP <= [`REPLICA_GPUS_MAX`] (72: one NVL72 domain, or nine 8-GPU nodes).

use crate::parallel::{domain_gpus, Cluster, Parallelism};
use crate::presets::{GpuSpec, ModelSpec};

/// Tensor-parallel degrees searched.
pub const TP_DEGREES: [u32; 4] = [1, 2, 4, 8];
/// Pipeline degrees searched.
pub const PP_DEGREES: [u32; 3] = [1, 2, 4];
/// The most GPUs one replica may span.
pub const REPLICA_GPUS_MAX: u32 = 72;
/// Data-parallel degrees searched for MoE models (powers of two; see [`stage_shapes`] for 72).
pub const DP_DEGREES: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];

/// Every (TP, DP) of one stage on `gpu`'s system for `model`, at most `stage_max` GPUs a stage: TP
/// fastest within each DP; dense models DP = 1; MoE models the powers of two of [`DP_DEGREES`], and on a
/// 72-GPU domain also TP x DP = 72 when a stage may hold 72.
pub fn stage_shapes(model: &ModelSpec, gpu: &GpuSpec, stage_max: u32) -> Vec<(u32, u32)> {
    let dps: Vec<u32> = if model.moe.is_some() {
        let mut dps: Vec<u32> = DP_DEGREES.to_vec();
        dps.extend([72, 36, 18, 9].into_iter().filter(|_| domain_gpus(gpu) == 72));
        dps
    } else {
        vec![1]
    };
    let mut shapes = Vec::new();
    for dp in dps {
        for tp in TP_DEGREES {
            let stage = tp * dp;
            let odd = dp % 9 == 0 && stage != 72;
            if stage <= stage_max && !odd {
                shapes.push((tp, dp));
            }
        }
    }
    shapes
}

/// The EP degrees of a stage of `stage_gpus` GPUs: 1, and the whole stage when it is more than one GPU
/// and at most the routed experts; 1 alone for a dense model.
pub fn ep_degrees(model: &ModelSpec, stage_gpus: u32) -> Vec<u32> {
    let experts = model.moe.map_or(1, |m| m.experts);
    let wide = (stage_gpus > 1 && stage_gpus <= experts).then_some(stage_gpus);
    std::iter::once(1).chain(wide).collect()
}

/// Every replica shape searched on `gpu`'s system for `model`, whether or not the weights fit: PP
/// outermost, then the stage shapes of [`stage_shapes`], then EP ascending. The first four are TP
/// 1, 2, 4, 8 alone.
pub fn parallelisms(model: &ModelSpec, gpu: &GpuSpec) -> Vec<Parallelism> {
    let mut all = Vec::new();
    for pp in PP_DEGREES {
        for (tp, dp) in stage_shapes(model, gpu, REPLICA_GPUS_MAX / pp) {
            for ep in ep_degrees(model, tp * dp) {
                all.push(Parallelism { tp, ep, dp, pp });
            }
        }
    }
    all
}

/// The system a replica of `parallel` needs on `gpu`: as many domains (nodes, or NVL72 racks) as
/// hold its GPUs, with the system's published NIC per GPU ([`Cluster::one_node`]).
pub fn cluster_for(gpu: &GpuSpec, parallel: &Parallelism) -> Cluster {
    Cluster { nodes: parallel.gpus().div_ceil(domain_gpus(gpu)).max(1), ..Cluster::one_node(gpu) }
}

/// Whether the search leaves `parallel` out as a pipeline it does not need: PP > 1 and the same
/// shape with half the stages holds the weights (`fits`).
pub fn pipeline_unneeded(parallel: &Parallelism, fits: impl Fn(Parallelism) -> bool) -> bool {
    parallel.pp > 1 && fits(Parallelism { pp: parallel.pp / 2, ..*parallel })
}
