//! The published hardware bounds and priors the measured profile is held to: each GPU's measured
//! streaming-read and large-GEMM ceilings (a fitted fraction never exceeds them), the all-reduce
//! latency of its link (priced, never fitted), its family (vendor and generation, for the transfer
//! rule) and the priors an unidentified term is held at. Every number names its source.
//!
//! Sources (read 2026-12; `shared/reference/hardware-ceilings.md` lists them):
//! - Azure AI benchmarking guide results (repo samuel-bohman/AI-benchmarking-guide,
//!   `Azure_Results/ND_*_results.md`): STREAM copy / triad / read-only shares of datasheet HBM
//!   bandwidth, cuBLASLt / hipBLASLt FP8 large-GEMM shares of the dense peak, and NCCL / RCCL
//!   all-reduce latency at 1 KB on 8 GPUs of one node.
//! - AIConfigurator's system files: `mem_bw_empirical_scaling_factor: 0.8` (the memory prior).
//! - BLIS / inference-sim `defaults.yaml` (2026-08): 32.1 µs per layer per step (the per-layer prior).

/// A GPU's family: vendor and generation. Terms transfer only within a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Hopper,
    Blackwell,
    Ampere,
    /// Ada PCIe cards (L40S, L4).
    Ada,
    Cdna3,
    Cdna4,
    Tpu,
    /// A custom GPU: no family, so nothing transfers to it.
    Unknown,
}

/// The software stack that launches a GPU's kernels: the per-layer overhead is one per stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    Cuda,
    Rocm,
    Xla,
}

impl Stack {
    pub const ALL: [Stack; 3] = [Stack::Cuda, Stack::Rocm, Stack::Xla];
    pub const COUNT: usize = 3;

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Stack::Cuda => "CUDA",
            Stack::Rocm => "ROCm",
            Stack::Xla => "XLA",
        }
    }
}

impl Family {
    pub fn of(gpu_id: &str) -> Family {
        match gpu_id {
            "h100-sxm" | "h100-pcie" | "h100-nvl" | "h200-sxm" | "h200-nvl" => Family::Hopper,
            "b200" | "gb200" | "gb300" | "b300" => Family::Blackwell,
            "a100-40gb" | "a100-80gb" => Family::Ampere,
            "l40s" | "l4" => Family::Ada,
            "mi300x" | "mi325x" => Family::Cdna3,
            "mi355x" => Family::Cdna4,
            "tpu-v5e" | "tpu-v6e" => Family::Tpu,
            _ => Family::Unknown,
        }
    }

    pub fn stack(self) -> Stack {
        match self {
            Family::Cdna3 | Family::Cdna4 => Stack::Rocm,
            Family::Tpu => Stack::Xla,
            _ => Stack::Cuda,
        }
    }
}

/// A bound or prior and whether it was measured on this GPU (false: carried from a GPU like it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sourced {
    pub value: f64,
    pub measured: bool,
}

const fn measured(value: f64) -> Sourced {
    Sourced { value, measured: true }
}

const fn carried(value: f64) -> Sourced {
    Sourced { value, measured: false }
}

/// The highest share of datasheet HBM bandwidth a streaming kernel reached (the best of copy, triad
/// and read-only, Azure guide): H100 SXM 95%, H200 SXM 93%, A100 80GB 86%, MI300X 77% (copy and
/// triad; read-only 73%). A GPU not measured carries its family's, else its vendor's best (NVIDIA
/// 95%, AMD 77%); a TPU the best measured anywhere (95%).
pub fn memory_ceiling(gpu_id: &str) -> Sourced {
    match gpu_id {
        "h100-sxm" => measured(0.95),
        "h200-sxm" => measured(0.93),
        "a100-80gb" => measured(0.86),
        "mi300x" => measured(0.77),
        "h100-pcie" | "h100-nvl" => carried(0.95),
        "h200-nvl" => carried(0.93),
        "a100-40gb" => carried(0.86),
        "mi325x" | "mi355x" => carried(0.77),
        _ => carried(0.95),
    }
}

/// The share of the dense tensor peak a large GEMM reached (FP8, cuBLASLt / hipBLASLt, Azure guide):
/// H100 SXM 70%, H200 SXM 69%, GB200 59% of 5 PFLOP/s, MI300X 44% of 2,615 TFLOP/s; taken for every
/// precision (only FP8 was measured). A GPU not measured carries its family's, else its vendor's
/// (AMD: MI300X's), else the median of the four (64%).
pub fn gemm_ceiling(gpu_id: &str) -> Sourced {
    match gpu_id {
        "h100-sxm" => measured(0.70),
        "h200-sxm" => measured(0.69),
        "gb200" => measured(0.59),
        "mi300x" => measured(0.44),
        "h100-pcie" | "h100-nvl" => carried(0.70),
        "h200-nvl" => carried(0.69),
        "b200" | "gb300" | "b300" => carried(0.59),
        "mi325x" | "mi355x" => carried(0.44),
        _ => carried(0.64),
    }
}

/// One all-reduce call's latency on this GPU's link: NCCL / RCCL at 1 KB on 8 GPUs (Azure guide):
/// H100 26 µs, H200 30 µs, A100 45 µs, MI300X 45 µs. NVLink GPUs not measured carry Hopper's (26 µs:
/// Blackwell, H100 NVL), Infinity Fabric ones MI300X's; PCIe cards, TPUs and custom GPUs A100's
/// 45 µs, the slowest measured, in s. The bytes move at the preset's link bandwidth
/// ([`crate::roofline::allreduce_s`]).
pub fn collective_latency_s(gpu_id: &str) -> Sourced {
    match gpu_id {
        "h100-sxm" => measured(26e-6),
        "h200-sxm" => measured(30e-6),
        "a100-80gb" => measured(45e-6),
        "mi300x" => measured(45e-6),
        "h100-nvl" | "b200" | "gb200" | "gb300" | "b300" => carried(26e-6),
        "h200-nvl" => carried(30e-6),
        "a100-40gb" => carried(45e-6),
        "mi325x" | "mi355x" => carried(45e-6),
        _ => carried(45e-6),
    }
}

/// The memory fraction a term the data do not identify is held at: AIConfigurator's empirical 0.8 of
/// datasheet bandwidth, or the GPU's streaming ceiling where that is lower.
pub fn memory_prior(gpu_id: &str) -> f64 {
    MEMORY_PRIOR.min(memory_ceiling(gpu_id).value)
}

/// AIConfigurator's `mem_bw_empirical_scaling_factor`.
pub const MEMORY_PRIOR: f64 = 0.8;

/// The compute fraction a term the data do not identify is held at: the GPU's large-GEMM ceiling
/// (a serving step's GEMMs are smaller, so the fit can only lower it).
pub fn compute_prior(gpu_id: &str) -> f64 {
    gemm_ceiling(gpu_id).value
}

/// The per-layer overhead a stack the data do not cover is held at, and every stack is pulled
/// toward: BLIS's fitted 32.1 µs per layer per step (H100, vLLM), in s.
pub const LAYER_PRIOR_S: f64 = 32.1e-6;

/// How strongly the fit pulls a fitted term toward its prior: each prior is a residual row
/// `PRIOR_WEIGHT x (term / prior - 1)` beside the rows' relative TPOT errors, so a term 10% off its
/// prior costs what one row 1% off does.
pub const PRIOR_WEIGHT: f64 = 0.1;
