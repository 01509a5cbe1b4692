//! The derivation's step lines as text: bandwidth, the step formula, step(B) at its batches and the
//! compute check.

use super::{general_reasons, line, Line};
use crate::core::derivation::{Derivation, Role, StepAt};
use crate::core::roofline::{Bound, Group, StepTerms};
use crate::core::scenario::Scenario;
use crate::view::format::{e9, fixed, ms, ms_against, size, target_ms, tb_per_s, tflop_per_s};
use crate::view::format::{percent_trimmed, thousands, trimmed, us};

pub(super) fn bandwidth(scenario: &Scenario, d: &Derivation) -> Line {
    let b = &d.bandwidth;
    if !b.realistic {
        return line(
            "bandwidth",
            "Bandwidth",
            "peak HBM bandwidth",
            scenario.gpu.name.into(),
            tb_per_s(b.peak_bytes_per_s),
            String::new(),
        );
    }
    line(
        "bandwidth",
        "Bandwidth",
        "peak × achieved fraction (MBU)",
        format!("{} × {}", tb_per_s(b.peak_bytes_per_s), percent_trimmed(b.mbu)),
        tb_per_s(b.effective_bytes_per_s),
        if b.measured {
            format!(
                "The measured profile: the GEMMs read at this bandwidth, the KV at {} of peak ({}), compute-bound groups multiply at {} of the tensor peak, and every step pays {} ms of fixed costs (per step, per layer and all-reduce latency).",
                percent_trimmed(b.attention_mbu),
                tb_per_s(b.attention_bytes_per_s),
                percent_trimmed(b.compute_fraction),
                trimmed(b.fixed_s * 1e3, 2)
            )
        } else {
            format!("Realistic mode also adds {} ms of overhead to every step.", trimmed(b.fixed_s * 1e3, 2))
        },
    )
}

/// True when step(B) is the worked example's (weights + B x KV) / bandwidth: dense, one GPU, ideal.
pub(super) fn worked_example_form(d: &Derivation) -> bool {
    d.weights.moe.is_none() && d.weights.tp == 1 && !d.bandwidth.realistic && d.parallel.is_none()
}

/// True when some batch the derivation shows has a compute-bound kernel group: its step is then the
/// per-operator sum, not the single max(memory, compute).
pub(super) fn per_operator(d: &Derivation) -> bool {
    d.steps.iter().any(|st| !st.time.terms.all_memory_bound())
}

pub(super) fn step_formula(d: &Derivation) -> Line {
    let f = &d.step;
    if d.parallel.is_some() {
        return line(
            "step",
            "Step time",
            "step(B) = max(the busiest rank's weights read / bandwidth, its GEMM FLOPs / peak) + max(its KV / \
             bandwidth, its attention FLOPs / peak) + all-to-all + all-reduce + pipeline sends + overhead",
            String::new(),
            String::new(),
            format!("The worked example's simple form does not apply here: {}.", general_reasons(d).join("; ")),
        );
    }
    if worked_example_form(d) && !per_operator(d) {
        let w = f.fixed_weight_read_bytes.unwrap_or(0.0);
        let numbers = format!(
            "({} + B × {}) / {}",
            size(w),
            size(f.kv_bytes_per_seq),
            tb_per_s(f.bandwidth_bytes_per_s)
        );
        return line(
            "step",
            "Step time",
            "step(B) = (weights + B × KV per sequence) / bandwidth",
            numbers,
            String::new(),
            String::new(),
        );
    }
    let weights = f.fixed_weight_read_bytes.map_or("W(B)".to_string(), size);
    let trailing = format!("B × {} + {} ms", us(f.allreduce_per_seq_s), trimmed(f.fixed_s * 1e3, 2));
    let bw = tb_per_s(f.bandwidth_bytes_per_s);
    let kv_bw = tb_per_s(f.kv_bandwidth_bytes_per_s);
    let kv = size(f.kv_bytes_per_seq);
    let two_bandwidths = f.kv_bandwidth_bytes_per_s != f.bandwidth_bytes_per_s;
    let (formula, numbers) = if per_operator(d) || two_bandwidths {
        (
            "step(B) = max(weights read(B) / TP / bandwidth, 2 × active params × B / peak) + max(B × KV per sequence / shards / bandwidth, B × attention FLOPs per sequence / peak) + all-reduce(B) + overhead",
            format!(
                "max({weights} / {bw}, B × {}) + max(B × {kv} / {kv_bw}, B × {}) + {trailing}",
                us(f.compute_per_seq_s),
                us(f.attention_compute_per_seq_s)
            ),
        )
    } else {
        (
            "step(B) = max((weights read(B) / TP + B × KV per sequence / shards) / bandwidth, 2 × active params × B / peak) + all-reduce(B) + overhead",
            format!("max(({weights} + B × {kv}) / {bw}, B × {}) + {trailing}", us(f.compute_per_seq_s)),
        )
    };
    let note =
        format!("The worked example's simple form does not apply here: {}.", general_reasons(d).join("; "));
    line("step", "Step time", formula, numbers, String::new(), note)
}

pub(super) fn role_label(st: &StepAt) -> (&'static str, &'static str) {
    match st.role {
        Role::Knee => ("step-knee", "At the knee"),
        Role::FirstMiss => ("step-next", "One batch more"),
        Role::Compare => ("step-compare", "At twice the knee"),
        Role::Pool => ("step-pool", "At the KV pool"),
        Role::One => ("step-one", "A batch of one"),
    }
}

pub(super) fn step_value(scenario: &Scenario, d: &Derivation, st: &StepAt) -> Line {
    let (id, label) = role_label(st);
    let t = &st.time;
    let b = thousands(f64::from(st.batch));
    let ops = &t.terms;
    let mut trailing = format!("{} ms + {} ms", ms(t.allreduce_s), trimmed(t.fixed_s * 1e3, 2));
    let overlapped = d.parallel.and_then(|p| p.at).is_some_and(|at| at.overlapped);
    if ops.all_to_all_s > 0.0 && !overlapped {
        trailing.push_str(&format!(" + {} ms all-to-all", ms(ops.all_to_all_s)));
    }
    if ops.pipeline_s > 0.0 {
        trailing.push_str(&format!(" + {} ms sends", ms(ops.pipeline_s)));
    }
    let numbers = if !ops.all_memory_bound() {
        let (g, a) = (&ops.gemm, &ops.decode_attention);
        format!(
            "max({} ms, {} ms) + max({} ms, {} ms) + {trailing}",
            ms(g.memory_s),
            ms(g.compute_s),
            ms(a.memory_s),
            ms(a.compute_s)
        )
    } else if worked_example_form(d) {
        format!(
            "({} + {b} × {}) / {bw} = ({} + {}) GB / {bw}",
            size(t.weight_read_bytes),
            size(d.step.kv_bytes_per_seq),
            trimmed(t.weight_read_bytes / 1e9, 2),
            trimmed(t.kv_read_bytes / 1e9, 2),
            bw = tb_per_s(d.step.bandwidth_bytes_per_s),
        )
    } else {
        format!(
            "max(({} + {}) / {}, {} ms) + {trailing}",
            size(t.weight_read_bytes),
            size(t.kv_read_bytes),
            tb_per_s(d.step.bandwidth_bytes_per_s),
            ms(t.compute_s),
        )
    };
    let mut note = step_note(scenario, st);
    if !ops.all_memory_bound() {
        note.push_str(&format!(" {}", operator_note(ops)));
    }
    line(
        id,
        label,
        &format!("step({b})"),
        numbers,
        format!("{} ms", ms_against(t.step_s, scenario.tpot_target_s)),
        note,
    )
}

/// What a group is called in a sentence, with its verbs: (name, "are"/"is", "take"/"takes").
pub(super) fn group_name(g: Group) -> (&'static str, &'static str, &'static str) {
    match g {
        Group::Gemm => ("the weight GEMMs", "are", "take"),
        Group::DecodeAttention => ("the decode attention", "is", "takes"),
        Group::PrefillAttention => ("the prefill attention", "is", "takes"),
    }
}

/// "Per operator: the weight GEMMs are compute-bound (… ms of FLOPs against … ms of reads), the
/// decode attention is memory-bound (…); the groups run one after another, so their times add, and
/// the decode attention takes the most (… ms)."
pub(super) fn operator_note(ops: &StepTerms) -> String {
    let said: Vec<String> = [Group::Gemm, Group::DecodeAttention]
        .into_iter()
        .map(|g| {
            let c = ops.group(g);
            let (name, is, _) = group_name(g);
            let (bound, more, less, other) = match c.bound() {
                Bound::Compute => {
                    ("compute-bound", format!("{} ms of FLOPs", ms(c.compute_s)), ms(c.memory_s), "reads")
                }
                Bound::Memory => {
                    ("memory-bound", format!("{} ms of reads", ms(c.memory_s)), ms(c.compute_s), "FLOPs")
                }
            };
            format!("{name} {is} {bound} ({more} against {less} ms of {other})")
        })
        .collect();
    let (name, _, takes) = group_name(ops.binding);
    format!(
        "Per operator: {}; the groups run one after another, so their times add, and {name} {takes} the most ({} ms).",
        said.join(", "),
        ms(ops.group(ops.binding).time_s())
    )
}

pub(super) fn step_note(scenario: &Scenario, st: &StepAt) -> String {
    let target = target_ms(scenario.tpot_target_s);
    let mut note = if st.meets_tpot {
        format!("Meets {target} ms.")
    } else {
        format!("Misses {target} ms: every sequence in the batch waits for this step.")
    };
    if let Some(e) = st.experts_touched {
        note.push_str(&format!(" Reads {} experts per layer on average.", fixed(e, 2)));
    }
    if st.meets_tpot && !st.meets_ttft {
        note.push_str(&format!(" Misses the {} ms TTFT target.", target_ms(scenario.ttft_target_s)));
    }
    if !st.fits_pool {
        note.push_str(" Does not fit the KV pool: it cannot run.");
    }
    note
}

pub(super) fn compute_check(d: &Derivation, st: &StepAt) -> Line {
    let t = &st.time;
    let c = &d.compute;
    let mut peak = if d.weights.tp > 1 {
        format!("({} × {})", d.weights.tp, tflop_per_s(c.per_gpu_flop_per_s))
    } else {
        tflop_per_s(c.per_gpu_flop_per_s)
    };
    if c.fraction < 1.0 {
        peak = format!("({peak} × {})", percent_trimmed(c.fraction));
    }
    let numbers = format!("2 × {} × {} FLOP / {peak}", e9(c.active_params), thousands(f64::from(st.batch)));
    let gemm = &t.terms.gemm;
    let note = if t.terms.all_memory_bound() {
        format!("Below the {} ms memory term: memory-bound.", ms(t.memory_s))
    } else if gemm.bound() == Bound::Compute {
        format!(
            "Above the {} ms weight read: the GEMMs are compute-bound, and the attention's {} ms adds to them.",
            ms(gemm.memory_s),
            ms(t.terms.decode_attention.time_s())
        )
    } else {
        format!(
            "Below the {} ms weight read: the GEMMs are memory-bound; the attention is compute-bound ({} ms of FLOPs).",
            ms(gemm.memory_s),
            ms(t.terms.decode_attention.compute_s)
        )
    };
    let formula = format!("2 × active params × B / peak ({} tensor cores)", c.precision.label());
    line("compute", "Compute check", &formula, numbers, format!("{} ms", ms(t.compute_s)), note)
}
