//! The derivation's limit lines as text: the knee (closed form or search), the KV pool, which binds,
//! goodput.

use super::sizes::gb_short;
use super::{line, Line};
use crate::core::derivation::{Derivation, KneeForm};
use crate::core::roofline::Limit;
use crate::view::format::{fixed, ms, req_per_s, size, target_ms, tb_per_s};
use crate::view::format::{percent_trimmed, thousands, trimmed, us};

pub(super) fn knee(d: &Derivation) -> Line {
    let k = &d.knee;
    let label = format!("Largest batch under {} ms", target_ms(k.target_s));
    let result = format!("{} → {}", fixed(k.exact, 2), thousands(f64::from(k.tpot_batch)));
    let (formula, numbers, mut note) = knee_form(d);
    if let Some((ttft_s, prefill_s)) = k.ttft_cap {
        note.push_str(&format!(
            " The TTFT target caps it lower: TTFT = step + {} ms of prefill must stay under {} ms, so the \
             largest batch meeting both is {}.",
            ms(prefill_s),
            target_ms(ttft_s),
            thousands(f64::from(k.batch))
        ));
    }
    let result = match k.form {
        KneeForm::BelowFloor { .. } => "none".into(),
        KneeForm::Unbounded => format!("over {}", thousands(k.exact)),
        _ => result,
    };
    Line { id: "knee".into(), label, formula, numbers, result, note: note.trim().into() }
}

pub(super) fn knee_form(d: &Derivation) -> (String, String, String) {
    match d.knee.form {
        KneeForm::Memory { budget_bytes, weight_bytes, kv_bytes_per_seq, allreduce_bytes_per_seq, .. } => {
            let gb = |x: f64| trimmed(x / 1e9, 2);
            let budget = format!("({} − {}) GB", gb(budget_bytes), gb(weight_bytes));
            let (formula, numbers) = if allreduce_bytes_per_seq == 0.0 {
                let formula = if d.bandwidth.realistic {
                    "((target − overhead) × bandwidth − weights) / KV per sequence"
                } else {
                    "(target × bandwidth − weights) / KV per sequence"
                };
                (formula, format!("{budget} / {}", size(kv_bytes_per_seq)))
            } else {
                (
                    "((target − overhead) × bandwidth − weights per GPU) / (KV per sequence per GPU + all-reduce per sequence × bandwidth)",
                    format!("{budget} / ({} + {})", size(kv_bytes_per_seq), size(allreduce_bytes_per_seq)),
                )
            };
            let note = if d.bandwidth.realistic {
                format!(
                    "The budget: ({} − {}) ms × {} = {} GB.",
                    target_ms(d.knee.target_s),
                    trimmed(d.bandwidth.fixed_s * 1e3, 2),
                    tb_per_s(d.bandwidth.effective_bytes_per_s),
                    gb(budget_bytes)
                )
            } else {
                String::new()
            };
            (formula.into(), numbers, note)
        }
        KneeForm::Compute { budget_s, compute_per_seq_s, attention_per_seq_s, allreduce_per_seq_s } => (
            "(target − overhead) / (2 × active params / peak + attention per sequence + all-reduce per sequence)".into(),
            format!(
                "{} ms / ({} + {} + {})",
                trimmed(budget_s * 1e3, 3),
                us(compute_per_seq_s),
                us(attention_per_seq_s),
                us(allreduce_per_seq_s)
            ),
            "The GEMMs are compute-bound at this batch: each sequence adds its GEMM FLOPs, and its attention (the larger of its KV read and its FLOPs) runs after them.".into(),
        ),
        KneeForm::Numeric if d.weights.moe.is_none() => (
            "step(B) = target, solved by bisection".into(),
            String::new(),
            "The attention is compute-bound under memory-bound GEMMs at this batch; step(B) = target is solved numerically.".into(),
        ),
        KneeForm::Numeric => (
            "step(B) = target, solved by bisection".into(),
            String::new(),
            "An MoE step reads more experts as B grows, so step(B) is not a straight line and has no closed form.".into(),
        ),
        KneeForm::BelowFloor { empty_step_s } => (
            "step(0) = weights / bandwidth + overhead".into(),
            format!("{} ms > {} ms", ms(empty_step_s), target_ms(d.knee.target_s)),
            "Reading the weights alone takes longer than the target, so no batch meets it.".into(),
        ),
        KneeForm::Unbounded => ("step(B) = target".into(), String::new(), "No batch the model considers reaches the target.".into()),
    }
}

pub(super) fn pool(d: &Derivation) -> Line {
    let p = &d.pool;
    let shared = p.prefix_shared_bytes > 0.0;
    let numbers = if shared {
        format!(
            "({} × {} − {} − {}) / {}",
            gb_short(p.hbm_bytes),
            percent_trimmed(p.memory_utilization),
            size(p.weight_bytes),
            size(p.prefix_shared_bytes),
            size(p.kv_bytes_held_per_seq)
        )
    } else {
        format!(
            "({} × {} − {}) / {}",
            gb_short(p.hbm_bytes),
            percent_trimmed(p.memory_utilization),
            size(p.weight_bytes),
            size(p.kv_bytes_per_seq)
        )
    };
    // Under data parallelism each rank keeps its own pool: the replica's is DP x one rank's.
    let numbers = match d.parallel.map(|p| p.parallel.dp) {
        Some(dp) if dp > 1 => format!("{dp} × {numbers}"),
        _ => numbers,
    };
    let (result, note) = match d.limit {
        Limit::WeightsDoNotFit { gpus_needed, .. } => {
            ("none".to_string(), format!("The weights do not fit: they need at least {gpus_needed} GPUs."))
        }
        Limit::ContextDoesNotFit { .. } => {
            ("0 sequences".to_string(), "Not even one sequence's KV fits beside the weights.".into())
        }
        _ => (format!("{} sequences", thousands(f64::from(p.batch))), binds(d)),
    };
    let formula = if shared {
        "(HBM × utilization − weights per GPU − shared prefix KV, held once) / KV a sequence holds per GPU \
         (a hit holds only its own suffix; its decode still reads the whole context)"
    } else {
        "(HBM × utilization − weights per GPU) / KV per sequence per GPU"
    };
    line("pool", "KV pool", formula, numbers, result, note)
}

/// "The server runs min(knee 64, pool 208) = 64: the TPOT target binds."
pub(super) fn binds(d: &Derivation) -> String {
    let which = match d.limit {
        Limit::Tpot => "the TPOT target binds",
        Limit::Ttft => "the TTFT target binds",
        Limit::KvPool => "the KV pool binds, so every batch that fits meets the targets",
        _ => "no batch meets the targets",
    };
    format!(
        "A server runs min(knee {}, pool {}) = {}: {which}.",
        thousands(f64::from(d.knee.batch)),
        thousands(f64::from(d.pool.batch)),
        thousands(f64::from(d.pool.server_batch))
    )
}

pub(super) fn goodput(d: &Derivation) -> Line {
    let formula = "batch / (output tokens × step time), Little's law";
    let Some(g) = d.goodput else {
        return line(
            "goodput",
            "Goodput",
            formula,
            String::new(),
            "0 req/s".into(),
            "No batch runs inside the targets.".into(),
        );
    };
    let numbers = format!(
        "{} / ({} × {} ms)",
        thousands(f64::from(g.batch)),
        thousands(f64::from(g.output_tokens)),
        ms(g.step_s)
    );
    let mut note = if d.limit == Limit::KvPool {
        "Goodput equals throughput: every batch the pool holds meets the targets.".to_string()
    } else {
        String::new()
    };
    if g.tp > 1 {
        note.push_str(&format!(" Per GPU: {} req/s.", req_per_s(g.goodput_per_gpu_req_per_s)));
    }
    line(
        "goodput",
        "Goodput",
        formula,
        numbers,
        format!("{} req/s", req_per_s(g.goodput_req_per_s)),
        note.trim().into(),
    )
}
