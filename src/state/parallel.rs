//! Parallelism's keys: `ep`, `dp`, `pp` (degrees, 1 by default), `nodes` (scale-up domains, 1 by
//! default), `nic` (NIC bandwidth per GPU in Gb/s; by default the system's: 800 on B300 and GB300, else 400), `imb` (the busiest EP rank over
//! the mean; absent is uniform routing's) and `tbo` (two-batch overlap), beside `tp` (read by
//! [`read::tp_in`] among [`tp_choices`]). Each value is read alone ([`read`]'s low level), then the
//! combination rules ([`fit`]) repair what the model and system do not allow, each with a notice;
//! the controls' transitions ([`Inputs::set_parallel`] and the others) go through the same rules.

mod fit;

pub use fit::{dp_choices, ep_choices, fit, nodes_choices, nodes_needed, pp_choices};

use super::fields::NumberField;
use super::read;
use super::{Inputs, Notice, RawQuery};
use crate::core::parallel::{domain_gpus, nic_bytes_per_s, Cluster, ExpertLoad, Parallelism};
use crate::core::presets::{GpuSpec, ModelSpec};
use crate::core::roofline::TP_CHOICES;

/// The most scale-up domains a system may have; a replica larger than this many holds falls back
/// to fewer DP ranks or PP stages.
pub const NODES_MAX: u32 = 64;
/// The largest degree a key reads: every GPU of [`NODES_MAX`] NVL72 racks.
pub const DEGREE_MAX: f64 = 72.0 * NODES_MAX as f64;
/// TP degrees past one 8-GPU board, offered where the NVLink domain holds them (NVL72).
const WIDE_TP: [u32; 4] = [16, 32, 64, 72];

/// Expert-parallel ranks.
pub const EP: NumberField = NumberField::new("ep", "Expert parallelism (EP)", "", (1.0, DEGREE_MAX)).whole();
/// Data-parallel attention ranks.
pub const DP: NumberField = NumberField::new("dp", "Data parallelism (DP)", "", (1.0, DEGREE_MAX)).whole();
/// Pipeline stages.
pub const PP: NumberField =
    NumberField::new("pp", "Pipeline parallelism (PP)", "", (1.0, DEGREE_MAX)).whole();
/// Scale-up domains (nodes, or NVL72 racks).
pub const NODES: NumberField = NumberField::new("nodes", "Nodes", "", (1.0, NODES_MAX as f64)).whole();
/// Scale-out NIC bandwidth per GPU, per direction (display Gb/s, base B/s).
pub const NIC: NumberField =
    NumberField::new("nic", "NIC per GPU", "Gb/s", (1.0, 3_200.0)).whole().scaled(1e9 / 8.0);
/// The busiest EP rank's routed tokens over the mean (display and base: a factor).
pub const IMB: NumberField = NumberField::new("imb", "Expert imbalance", "×", (1.0, 64.0));

/// The TP degrees `gpu`'s scale-up domain offers: 1, 2, 4, 8, and 16, 32, 64, 72 on NVL72.
pub fn tp_choices(gpu: &GpuSpec) -> Vec<u32> {
    let domain = domain_gpus(gpu);
    TP_CHOICES.into_iter().chain(WIDE_TP).filter(|&tp| tp <= domain).collect()
}

/// Routed experts per MoE layer; `None` for a dense model.
pub fn routed_experts(model: &ModelSpec) -> Option<u32> {
    model.moe.map(|moe| moe.experts).filter(|&e| e > 1)
}

/// An imbalance as the URL writes it: 3 decimals, so what is read writes back exactly.
fn three_decimals(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// The parallelism, system and expert load of a link for `model` on `gpu`: each key read alone
/// (non-numbers fall back, numbers are clamped into range, each with a notice), then [`fit`].
pub fn read(
    raw: &RawQuery,
    (model, gpu): (&ModelSpec, &GpuSpec),
    notices: &mut Vec<Notice>,
) -> (Parallelism, Cluster, ExpertLoad) {
    let degree =
        |field: &NumberField, notices: &mut Vec<Notice>| read::number(raw, field, 1.0, notices) as u32;
    let tp = read::tp_in(raw, "tp", &tp_choices(gpu), notices);
    let asked =
        Parallelism { tp, ep: degree(&EP, notices), dp: degree(&DP, notices), pp: degree(&PP, notices) };
    let nodes = degree(&NODES, notices);
    let (parallel, nodes) = fit(model, gpu, (asked, nodes), notices);
    let nic_bytes_per_s = read::number(raw, &NIC, nic_bytes_per_s(gpu), notices);
    let imbalance = match raw.get(IMB.key).map(str::trim) {
        None | Some("") => None,
        Some(_) => Some(three_decimals(read::number(raw, &IMB, 1.0, notices))),
    };
    let two_batch_overlap = read::flag(raw, "tbo", notices);
    (parallel, Cluster { nodes, nic_bytes_per_s }, ExpertLoad { imbalance, two_batch_overlap })
}

/// The keys after `tp` in canonical order, each only off its default (so links from before them
/// stay byte-identical).
pub fn pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let s = &inputs.scenario;
    let (p, c, load) = (s.parallel, s.cluster, s.expert_load);
    let degrees = [(EP, p.ep), (DP, p.dp), (PP, p.pp), (NODES, c.nodes)];
    let mut pairs: Vec<(&'static str, String)> =
        degrees.into_iter().filter(|(_, d)| *d != 1).map(|(f, d)| (f.key, d.to_string())).collect();
    if c.nic_bytes_per_s != nic_bytes_per_s(&s.gpu) {
        pairs.push((NIC.key, NIC.write(c.nic_bytes_per_s)));
    }
    if let Some(imbalance) = load.imbalance {
        pairs.push((IMB.key, IMB.write(imbalance)));
    }
    if load.two_batch_overlap {
        pairs.push(("tbo", read::flag_word(true).to_string()));
    }
    pairs
}

impl Inputs {
    /// Sets the degrees, repaired as a link's would be ([`fit`]): a degree the model or GPU does not
    /// allow falls back, and the nodes grow to hold the replica.
    pub fn set_parallel(&mut self, asked: Parallelism) {
        let s = &mut self.scenario;
        let (parallel, nodes) = fit(&s.model, &s.gpu, (asked, s.cluster.nodes), &mut Vec::new());
        s.parallel = parallel;
        s.cluster.nodes = nodes;
    }

    /// Sets the scale-up domains (at least what the replica needs, at most [`NODES_MAX`]).
    pub fn set_nodes(&mut self, nodes: u32) {
        let s = &mut self.scenario;
        let (parallel, nodes) = fit(&s.model, &s.gpu, (s.parallel, nodes), &mut Vec::new());
        s.parallel = parallel;
        s.cluster.nodes = nodes;
    }

    /// Sets the NIC bandwidth per GPU from Gb/s (whole, within [`NIC`]'s range; not a number: the
    /// GPU's system's own, [`nic_bytes_per_s`]).
    pub fn set_nic_gbps(&mut self, gbps: f64) {
        let s = &mut self.scenario;
        s.cluster.nic_bytes_per_s = if gbps.is_finite() {
            NIC.to_base(gbps.round().clamp(NIC.min, NIC.max))
        } else {
            nic_bytes_per_s(&s.gpu)
        };
    }

    /// Sets the expert imbalance (`None`: uniform routing's), within [`IMB`]'s range, to 3 decimals.
    pub fn set_imbalance(&mut self, imbalance: Option<f64>) {
        let imbalance =
            imbalance.filter(|x| x.is_finite()).map(|x| three_decimals(x.clamp(IMB.min, IMB.max)));
        self.scenario.expert_load.imbalance = imbalance;
    }

    /// Turns two-batch overlap on or off.
    pub fn set_two_batch_overlap(&mut self, on: bool) {
        self.scenario.expert_load.two_batch_overlap = on;
    }

    /// Sets the GPU, its parallelism repaired for its domain (NVL72's wide TP falls back to 8 off it).
    pub fn set_gpu(&mut self, gpu: GpuSpec) {
        // A NIC left at the old system's default follows the new system's.
        if self.scenario.cluster.nic_bytes_per_s == nic_bytes_per_s(&self.scenario.gpu) {
            self.scenario.cluster.nic_bytes_per_s = nic_bytes_per_s(&gpu);
        }
        self.scenario.gpu = gpu;
        self.set_parallel(self.scenario.parallel);
    }
}
