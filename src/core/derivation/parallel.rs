//! The derivation's parallelism lines (expert, data or pipeline parallelism; none for tensor
//! parallelism alone): the replica and its system, the weights each GPU holds, the KV pool over DP
//! ranks, and at the served batch the imbalance, the all-to-all and the pipeline's sends, each with
//! the operands the page substitutes and the roofline's own result.

use serde::Serialize;

use crate::calibration::terms::cost_terms;
use crate::model::{expert_params, moe_layers};
use crate::parallel::{domain_gpus, link_bytes_per_s, Parallelism};
use crate::roofline::{
    kv_bytes_per_seq_held, kv_pool_sequences, step_time, usable_hbm_bytes, weight_bytes_per_gpu, Analysis,
    StepTime,
};
use crate::scenario::Scenario;

/// Every operand of the parallelism lines.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ParallelLines {
    pub parallel: Parallelism,
    /// GPUs per NVLink domain and domains (nodes or racks).
    pub domain_gpus: u32,
    pub nodes: u32,
    /// The link one stage's TP x DP GPUs span (NVLink, or the NIC past one domain), in B/s.
    pub stage_link_bytes_per_s: f64,
    /// Dense weights (attention, embeddings, dense and shared MLPs) and all routed experts, in B.
    pub dense_bytes: f64,
    pub expert_bytes: f64,
    /// (dense / TP + experts / (TP x DP)) / PP, in B ([`weight_bytes_per_gpu`]).
    pub weight_bytes_per_gpu: f64,
    /// Usable HBM per GPU and the KV one sequence holds per GPU (its shards and stages), in B.
    pub usable_bytes: f64,
    pub kv_bytes_per_seq_per_gpu: f64,
    /// One DP rank's pool and the replica's (DP x a rank's), in sequences before rounding.
    pub rank_pool_sequences: f64,
    pub pool_sequences: f64,
    /// The step at the batch the server runs (the knee or the pool), if any batch runs.
    pub at: Option<ParallelStep>,
}

/// The parallel terms of step(B) at one batch.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ParallelStep {
    pub batch: u32,
    pub time: StepTime,
    /// The kernel groups' time (the busiest rank's GEMMs and attention), in s.
    pub kernels_s: f64,
    /// MoE layers, routed experts per token, the hidden size and one call's latency (s).
    pub moe_layers: u32,
    pub top_k: u32,
    pub hidden_size: u32,
    pub latency_s: f64,
    /// One all-to-all call's own fixed cost (s) and the share of the link its bytes move at, under
    /// the cost model (0 and 1 but for the measured engines' wide-EP fit).
    pub all_to_all_call_s: f64,
    pub all_to_all_link_share: f64,
    /// The imbalance was set by the user (else uniform routing's busiest rank).
    pub imbalance_set: bool,
    /// Two-batch overlap hides the all-to-all behind the kernels.
    pub overlapped: bool,
    /// The all-to-all takes at least as long as the kernel groups: it sets the step.
    pub all_to_all_binds: bool,
}

/// The lines for `scenario`, `None` under tensor parallelism alone.
pub fn parallel_lines(scenario: &Scenario, analysis: &Analysis) -> Option<ParallelLines> {
    let p = scenario.parallel;
    if p.tp_only() {
        return None;
    }
    let bytes = scenario.weight_precision.bytes_per_element();
    let experts = f64::from(scenario.model.moe.map_or(0, |m| m.experts));
    let expert_bytes = expert_params(&scenario.model) * experts * bytes;
    let pool_sequences = kv_pool_sequences(scenario);
    Some(ParallelLines {
        parallel: p,
        domain_gpus: domain_gpus(&scenario.gpu),
        nodes: scenario.cluster.nodes.max(1),
        stage_link_bytes_per_s: link_bytes_per_s(&scenario.gpu, &scenario.cluster, p.stage_gpus()),
        dense_bytes: (scenario.model.params * bytes - expert_bytes).max(0.0),
        expert_bytes,
        weight_bytes_per_gpu: weight_bytes_per_gpu(scenario),
        usable_bytes: usable_hbm_bytes(scenario),
        kv_bytes_per_seq_per_gpu: kv_bytes_per_seq_held(scenario),
        rank_pool_sequences: pool_sequences / f64::from(p.dp.max(1)),
        pool_sequences,
        at: (analysis.server_batch > 0).then(|| parallel_step(scenario, analysis.server_batch)),
    })
}

fn parallel_step(scenario: &Scenario, batch: u32) -> ParallelStep {
    let time = step_time(scenario, batch);
    let t = &time.terms;
    let kernels_s = group_sum_s(&time);
    let terms = cost_terms(scenario);
    ParallelStep {
        batch,
        time,
        kernels_s,
        moe_layers: moe_layers(&scenario.model),
        top_k: scenario.model.moe.map_or(0, |m| m.top_k),
        hidden_size: scenario.model.hidden_size,
        latency_s: terms.collective_latency_s,
        all_to_all_call_s: terms.all_to_all_call_s,
        all_to_all_link_share: terms.all_to_all_link_share,
        imbalance_set: scenario.expert_load.imbalance.is_some(),
        overlapped: scenario.expert_load.two_batch_overlap,
        all_to_all_binds: t.all_to_all_s > 0.0 && t.all_to_all_s >= kernels_s,
    }
}

/// The kernel groups' times summed (each the larger of its reads and its FLOPs: the step's own sum,
/// [`crate::roofline::StepRoofline::terms`], in real arithmetic), in s.
fn group_sum_s(time: &StepTime) -> f64 {
    let t = &time.terms;
    t.gemm.time_s() + t.decode_attention.time_s() + t.prefill_attention.time_s()
}
