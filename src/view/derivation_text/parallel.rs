//! The derivation's parallelism lines as text (expert, data or pipeline parallelism): the replica,
//! the weights per GPU, the KV pool over DP ranks, and at the served batch the imbalance, the
//! all-to-all (where it binds) and the pipeline's sends.

use super::{line, Line};
use crate::core::derivation::{ParallelLines, ParallelStep};
use crate::view::format::{fixed, ms, size, thousands, trimmed, us};

/// Every parallelism line, in the order the step builds them.
pub(super) fn parallel_lines(p: &ParallelLines) -> Vec<Line> {
    let mut out = vec![replica(p), weights(p), pool(p)];
    if let Some(at) = &p.at {
        out.extend(imbalance(p, at));
        out.extend(all_to_all(p, at));
        out.extend(pipeline(p, at));
    }
    out
}

fn gb_per_s(bytes_per_s: f64) -> String {
    format!("{} GB/s", trimmed(bytes_per_s / 1e9, 1))
}

fn replica(p: &ParallelLines) -> Line {
    let d = p.parallel;
    let plural = if p.nodes == 1 { "" } else { "s" };
    let system = if p.domain_gpus > 8 {
        format!("{} NVLink domain{plural} of {} GPUs", p.nodes, p.domain_gpus)
    } else {
        format!("{} node{plural} of {} GPUs", p.nodes, p.domain_gpus)
    };
    line(
        "par-replica",
        "Replica",
        "GPUs = TP × DP × PP (EP splits the experts over the stage's TP × DP GPUs)",
        format!("{} × {} × {}", d.tp, d.dp, d.pp),
        format!("{} GPUs ({})", d.gpus(), d.label()),
        format!(
            "On {system}; a stage's {} GPUs talk over {}.",
            d.stage_gpus(),
            gb_per_s(p.stage_link_bytes_per_s)
        ),
    )
}

fn weights(p: &ParallelLines) -> Line {
    let d = p.parallel;
    line(
        "par-weights",
        "Weights per GPU",
        "(dense weights / TP + experts / (TP × DP)) / PP",
        format!(
            "({} / {} + {} / {}) / {}",
            size(p.dense_bytes),
            d.tp,
            size(p.expert_bytes),
            d.stage_gpus(),
            d.pp
        ),
        size(p.weight_bytes_per_gpu),
        "Attention, embeddings and dense layers are copied on every DP rank; the routed experts are split \
         over the stage; each pipeline stage holds its share of the layers."
            .into(),
    )
}

fn pool(p: &ParallelLines) -> Line {
    let d = p.parallel;
    line(
        "par-pool",
        "KV pool",
        "DP × (usable − weights per GPU) / KV a sequence holds per GPU",
        format!(
            "{} × ({} − {}) / {}",
            d.dp,
            size(p.usable_bytes),
            size(p.weight_bytes_per_gpu),
            size(p.kv_bytes_per_seq_per_gpu)
        ),
        format!("{} sequences", thousands(p.pool_sequences.max(0.0).floor())),
        format!(
            "Each DP rank keeps its own sequences' KV ({} each); an MLA latent is held once per rank, not once \
             per GPU.",
            thousands(p.rank_pool_sequences.max(0.0).floor())
        ),
    )
}

fn imbalance(p: &ParallelLines, at: &ParallelStep) -> Option<Line> {
    let ep = p.parallel.ep;
    if ep <= 1 {
        return None;
    }
    let f = at.time.terms.imbalance;
    let routed = f64::from(at.batch) / at.time.terms.microbatches * f64::from(at.top_k);
    let (formula, numbers, note) = if at.imbalance_set {
        (
            "busiest EP rank's routed tokens ÷ the mean, as set".to_string(),
            fixed(f, 2),
            "Set by hand.".to_string(),
        )
    } else {
        (
            "busiest ÷ mean = 1 + √(2 ln EP / mean), mean = B × top-k / EP (uniform routing)".to_string(),
            format!("1 + √(2 ln {ep} / ({} / {ep}))", thousands(routed)),
            "Uniform routing's busiest rank (balls into bins); a real router skews more: set `imb` to replace it."
                .to_string(),
        )
    };
    Some(line(
        "par-imbalance",
        "Expert imbalance",
        &formula,
        numbers,
        format!("× {}", fixed(f, 3)),
        format!("{note} The busiest rank's expert GEMMs and all-to-all bytes grow by this factor; every rank waits for it."),
    ))
}

fn all_to_all(p: &ParallelLines, at: &ParallelStep) -> Option<Line> {
    let t = &at.time.terms;
    if t.all_to_all_s <= 0.0 {
        return None;
    }
    let d = p.parallel;
    let g = d.stage_gpus();
    let tokens = f64::from(at.batch) / t.microbatches;
    let numbers = format!(
        "2 × {} × ({} + {} + {} × {} × {} / {} × {} × 2 B × {}/{} / ({} × {}))",
        at.moe_layers,
        us(at.latency_s),
        us(at.all_to_all_call_s),
        fixed(t.imbalance, 3),
        trimmed(tokens, 2),
        at.top_k,
        d.ep,
        at.hidden_size,
        g - 1,
        g,
        gb_per_s(p.stage_link_bytes_per_s),
        fixed(at.all_to_all_link_share, 3)
    );
    let share = t.all_to_all_s / at.time.step_s.max(f64::MIN_POSITIVE);
    let mut note = format!(
        "Dispatch and combine at B = {}: {} of the {} ms step.",
        thousands(f64::from(at.batch)),
        format!("{}%", trimmed(100.0 * share, 0)),
        ms(at.time.step_s)
    );
    if at.overlapped {
        note.push_str(&format!(
            " Two-batch overlap: the step pays the longer of the kernels ({} ms) and the all-to-all.",
            ms(at.kernels_s)
        ));
    } else if at.all_to_all_binds {
        note.push_str(&format!(" It binds: longer than the kernels' {} ms.", ms(at.kernels_s)));
    }
    Some(line(
        "par-a2a",
        "All-to-all",
        "2 × MoE layers × (latency + per-call cost + imbalance × B / m × top-k / EP × hidden × 2 B × (G − 1)/G / (link × share))",
        numbers,
        format!("{} ms", ms(t.all_to_all_s)),
        note,
    ))
}

fn pipeline(p: &ParallelLines, at: &ParallelStep) -> Option<Line> {
    let d = p.parallel;
    if d.pp <= 1 {
        return None;
    }
    let t = &at.time.terms;
    let bubble = 1.0 - t.microbatches / f64::from(d.pp);
    Some(line(
        "par-pipeline",
        "Pipeline",
        "m = min(PP, B) microbatches; sends = (PP − 1) × (latency + B / m × hidden × 2 B / link)",
        format!("m = {}, {} × ({} + …)", trimmed(t.microbatches, 2), d.pp - 1, us(at.latency_s)),
        format!("{} ms", ms(t.pipeline_s)),
        format!(
            "A token's step crosses every stage, so TPOT = step(B / m) + sends; the stages idle {}% of the time \
             (the bubble, 1 − m / PP).",
            trimmed(100.0 * bubble, 0)
        ),
    ))
}
