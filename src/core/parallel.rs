//! A replica's parallelism, TP x EP x DP x PP ([`Parallelism`]), over a system of GPUs
//! ([`Cluster`]: NVLink domains joined by a NIC per GPU), the link each group's collectives cross
//! ([`Link`]) and the expert load ([`ExpertLoad`]): the one place these degrees are combined.
//!
//! The layout (SGLang's and TensorRT-LLM's): a replica's GPUs form PP stages of TP x DP GPUs each.
//! Attention and the dense layers run tensor-parallel over TP GPUs and data-parallel over DP ranks,
//! each rank with its own running sequences and their KV. A MoE layer's experts are split over EP
//! ranks among a stage's TP x DP GPUs (EP divides TP x DP), each expert tensor-parallel over the
//! TP x DP / EP GPUs of its rank. Ranks are numbered TP fastest, then DP, then PP, so a group of n
//! GPUs stays inside one NVLink domain when n fits in it and crosses the NIC otherwise.
//!
//! EP = DP = PP = 1 is the tensor-parallel replica every formula priced before, to the bit.

use serde::{Deserialize, Serialize};

use super::presets::GpuSpec;

/// The degrees of one replica. Every degree is at least 1 once validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Parallelism {
    /// Tensor-parallel degree of attention and dense layers (within a DP rank).
    pub tp: u32,
    /// Expert-parallel ranks the routed experts are split over (1: every GPU holds a TP share of
    /// every expert).
    pub ep: u32,
    /// Data-parallel attention ranks, each with its own batch and KV.
    pub dp: u32,
    /// Pipeline stages the layers are split into.
    pub pp: u32,
}

impl Parallelism {
    /// Tensor parallelism alone: EP = DP = PP = 1.
    pub const fn tp(tp: u32) -> Parallelism {
        Parallelism { tp, ep: 1, dp: 1, pp: 1 }
    }

    /// GPUs of one pipeline stage: TP x DP (the GPUs a MoE layer's experts spread over).
    pub fn stage_gpus(&self) -> u32 {
        self.tp.max(1).saturating_mul(self.dp.max(1))
    }

    /// GPUs of the replica: TP x DP x PP.
    pub fn gpus(&self) -> u32 {
        self.stage_gpus().saturating_mul(self.pp.max(1))
    }

    /// Whether this is tensor parallelism alone (the formulas' exact TP-only path).
    pub fn tp_only(&self) -> bool {
        self.ep <= 1 && self.dp <= 1 && self.pp <= 1
    }

    /// The label the search and the page print: `TP8`, `TP1 EP32 DP32`, `TP4 PP2` (degrees of 1
    /// other than TP left out).
    pub fn label(&self) -> String {
        let mut label = format!("TP{}", self.tp.max(1));
        for (name, degree) in [("EP", self.ep), ("DP", self.dp), ("PP", self.pp)] {
            if degree > 1 {
                label.push_str(&format!(" {name}{degree}"));
            }
        }
        label
    }
}

/// The system a replica runs on: NVLink (or Infinity Fabric) domains of [`domain_gpus`] GPUs,
/// `nodes` of them, joined by one scale-out NIC per GPU (InfiniBand or RoCE).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// Scale-up domains (nodes, or NVL72 racks), at least 1.
    pub nodes: u32,
    /// Scale-out bandwidth per GPU, per direction, in B/s.
    pub nic_bytes_per_s: f64,
}

/// One ConnectX-7 per GPU at 400 Gb/s (NDR InfiniBand or 400 GbE RoCE), per direction: 50 GB/s
/// (NVIDIA DGX H100/H200 and DGX B200 user guides: 8x ConnectX-7 400 Gb/s for the compute fabric;
/// ConnectX-7 datasheet: up to 400 Gb/s), in B/s.
pub const NIC_400G_BYTES_PER_S: f64 = 50e9;

/// One ConnectX-8 SuperNIC per GPU at 800 Gb/s, per direction: 100 GB/s (NVIDIA GB300 NVL72 and HGX
/// B300 product pages: ConnectX-8 SuperNIC, 800 Gb/s per GPU), in B/s.
pub const NIC_800G_BYTES_PER_S: f64 = 100e9;

impl Cluster {
    /// One node (or one NVL72 rack) with a 400 Gb/s NIC per GPU.
    pub const ONE_NODE: Cluster = Cluster { nodes: 1, nic_bytes_per_s: NIC_400G_BYTES_PER_S };

    /// One domain of `gpu`'s system with its published NIC per GPU ([`nic_bytes_per_s`]).
    pub fn one_node(gpu: &GpuSpec) -> Cluster {
        Cluster { nodes: 1, nic_bytes_per_s: nic_bytes_per_s(gpu) }
    }
}

/// The scale-out NIC per GPU `gpu`'s system ships with, per direction: 800 Gb/s ConnectX-8 on B300
/// and GB300 ([`NIC_800G_BYTES_PER_S`]), else 400 Gb/s ([`NIC_400G_BYTES_PER_S`]: ConnectX-7 on
/// H100/H200/B200/GB200 systems; 400 Gb/s NICs on MI300X-class platforms), in B/s.
pub fn nic_bytes_per_s(gpu: &GpuSpec) -> f64 {
    match gpu.id {
        "b300" | "gb300" => NIC_800G_BYTES_PER_S,
        _ => NIC_400G_BYTES_PER_S,
    }
}

/// GPUs in one scale-up domain of `gpu`'s system: 72 for GB200 and GB300 (NVL72: 72 GPUs in one
/// NVLink 5 domain, NVIDIA GB200 NVL72 and GB300 NVL72 product pages), else 8 (an HGX/DGX board's 8
/// NVLink GPUs, an MI300X-class platform's 8 Infinity Fabric GPUs, or 8 PCIe cards in one server).
pub fn domain_gpus(gpu: &GpuSpec) -> u32 {
    match gpu.id {
        "gb200" | "gb300" => 72,
        _ => 8,
    }
}

/// GPUs the system has: domain size x nodes.
pub fn system_gpus(gpu: &GpuSpec, cluster: &Cluster) -> u32 {
    domain_gpus(gpu).saturating_mul(cluster.nodes.max(1))
}

/// The link a collective among `group_gpus` consecutive GPUs crosses: the scale-up link when the
/// group fits in one domain, else the NIC (the slowest link the group spans), per direction, in B/s.
pub fn link_bytes_per_s(gpu: &GpuSpec, cluster: &Cluster, group_gpus: u32) -> f64 {
    if group_gpus <= domain_gpus(gpu) {
        gpu.interconnect_bytes_per_s
    } else {
        cluster.nic_bytes_per_s
    }
}

/// How routed tokens spread over the EP ranks and whether communication overlaps compute.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpertLoad {
    /// The busiest EP rank's routed tokens over the mean, when set; `None`: uniform routing's
    /// expected busiest rank ([`busiest_rank_factor`]).
    pub imbalance: Option<f64>,
    /// Two-batch overlap: the step splits its batch in two and runs one half's all-to-all while the
    /// other half computes, so the all-to-all costs only what the step's compute does not hide.
    pub two_batch_overlap: bool,
}

impl ExpertLoad {
    /// Uniform routing, no overlap.
    pub const UNIFORM: ExpertLoad = ExpertLoad { imbalance: None, two_batch_overlap: false };
}

/// The busiest of `ranks` EP ranks' routed (token, expert) pairs over the mean, when a step routes
/// `pairs` pairs uniformly: 1 + sqrt(2 ln(ranks) / mean) with mean = pairs / ranks (the
/// balls-into-bins maximum load, Raab and Steger 1998, for mean >= ln ranks; a bound above it at
/// smaller means), capped so the busiest rank gets at most every pair (`ranks` x the mean); 1 at
/// one rank. Real routers skew more; an imbalance set by the user replaces this.
pub fn busiest_rank_factor(ranks: u32, pairs: f64) -> f64 {
    if ranks <= 1 || !(pairs > 0.0) {
        return 1.0;
    }
    let ranks = f64::from(ranks);
    let mean = pairs / ranks;
    (1.0 + (2.0 * ranks.ln() / mean).sqrt()).min(ranks)
}
