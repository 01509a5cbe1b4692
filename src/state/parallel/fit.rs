//! The combination rules of a replica's degrees on a model and a system, each repair with a
//! notice: TP within the GPU's scale-up domain, PP at most the model's layers, TP x DP x PP within
//! the system (the nodes grow to hold it, up to [`NODES_MAX`]; past that DP and PP fall back), and
//! EP 1 on a dense model, else a divisor of TP x DP at most the routed experts.

use super::{routed_experts, tp_choices, NODES_MAX};
use crate::core::parallel::{domain_gpus, Parallelism};
use crate::core::presets::{GpuSpec, ModelSpec};
use crate::state::Notice;

/// `asked` degrees and nodes, repaired for `model` on `gpu` (see the module); each repair adds a
/// notice under the key it changed.
pub fn fit(
    model: &ModelSpec,
    gpu: &GpuSpec,
    (asked, nodes): (Parallelism, u32),
    notices: &mut Vec<Notice>,
) -> (Parallelism, u32) {
    let mut p =
        Parallelism { tp: asked.tp.max(1), ep: asked.ep.max(1), dp: asked.dp.max(1), pp: asked.pp.max(1) };
    let choices = tp_choices(gpu);
    if !choices.contains(&p.tp) {
        let tp = choices.iter().rev().find(|&&t| t <= p.tp).copied().unwrap_or(1);
        let message = format!("tp={} is not one of {}; using {tp}.", p.tp, listed(&choices));
        notices.push(Notice { key: "tp", message });
        p.tp = tp;
    }
    let layers = model.layers.max(1);
    if p.pp > layers {
        let message = format!("pp={} is more than {}'s {layers} layers; using {layers}.", p.pp, model.name);
        notices.push(Notice { key: "pp", message });
        p.pp = layers;
    }
    shrink_to_cap(gpu, &mut p, notices);
    let needed = nodes_needed(gpu, &p);
    let mut nodes = nodes.clamp(1, NODES_MAX);
    if needed > nodes {
        let message = format!(
            "TP × DP × PP = {} GPUs need {needed} nodes of {}; using nodes={needed}.",
            p.gpus(),
            domain_gpus(gpu)
        );
        notices.push(Notice { key: "nodes", message });
        nodes = needed;
    }
    p.ep = fit_ep(model, &p, notices);
    (p, nodes)
}

/// Scale-up domains `p`'s GPUs need on `gpu`'s system: ceil(TP x DP x PP / domain), at least 1.
pub fn nodes_needed(gpu: &GpuSpec, p: &Parallelism) -> u32 {
    p.gpus().div_ceil(domain_gpus(gpu)).max(1)
}

/// The EP degrees `model` allows at `p`'s TP x DP: its divisors up to the routed experts (1 alone
/// for a dense model).
pub fn ep_choices(model: &ModelSpec, p: &Parallelism) -> Vec<u32> {
    let stage = p.stage_gpus();
    let experts = routed_experts(model).unwrap_or(1);
    (1..=stage.min(experts)).filter(|e| stage % e == 0).collect()
}

/// PP, then DP, lowered until TP x DP x PP fits in [`NODES_MAX`] domains, with a notice for each.
fn shrink_to_cap(gpu: &GpuSpec, p: &mut Parallelism, notices: &mut Vec<Notice>) {
    let cap = domain_gpus(gpu).saturating_mul(NODES_MAX);
    if p.gpus() <= cap {
        return;
    }
    let gpus = p.gpus();
    let why =
        format!("TP × DP × PP = {gpus} GPUs is more than {NODES_MAX} nodes of {} hold", domain_gpus(gpu));
    let pp = (cap / p.stage_gpus()).clamp(1, p.pp);
    if pp != p.pp {
        notices.push(Notice { key: "pp", message: format!("pp={}: {why}; using {pp}.", p.pp) });
        p.pp = pp;
    }
    let dp = (cap / p.tp.max(1)).clamp(1, p.dp);
    if p.gpus() > cap && dp != p.dp {
        notices.push(Notice { key: "dp", message: format!("dp={}: {why}; using {dp}.", p.dp) });
        p.dp = dp;
    }
}

/// EP for `p`: 1 on a dense model, else the largest divisor of TP x DP at most both the asked EP
/// and the routed experts, with a notice when that is not the asked EP.
fn fit_ep(model: &ModelSpec, p: &Parallelism, notices: &mut Vec<Notice>) -> u32 {
    if p.ep <= 1 {
        return 1;
    }
    let Some(experts) = routed_experts(model) else {
        let message = format!("ep={}: {} is dense (no routed experts); using 1.", p.ep, model.name);
        notices.push(Notice { key: "ep", message });
        return 1;
    };
    let choices = ep_choices(model, p);
    let used = choices.iter().rev().find(|&&e| e <= p.ep).copied().unwrap_or(1);
    if used != p.ep {
        let message = format!(
            "ep={}: EP must divide TP × DP = {} and be at most {}'s {experts} routed experts; using {used}.",
            p.ep,
            p.stage_gpus(),
            model.name
        );
        notices.push(Notice { key: "ep", message });
    }
    used
}

/// `1, 2, 4, 8`.
fn listed(values: &[u32]) -> String {
    values.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// DP degrees a menu offers at `p`'s TP and PP on `gpu`'s largest system: powers of two, the
/// domain over TP (9 at TP 8 on NVL72) and the current DP.
pub fn dp_choices(gpu: &GpuSpec, p: &Parallelism) -> Vec<u32> {
    let domain = domain_gpus(gpu);
    let limit = (domain * NODES_MAX / p.tp.max(1).saturating_mul(p.pp.max(1))).max(1);
    let extra = (domain % p.tp.max(1) == 0).then(|| domain / p.tp.max(1));
    offered(limit, extra.into_iter().chain([p.dp]))
}

/// PP degrees a menu offers at `p`'s TP and DP: powers of two up to the layers and the largest
/// system, and the current PP.
pub fn pp_choices(model: &ModelSpec, gpu: &GpuSpec, p: &Parallelism) -> Vec<u32> {
    let limit = (domain_gpus(gpu) * NODES_MAX / p.stage_gpus()).clamp(1, model.layers.max(1));
    offered(limit, [p.pp])
}

/// Node counts a menu offers: what `p` needs, then powers of two above it up to [`NODES_MAX`], and
/// `current` (a menu of 64 entries would be a list to scroll, not a choice).
pub fn nodes_choices(gpu: &GpuSpec, p: &Parallelism, current: u32) -> Vec<u32> {
    let needed = nodes_needed(gpu, p).min(NODES_MAX);
    let mut values: Vec<u32> =
        offered(NODES_MAX, [needed, current]).into_iter().filter(|&v| v >= needed).collect();
    values.dedup();
    values
}

/// Powers of two up to `limit`, with `extra` values up to it, sorted, each once.
fn offered(limit: u32, extra: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut values: Vec<u32> = (0..32).map(|i| 1u32 << i).take_while(|&v| v <= limit).collect();
    values.extend(extra.into_iter().filter(|&v| (1..=limit).contains(&v)));
    values.sort_unstable();
    values.dedup();
    values
}
