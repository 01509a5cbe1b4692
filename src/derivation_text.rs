//! The derivation panel's lines as text: `formula = numbers = result`, each with units and a note
//! in words where the worked example's simple form does not apply. Pure, so native tests read the lines the
//! page prints; the numbers come from [`crate::core::derivation`] and print through [`crate::format`].

use crate::core::derivation::{Derivation, KneeForm, KvShape, Role, StepAt};
use crate::core::roofline::{Bound, Limit, Scenario};
use crate::format::{e9, fixed, ms, ms_against, req_per_s, size, target_ms, tb_per_s, tflop_per_s};
use crate::format::{thousands, trimmed, us};

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

/// A share as a short percentage (`90%`, `82.5%`).
fn pct(share: f64) -> String {
    format!("{}%", trimmed(share * 100.0, 1))
}

/// A size in GB without trailing zeros (`80 GB`, `141 GB`).
fn gb_short(size_bytes: f64) -> String {
    format!("{} GB", trimmed(size_bytes / 1e9, 2))
}

fn line(id: &str, label: &str, formula: &str, numbers: String, result: String, note: String) -> Line {
    Line { id: id.into(), label: label.into(), formula: formula.into(), numbers, result, note }
}

/// Every line, in the worked example's order: sizes, bandwidth, step(B) and its values, the compute check,
/// the knee, the KV pool and goodput.
pub fn lines(scenario: &Scenario, d: &Derivation) -> Vec<Line> {
    let mut out = vec![weights(d), kv_token(d), kv_seq(d), bandwidth(scenario, d), step_formula(d)];
    out.extend(d.steps.iter().map(|st| step_value(scenario, d, st)));
    out.extend(d.steps.last().map(|st| compute_check(d, st)));
    out.extend([knee(d), pool(d), goodput(d)]);
    out
}

/// Why the worked example's simple form (weights + B x KV) / bandwidth does not describe this scenario, one
/// clause per reason; empty when it does.
pub fn general_reasons(d: &Derivation) -> Vec<String> {
    let mut why = Vec::new();
    if let Some(m) = d.weights.moe {
        why.push(format!(
            "an MoE step reads only the experts its tokens touch (of {} per layer, {} per token)",
            m.experts, m.top_k
        ));
    }
    if d.weights.tp > 1 {
        why.push(format!(
            "tensor parallelism splits the bytes over {} GPUs and adds two all-reduces per layer",
            d.weights.tp
        ));
    }
    if d.bandwidth.realistic {
        why.push(format!(
            "realistic mode reads at {} of peak bandwidth and adds {} ms to every step",
            pct(d.bandwidth.mbu),
            trimmed(d.bandwidth.overhead_s * 1e3, 2)
        ));
    }
    if matches!(d.knee.form, KneeForm::Compute { .. }) {
        why.push("the compute term, not the memory term, reaches the target first".into());
    }
    why
}

fn weights(d: &Derivation) -> Line {
    let w = &d.weights;
    let numbers = format!("{} × {} B ({})", e9(w.params), trimmed(w.bytes_per_param, 1), w.precision.label());
    let mut note = String::new();
    if w.tp > 1 {
        note = format!(
            "Each of {} GPUs holds {} / {} = {}.",
            w.tp,
            size(w.weight_bytes),
            w.tp,
            size(w.per_gpu_bytes)
        );
    }
    if let Some(m) = w.moe {
        note.push_str(&format!(
            " All {} experts are held, but a step reads the dense part ({} params) plus the experts its \
             tokens touch, E × (1 − (1 − k/E)^B) with E = {}, k = {}, each {} params over all layers.",
            m.experts,
            e9(m.dense_params),
            m.experts,
            m.top_k,
            e9(m.expert_params)
        ));
    }
    line("weights", "Weights", "params × bytes per param", numbers, size(w.weight_bytes), note.trim().into())
}

fn kv_token(d: &Derivation) -> Line {
    let t = &d.kv_token;
    let bytes = format!("{} B ({})", trimmed(t.bytes_per_element, 1), t.precision.label());
    match t.shape {
        KvShape::Gqa { kv_heads, head_dim } => line(
            "kv-token",
            "KV per token",
            "2 × layers × KV heads × head dim × bytes",
            format!("2 × {} × {kv_heads} × {head_dim} × {bytes}", t.layers),
            size(t.kv_bytes_per_token),
            String::new(),
        ),
        KvShape::Mla { latent_rank, rope_dim } => line(
            "kv-token",
            "KV per token",
            "(latent rank + RoPE dim) × layers × bytes",
            format!("({latent_rank} + {rope_dim}) × {} × {bytes}", t.layers),
            size(t.kv_bytes_per_token),
            "Multi-head latent attention caches one compressed latent and one RoPE key per layer, \
             not K and V per head."
                .into(),
        ),
    }
}

fn kv_seq(d: &Derivation) -> Line {
    let k = &d.kv_seq;
    let ctx = thousands(f64::from(k.context_tokens));
    let (formula, numbers) = match k.sliding {
        None => {
            ("context × KV per token".to_string(), format!("{ctx} × {}", size(d.kv_token.kv_bytes_per_token)))
        }
        Some(w) => (
            "KV per token-layer × (full layers × context + sliding layers × min(context, window))"
                .to_string(),
            format!(
                "{} × ({} × {ctx} + {} × {})",
                size(d.kv_token.kv_bytes_per_token / f64::from(d.kv_token.layers.max(1))),
                w.full_layers,
                w.sliding_layers,
                thousands(f64::from(w.held_tokens))
            ),
        ),
    };
    let note = match (d.kv_token.shape, k.shards, d.weights.tp) {
        (_, _, 1) => String::new(),
        (KvShape::Mla { .. }, _, tp) => {
            format!("The latent is replicated on all {tp} GPUs: each holds {}.", size(k.per_gpu_bytes))
        }
        (KvShape::Gqa { kv_heads, .. }, shards, tp) => format!(
            "Split over min(TP {tp}, {kv_heads} KV heads) = {shards} GPUs: {} per GPU.",
            size(k.per_gpu_bytes)
        ),
    };
    line("kv-seq", "KV per sequence", &formula, numbers, size(k.kv_bytes_per_seq), note)
}

fn bandwidth(scenario: &Scenario, d: &Derivation) -> Line {
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
        format!("{} × {}", tb_per_s(b.peak_bytes_per_s), pct(b.mbu)),
        tb_per_s(b.effective_bytes_per_s),
        format!("Realistic mode also adds {} ms of overhead to every step.", trimmed(b.overhead_s * 1e3, 2)),
    )
}

/// True when step(B) is the worked example's (weights + B x KV) / bandwidth: dense, one GPU, ideal.
fn worked_example_form(d: &Derivation) -> bool {
    d.weights.moe.is_none() && d.weights.tp == 1 && !d.bandwidth.realistic
}

fn step_formula(d: &Derivation) -> Line {
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

fn role_label(st: &StepAt) -> (&'static str, &'static str) {
    match st.role {
        Role::Knee => ("step-knee", "At the knee"),
        Role::FirstMiss => ("step-next", "One batch more"),
        Role::Compare => ("step-compare", "At twice the knee"),
        Role::Pool => ("step-pool", "At the KV pool"),
        Role::One => ("step-one", "A batch of one"),
    }
}

fn step_value(scenario: &Scenario, d: &Derivation, st: &StepAt) -> Line {
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

fn step_note(scenario: &Scenario, st: &StepAt) -> String {
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

fn compute_check(d: &Derivation, st: &StepAt) -> Line {
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

fn knee(d: &Derivation) -> Line {
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

fn knee_form(d: &Derivation) -> (String, String, String) {
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
                    trimmed(d.bandwidth.overhead_s * 1e3, 2),
                    tb_per_s(d.bandwidth.effective_bytes_per_s),
                    gb(budget_bytes)
                )
            } else {
                String::new()
            };
            (formula.into(), numbers, note)
        }
        KneeForm::Compute { budget_s, compute_per_seq_s, allreduce_per_seq_s } => (
            "(target − overhead) / (2 × active params / peak + all-reduce per sequence)".into(),
            format!("{} ms / ({} + {})", trimmed(budget_s * 1e3, 3), us(compute_per_seq_s), us(allreduce_per_seq_s)),
            "Compute, not memory, reaches the target first at this batch.".into(),
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

fn pool(d: &Derivation) -> Line {
    let p = &d.pool;
    let numbers = format!(
        "({} × {} − {}) / {}",
        gb_short(p.hbm_bytes),
        pct(p.memory_utilization),
        size(p.weight_bytes),
        size(p.kv_bytes_per_seq)
    );
    let (result, note) = match d.limit {
        Limit::WeightsDoNotFit { gpus_needed, .. } => {
            ("none".to_string(), format!("The weights do not fit: they need at least {gpus_needed} GPUs."))
        }
        Limit::ContextDoesNotFit { .. } => {
            ("0 sequences".to_string(), "Not even one sequence's KV fits beside the weights.".into())
        }
        _ => (format!("{} sequences", thousands(f64::from(p.batch))), binds(d)),
    };
    line(
        "pool",
        "KV pool",
        "(HBM × utilization − weights per GPU) / KV per sequence per GPU",
        numbers,
        result,
        note,
    )
}

/// "The server runs min(knee 64, pool 208) = 64: the TPOT target binds."
fn binds(d: &Derivation) -> String {
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

fn goodput(d: &Derivation) -> Line {
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
