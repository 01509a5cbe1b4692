//! The derivation panel's lines as text: `formula = numbers = result`, each with units and a note
//! in words where the worked example's simple form does not apply. Pure, so native tests read the lines the
//! page prints; the numbers come from [`crate::core::derivation`] and print through [`crate::view::format`].

mod limits;
mod parallel;
mod sizes;
mod spec;
mod step;
use crate::core::calibration::range::likely_range;
use crate::core::derivation::{Derivation, KneeForm};
use crate::core::scenario::Scenario;
use crate::view::format::calibration::range_text;
use crate::view::format::{fixed, ms, percent_trimmed, trimmed};
use limits::{goodput, knee, pool};
use sizes::{kv_seq, kv_token, weights};
use step::{bandwidth, compute_check, step_formula, step_value};

/// One printed line of the derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Stable id for the page and tests (`weights`, `kv-token`, `step-knee`, ...).
    pub id: String,
    pub label: String,
    /// The formula in words and symbols.
    pub formula: String,
    /// The formula with this scenario's numbers substituted; empty when there is nothing to add.
    pub numbers: String,
    /// What it comes to, with its unit.
    pub result: String,
    /// Words for what the line means here; empty when the line says it all.
    pub note: String,
}

fn line(id: &str, label: &str, formula: &str, numbers: String, result: String, note: String) -> Line {
    Line { id: id.into(), label: label.into(), formula: formula.into(), numbers, result, note }
}

/// Every line, in the worked example's order: sizes (and how parallelism splits them), bandwidth,
/// step(B) and its values, the compute check, the knee, the KV pool and goodput.
pub fn lines(scenario: &Scenario, d: &Derivation) -> Vec<Line> {
    let mut out = vec![weights(d), kv_token(d), kv_seq(d)];
    // Under expert, data or pipeline parallelism: how the sizes split and what the step adds, right
    // after the sizes they split.
    if let Some(p) = &d.parallel {
        out.extend(parallel::parallel_lines(p));
    }
    out.extend([bandwidth(scenario, d), step_formula(d)]);
    out.extend(d.steps.iter().map(|st| step_value(scenario, d, st)));
    out.extend(d.steps.first().and_then(|st| likely_step(scenario, st.batch, st.time.step_s)));
    out.extend(d.steps.last().map(|st| compute_check(d, st)));
    out.extend([knee(d), pool(d), goodput(d)]);
    if let Some(s) = &d.speculation {
        out.extend(spec::spec_lines(s));
    }
    out
}

/// Under the measured engines, the first listed step's likely range: step(B) x [low, high], the
/// coverage class's out-of-sample 10th-90th percentile of measured / predicted.
fn likely_step(scenario: &Scenario, batch: u32, step_s: f64) -> Option<Line> {
    let r = likely_range(scenario)?;
    Some(line(
        "likely-step",
        "Likely step",
        "likely step(B) = step(B) × [low, high], the 10th to 90th percentile of measured ÷ predicted TPOT \
         over held-out published runs of this coverage class",
        format!("{} ms × [{}, {}]", ms(step_s), fixed(r.low, 3), fixed(r.high, 3)),
        format!("{} to {} ms at B = {batch}", ms(r.time_s(step_s).0), ms(r.time_s(step_s).1)),
        format!("{}: {}", r.coverage.word(), range_text(&r)),
    ))
}

/// Why the worked example's simple form (weights + B x KV) / bandwidth does not describe this scenario, one
/// clause per reason; empty when it does.
pub fn general_reasons(d: &Derivation) -> Vec<String> {
    let mut why = Vec::new();
    if d.speculation.is_some() {
        why.push(
            "speculative decoding is on: the lines down to goodput are the target without it, and the last \
             lines add the drafter, the verify step and the time per output token"
                .into(),
        );
    }
    if let Some(m) = d.weights.moe {
        why.push(format!(
            "an MoE step reads only the experts its tokens touch (of {} per layer, {} per token)",
            m.experts, m.top_k
        ));
    }
    if let Some(p) = &d.parallel {
        why.push(format!(
            "the replica is {} on {} GPUs: the busiest DP rank's attention and dense weights, the experts its \
             EP rank reads, the all-to-all and the pipeline's sends make the step (the parallelism lines below)",
            p.parallel.label(),
            p.parallel.gpus()
        ));
    } else if d.weights.tp > 1 {
        why.push(format!(
            "tensor parallelism splits the bytes over {} GPUs and adds two all-reduces per layer",
            d.weights.tp
        ));
    }
    if d.bandwidth.measured {
        why.push(format!(
            "the measured profile reads the weights at {} and the KV at {} of peak bandwidth and adds {} ms of fixed \
             costs to every step",
            percent_trimmed(d.bandwidth.mbu),
            percent_trimmed(d.bandwidth.attention_mbu),
            trimmed(d.bandwidth.fixed_s * 1e3, 2)
        ));
    } else if d.bandwidth.realistic {
        why.push(format!(
            "realistic mode reads at {} of peak bandwidth and adds {} ms to every step",
            percent_trimmed(d.bandwidth.mbu),
            trimmed(d.bandwidth.fixed_s * 1e3, 2)
        ));
    }
    if matches!(d.knee.form, KneeForm::Compute { .. }) {
        why.push("the GEMMs' compute, not the weight read, reaches the target first".into());
    }
    if step::per_operator(d) {
        why.push(
            "a kernel group is compute-bound while another still reads memory, so the step adds the groups' \
             times (the weight GEMMs, the attention), each the larger of its reads and its FLOPs"
                .into(),
        );
    }
    why
}
