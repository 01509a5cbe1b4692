//! The derivation's speculative-decoding lines as text: E, the draft, the verify step, TPOT, the KV
//! pool with the drafter, goodput and the crossover batch.

use super::{line, Line};
use crate::core::derivation::SpecLines;
use crate::core::spec::Drafter;
use crate::view::format::{fixed, ms, req_per_s, size, thousands, trimmed};

/// Every speculative line, in order.
pub(super) fn spec_lines(s: &SpecLines) -> Vec<Line> {
    let k = s.step.draft_tokens;
    let b = thousands(f64::from(s.batch));
    let e = fixed(s.step.tokens_per_step, 2);
    let mut out = vec![line(
        "spec-e",
        "Tokens per step",
        "E = (1 − α^(k+1)) / (1 − α)",
        format!("(1 − {}^{}) / (1 − {})", trimmed(s.acceptance, 2), k + 1, trimmed(s.acceptance, 2)),
        format!("{e} tokens"),
        "Each draft token is accepted with probability α given the ones before it; the target adds one."
            .into(),
    )];
    out.push(draft_line(s, &b));
    let v = &s.verify;
    out.push(line(
        "spec-verify",
        &format!("Verify at B = {b}"),
        "max(weights / bw, 2 × active × B(k + 1) / peak) + max(B × KV / bw, (k + 1) × attention FLOPs / peak)",
        format!(
            "max({}, {}) + max({}, {}) + {} ms",
            ms(v.gemm.memory_s),
            ms(v.gemm.compute_s),
            ms(v.decode_attention.memory_s),
            ms(v.decode_attention.compute_s),
            ms(v.allreduce_s + v.fixed_s)
        ),
        format!("{} ms", ms(s.step.verify_s)),
        format!("One target step checks k + 1 = {} tokens per sequence: weights and KV read once.", k + 1),
    ));
    out.push(line(
        "spec-tpot",
        &format!("TPOT at B = {b}"),
        "(draft + verify) / E",
        format!("({} + {}) ms / {e}", ms(s.step.draft_s), ms(s.step.verify_s)),
        format!("{} ms", ms(s.step.tpot_s)),
        format!("Without speculation step({b}) = {} ms.", ms(s.plain_step_s)),
    ));
    out.push(pool_line(s));
    out.push(line(
        "spec-goodput",
        "Goodput with speculation",
        "B / (output × TPOT) at the knee",
        format!("knee {} with speculation, {} without", s.summary.knee_with, s.summary.knee_without),
        format!("{} req/s", req_per_s(s.goodput_req_per_s)),
        String::new(),
    ));
    out.push(crossover_line(s));
    out
}

fn draft_line(s: &SpecLines, b: &str) -> Line {
    let k = s.step.draft_tokens;
    let result = format!("{} ms", ms(s.step.draft_s));
    match s.drafter {
        Drafter::Head { layer_cost_fraction } => line(
            "spec-draft",
            &format!("Draft at B = {b}"),
            "k × f × (step(B) − overhead) / layers",
            format!("{k} × {} × one of {} layers", trimmed(layer_cost_fraction, 2), s.layers),
            result,
            "A draft head costs a fraction f of one target layer per draft token.".into(),
        ),
        _ => line(
            "spec-draft",
            &format!("Draft at B = {b}"),
            "k × step_draft(B)",
            format!("{k} × {} ms", ms(s.step.draft_s / f64::from(k.max(1)))),
            result,
            "The draft model decodes k steps of its own: its weights and its KV at the context.".into(),
        ),
    }
}

fn pool_line(s: &SpecLines) -> Line {
    let (usable, weights, draft) =
        (size(s.usable_bytes), size(s.weight_bytes_per_gpu), size(s.draft_weight_bytes_per_gpu));
    let (kv, draft_kv) = (size(s.kv_bytes_per_seq_per_gpu), size(s.draft_kv_bytes_per_seq_per_gpu));
    let (formula, numbers) = if s.prefix_shared_bytes > 0.0 {
        (
            "(usable − weights − shared prefix KV, target and draft, held once − draft weights) / (KV a \
             sequence holds + draft KV it holds)",
            format!(
                "({usable} − {weights} − {} − {draft}) / ({kv} + {draft_kv})",
                size(s.prefix_shared_bytes)
            ),
        )
    } else {
        (
            "(usable − weights − draft weights) / (KV per sequence + draft KV per sequence)",
            format!("({usable} − {weights} − {draft}) / ({kv} + {draft_kv})"),
        )
    };
    line(
        "spec-pool",
        "KV pool with the drafter",
        formula,
        numbers,
        format!("{} sequences", thousands(f64::from(s.summary.pool_with))),
        format!("Without the drafter: {} sequences.", thousands(f64::from(s.summary.pool_without))),
    )
}

fn crossover_line(s: &SpecLines) -> Line {
    let (result, note) = match s.summary.crossover {
        Some(c) => (
            format!("batch {}", thousands(f64::from(c))),
            "From here the verify step's GEMMs over B(k + 1) tokens are compute-bound enough that speculation \
             costs more than it saves."
                .to_string(),
        ),
        None => (
            "none".to_string(),
            "Speculation pays at every batch: the KV read once for E tokens outweighs the extra FLOPs.".to_string(),
        ),
    };
    line(
        "spec-crossover",
        "Crossover batch",
        "smallest B with B × E / (draft + verify) ≤ B / step(B)",
        String::new(),
        result,
        note,
    )
}
