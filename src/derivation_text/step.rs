//! The derivation's step lines as text: bandwidth, the step formula, step(B) at its batches and the
//! compute check.

use super::{general_reasons, line, Line};
use crate::core::derivation::{Derivation, Role, StepAt};
use crate::core::roofline::{Bound, Scenario};
use crate::format::{e9, fixed, ms, ms_against, size, target_ms, tb_per_s, tflop_per_s};
use crate::format::{percent_trimmed, thousands, trimmed, us};

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
        format!("Realistic mode also adds {} ms of overhead to every step.", trimmed(b.overhead_s * 1e3, 2)),
    )
}

/// True when step(B) is the worked example's (weights + B x KV) / bandwidth: dense, one GPU, ideal.
pub(super) fn worked_example_form(d: &Derivation) -> bool {
    d.weights.moe.is_none() && d.weights.tp == 1 && !d.bandwidth.realistic
}

pub(super) fn step_formula(d: &Derivation) -> Line {
    let f = &d.step;
    if worked_example_form(d) {
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
    let numbers = format!(
        "max(({weights} + B × {}) / {}, B × {}) + B × {} + {} ms",
        size(f.kv_bytes_per_seq),
        tb_per_s(f.bandwidth_bytes_per_s),
        us(f.compute_per_seq_s),
        us(f.allreduce_per_seq_s),
        trimmed(f.overhead_s * 1e3, 2)
    );
    let note =
        format!("The worked example's simple form does not apply here: {}.", general_reasons(d).join("; "));
    line(
        "step",
        "Step time",
        "step(B) = max((weights read(B) / TP + B × KV per sequence / shards) / bandwidth, 2 × active params × B / peak) + all-reduce(B) + overhead",
        numbers,
        String::new(),
        note,
    )
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
    let numbers = if worked_example_form(d) {
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
            "max(({} + {}) / {}, {} ms) + {} ms + {} ms",
            size(t.weight_read_bytes),
            size(t.kv_read_bytes),
            tb_per_s(d.step.bandwidth_bytes_per_s),
            ms(t.compute_s),
            ms(t.allreduce_s),
            trimmed(t.overhead_s * 1e3, 2)
        )
    };
    line(
        id,
        label,
        &format!("step({b})"),
        numbers,
        format!("{} ms", ms_against(t.step_s, scenario.tpot_target_s)),
        step_note(scenario, st),
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
    let peak = if d.weights.tp > 1 {
        format!("({} × {})", d.weights.tp, tflop_per_s(c.per_gpu_flop_per_s))
    } else {
        tflop_per_s(c.per_gpu_flop_per_s)
    };
    let numbers = format!("2 × {} × {} FLOP / {peak}", e9(c.active_params), thousands(f64::from(st.batch)));
    let note = match t.bound {
        Bound::Memory => format!("Below the {} ms memory term: memory-bound.", ms(t.memory_s)),
        Bound::Compute => format!("Above the {} ms memory term: compute-bound.", ms(t.memory_s)),
    };
    let formula = format!("2 × active params × B / peak ({} tensor cores)", c.precision.label());
    line("compute", "Compute check", &formula, numbers, format!("{} ms", ms(t.compute_s)), note)
}
