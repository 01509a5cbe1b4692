//! The parallelism controls' read-outs: the system the replica runs on ("1 node of 8 H100 SXM on
//! NVLink (450 GB/s per direction), 400 Gb/s NIC per GPU"; "GB200 NVL72: 72 GPUs in one NVLink
//! domain") and the replica's GPUs and degrees ("8 GPUs per replica: TP1 EP8 DP8").

use super::thousands;
use crate::core::parallel::{domain_gpus, system_gpus};
use crate::core::presets::{GpuSpec, CUSTOM_ID};
use crate::core::scenario::Scenario;

/// The scale-up link `gpu`'s domain shares: NVLink, Infinity Fabric, ICI, or PCIe for cards.
pub fn scale_up_link(gpu: &GpuSpec) -> &'static str {
    match gpu.id {
        CUSTOM_ID => "its interconnect",
        "h100-pcie" | "l40s" | "l4" => "PCIe",
        id if id.starts_with("mi") => "Infinity Fabric",
        id if id.starts_with("tpu") => "ICI",
        _ => "NVLink",
    }
}

/// The system in one line: nodes (or NVL72 racks) of the GPU on its scale-up link, and the NIC.
pub fn system_line(scenario: &Scenario) -> String {
    let (gpu, cluster) = (&scenario.gpu, &scenario.cluster);
    let domain = domain_gpus(gpu);
    let link = scale_up_link(gpu);
    let per_direction = format!("{} GB/s per direction", gpu.interconnect_bytes_per_s / 1e9);
    let nic = format!("{} Gb/s NIC per GPU", thousands(cluster.nic_bytes_per_s * 8.0 / 1e9));
    let nodes = cluster.nodes.max(1);
    if domain > 8 {
        let racks = if nodes == 1 { String::new() } else { format!("{nodes} racks of ") };
        // The rack is named by its superchip: "GB200 (per GPU)" is the preset's per-GPU share.
        let rack = gpu.name.trim_end_matches(" (per GPU)");
        return format!(
            "{racks}{rack} NVL{domain}: {domain} GPUs in one {link} domain ({per_direction}), {nic}"
        );
    }
    let noun = if nodes == 1 { "node" } else { "nodes" };
    let total = if nodes == 1 {
        String::new()
    } else {
        format!(" ({} GPUs)", thousands(f64::from(system_gpus(gpu, cluster))))
    };
    format!("{nodes} {noun} of {domain} {} on {link} ({per_direction}){total}, {nic}", gpu.name)
}

/// The replica's GPUs and its degrees: "1 GPU per replica: TP1", "64 GPUs per replica: TP8 EP64 DP8".
pub fn replica_line(scenario: &Scenario) -> String {
    let p = scenario.parallel;
    let gpus = p.gpus();
    let noun = if gpus == 1 { "GPU" } else { "GPUs" };
    format!("{} {noun} per replica: {}", thousands(f64::from(gpus)), p.label())
}
