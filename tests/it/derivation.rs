//! The derivation panel's numbers: the worked example's arithmetic line by line, and for every preset the
//! operands recombined as the formulas print them give the roofline's and the table's numbers.

use crate::common::{assert_close, assert_prints_as, worked_example, worked_example_fp8_kv};
use goodput_lab::core::calibration::coverage::Coverage;
use goodput_lab::core::calibration::terms::cost_terms;
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::derivation::{derive_scenario, Derivation, KneeForm, KvShape, Role, StepAt};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GPUS, MODELS};
use goodput_lab::core::roofline::{
    analyze, step_time_at, Bound, CustomCalibration, Limit, Precision, TP_CHOICES,
};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::table::batch_table;

/// `a` equals `b` to a relative 1e-9 (or both are 0).
#[track_caller]
fn same(a: f64, b: f64, what: &str) {
    if b == 0.0 {
        assert!(a.abs() < 1e-12, "{what}: got {a}, expected 0");
    } else {
        assert_close(a, b, 1e-9, what);
    }
}

/// `a` equals `b` to 1e-9, relative to max(|b|, 1) batch (a knee at 0 may come out as 3e-15).
#[track_caller]
fn near(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{what}: got {a}, expected {b}");
}

fn scenario(model: &str, gpu: &str, tp: u32) -> Scenario {
    Scenario {
        model: *model_by_id(model).unwrap(),
        gpu: *gpu_by_id(gpu).unwrap(),
        parallel: Parallelism::tp(tp),
        ..worked_example()
    }
}

#[test]
fn the_worked_example_derivation_prints_its_reference_numbers() {
    let d = derive_scenario(&worked_example());
    assert_close(d.weights.params * d.weights.bytes_per_param, 16.06e9, 1e-9, "weights = 8.03e9 x 2 B");
    assert_eq!(d.kv_token.shape, KvShape::Gqa { kv_heads: 8, head_dim: 128 });
    assert_eq!(d.kv_token.kv_bytes_per_token, 2.0 * 32.0 * 8.0 * 128.0 * 2.0);
    assert_eq!(d.kv_token.kv_bytes_per_token, 128.0 * 1024.0, "128 KiB");
    assert_close(d.kv_seq.kv_bytes_per_seq, 268e6, 2e-3, "KV per sequence 268 MB");
    assert_eq!(d.bandwidth.effective_bytes_per_s, 3.35e12);
    let batches: Vec<(u32, Role)> = d.steps.iter().map(|s| (s.batch, s.role)).collect();
    assert_eq!(batches, [(64, Role::Knee), (65, Role::FirstMiss), (128, Role::Compare)]);
    assert_prints_as(d.steps[0].time.step_s * 1e3, 9.92, 2, "step(64)");
    assert_prints_as(d.steps[2].time.step_s * 1e3, 15.05, 2, "step(128)");
    assert!(d.steps[0].meets_tpot && !d.steps[1].meets_tpot, "64 meets 10 ms, 65 misses it");
    assert_close(d.steps[2].flop, 128.0 * 2.0 * 8.03e9, 1e-12, "compute check FLOP at 128");
    assert_close(d.steps[2].time.compute_s * 1e3, 2.08, 2e-3, "compute check at 128: 2.08 ms");
    assert_eq!(d.steps[2].time.bound, Bound::Memory, "memory-bound");
    let KneeForm::Memory { budget_bytes, weight_bytes, kv_bytes_per_seq, allreduce_bytes_per_seq, .. } =
        d.knee.form
    else {
        panic!("the worked example's knee is the closed memory form, got {:?}", d.knee.form)
    };
    assert_close(budget_bytes, 33.5e9, 1e-12, "10 ms x 3.35 TB/s = 33.5 GB");
    assert_eq!(allreduce_bytes_per_seq, 0.0, "one GPU: no all-reduce");
    assert_close((budget_bytes - weight_bytes) / kv_bytes_per_seq, 64.97, 1e-3, "(33.5 - 16.06) GB / 268 MB");
    assert_eq!((d.knee.tpot_batch, d.knee.batch), (64, 64));
    let g = d.goodput.expect("the worked example runs");
    assert_eq!(g.batch, 64);
    assert_prints_as(g.goodput_req_per_s, 25.2, 1, "goodput = 64 / (256 x 9.92 ms)");
    assert_eq!(d.pool.batch, 208);
}

#[test]
fn an_fp8_kv_cache_halves_kv_per_sequence_and_moves_the_knee_to_129() {
    let d = derive_scenario(&worked_example_fp8_kv());
    assert_close(d.kv_seq.kv_bytes_per_seq, 134e6, 2e-3, "KV per sequence 134 MB");
    assert_close(d.knee.exact, 129.94, 1e-3, "(33.5 - 16.06) GB / 134 MB");
    assert_eq!(d.knee.batch, 129);
}

/// The weight bytes one GPU reads at this step, from the printed operands.
fn weight_read(d: &Derivation, step: &StepAt) -> f64 {
    match (d.weights.moe, step.experts_touched) {
        (Some(m), Some(touched)) => {
            (m.dense_params + m.expert_params * touched) * d.weights.bytes_per_param / f64::from(d.weights.tp)
        }
        _ => d.step.fixed_weight_read_bytes.expect("a dense model reads a fixed amount"),
    }
}

/// Every line's operands, recombined as printed, against the roofline, the table and each other.
fn check_recombines(s: &Scenario, label: &str) {
    let a = analyze(s);
    let d = derive_scenario(s);
    let w = &d.weights;
    same(w.params * w.bytes_per_param, a.weight_bytes, &format!("{label}: weights"));
    same(w.per_gpu_bytes * f64::from(w.tp), a.weight_bytes, &format!("{label}: weights per GPU"));
    let t = &d.kv_token;
    let per_layer = match t.shape {
        KvShape::Gqa { kv_heads, head_dim } => 2.0 * f64::from(kv_heads) * f64::from(head_dim),
        KvShape::Mla { latent_rank, rope_dim } => f64::from(latent_rank) + f64::from(rope_dim),
    };
    let per_token = per_layer * f64::from(t.layers) * t.bytes_per_element;
    same(per_token, a.kv_bytes_per_token, &format!("{label}: KV per token"));
    let ctx = f64::from(d.kv_seq.context_tokens);
    let per_seq = match d.kv_seq.sliding {
        None => ctx * per_token,
        Some(w) => {
            per_layer
                * t.bytes_per_element
                * (f64::from(w.full_layers) * ctx + f64::from(w.sliding_layers) * f64::from(w.held_tokens))
        }
    };
    same(per_seq, a.kv_bytes_per_seq, &format!("{label}: KV per sequence"));
    same(d.kv_seq.per_gpu_bytes * f64::from(d.kv_seq.shards), per_seq, &format!("{label}: KV per GPU"));
    check_pool(&d, &a, label);
    for step in &d.steps {
        check_step(s, &d, step, label);
    }
    check_knee(s, &d, label);
    check_goodput(s, &d, label);
}

fn check_pool(d: &Derivation, a: &goodput_lab::core::roofline::Analysis, label: &str) {
    let p = &d.pool;
    same(p.hbm_bytes * p.memory_utilization - p.weight_bytes, p.free_bytes, &format!("{label}: free HBM"));
    let pool = (p.free_bytes / p.kv_bytes_per_seq).floor().max(0.0);
    assert_eq!(p.batch, a.kv_pool_batch, "{label}: pool");
    if p.free_bytes > 0.0 && pool < 1e6 {
        assert_eq!(f64::from(p.batch), pool, "{label}: pool = floor(free / KV per seq)");
    }
    assert_eq!(p.server_batch, p.batch.min(d.knee.batch), "{label}: server batch = min(knee, pool)");
}

fn check_step(s: &Scenario, d: &Derivation, step: &StepAt, label: &str) {
    let what = format!("{label}: step({})", step.batch);
    let b = f64::from(step.batch);
    let f = &d.step;
    let weights = weight_read(d, step);
    same(weights, step.time.weight_read_bytes, &format!("{what} weights read"));
    same(b * f.kv_bytes_per_seq, step.time.kv_read_bytes, &format!("{what} KV read"));
    let memory_s = weights / f.bandwidth_bytes_per_s + b * f.kv_bytes_per_seq / f.kv_bandwidth_bytes_per_s;
    same(memory_s, step.time.memory_s, &format!("{what} memory term"));
    same(step.flop / d.compute.peak_flop_per_s, step.time.compute_s, &format!("{what} compute term"));
    same(b * f.compute_per_seq_s, step.time.compute_s, &format!("{what} compute per sequence"));
    same(b * f.allreduce_per_seq_s, step.time.allreduce_s, &format!("{what} all-reduce"));
    // Per operator, as the step line prints it: the GEMMs, then the attention, each the larger of
    // its reads and its FLOPs, then the all-reduce and the overhead.
    let (gemm_read_s, gemm_flop_s) = (weights / f.bandwidth_bytes_per_s, step.time.compute_s);
    let (kv_read_s, attention_flop_s) =
        (b * f.kv_bytes_per_seq / f.kv_bandwidth_bytes_per_s, b * f.attention_compute_per_seq_s);
    let (gemm_s, attention_s) = (gemm_read_s.max(gemm_flop_s), kv_read_s.max(attention_flop_s));
    let total = gemm_s + attention_s + b * f.allreduce_per_seq_s + f.fixed_s;
    let table = evaluate(s, step.batch);
    same(total, table.step.step_s, &format!("{what} total against the table"));
    if gemm_flop_s <= gemm_read_s && attention_flop_s <= kv_read_s {
        let single = memory_s.max(step.time.compute_s) + b * f.allreduce_per_seq_s + f.fixed_s;
        same(single, table.step.step_s, &format!("{what} all memory-bound: the single max"));
    }
    assert_eq!(step.meets_tpot, table.meets_tpot, "{what} meets TPOT");
    let compute_binds =
        if attention_s > gemm_s { attention_flop_s > kv_read_s } else { gemm_flop_s > gemm_read_s };
    let bound = if compute_binds { Bound::Compute } else { Bound::Memory };
    assert_eq!(step.time.bound, bound, "{what} the longest group's bound");
    let listed = batch_table(s, &analyze(s)).into_iter().find(|r| r.point.batch == step.batch);
    if let Some(row) = listed {
        assert_eq!(row.point.step.step_s, step.time.step_s, "{what} equals its table row");
    }
}

fn check_knee(s: &Scenario, d: &Derivation, label: &str) {
    let k = &d.knee;
    let what = format!("{label}: knee");
    match k.form {
        KneeForm::Memory {
            budget_s,
            bandwidth_bytes_per_s,
            budget_bytes,
            weight_bytes,
            kv_bytes_per_seq,
            ..
        } => {
            let KneeForm::Memory { allreduce_bytes_per_seq, .. } = k.form else { unreachable!() };
            let fixed_s = cost_terms(s).fixed_s(s.model.layers, s.parallel.tp);
            same(budget_s, s.tpot_target_s - fixed_s, &format!("{what} budget"));
            same(budget_s * bandwidth_bytes_per_s, budget_bytes, &format!("{what} budget bytes"));
            let exact = (budget_bytes - weight_bytes) / (kv_bytes_per_seq + allreduce_bytes_per_seq);
            near(exact, k.exact, &what);
        }
        KneeForm::Compute { budget_s, compute_per_seq_s, attention_per_seq_s, allreduce_per_seq_s } => {
            let f = &d.step;
            let attention =
                (f.kv_bytes_per_seq / f.kv_bandwidth_bytes_per_s).max(f.attention_compute_per_seq_s);
            same(attention_per_seq_s, attention, &format!("{what} attention per sequence"));
            near(budget_s / (compute_per_seq_s + attention_per_seq_s + allreduce_per_seq_s), k.exact, &what);
        }
        KneeForm::Numeric => {
            let attention = step_time_at(s, k.exact).terms.decode_attention;
            let attention_compute = attention.compute_s > attention.memory_s;
            let two_bandwidths = d.step.kv_bandwidth_bytes_per_s != d.step.bandwidth_bytes_per_s;
            assert!(
                d.weights.moe.is_some() || attention_compute || two_bandwidths,
                "{what}: only MoE reads, a compute-bound attention or KV read at another bandwidth need bisection"
            );
            assert_close(step_time_at(s, k.exact).step_s, s.tpot_target_s, 1e-9, &what);
        }
        KneeForm::BelowFloor { empty_step_s } => {
            assert!(empty_step_s > s.tpot_target_s && k.exact == 0.0, "{what}: below floor");
        }
        KneeForm::Unbounded => panic!("{what}: no preset scenario is unbounded"),
    }
    assert_eq!(f64::from(k.tpot_batch), k.exact.floor(), "{what}: floor");
    let a = analyze(s);
    assert_eq!(k.batch, a.knee_batch, "{what}: the table's knee");
    if k.ttft_cap.is_none() && a.knee_batch > 0 {
        assert_eq!(k.tpot_batch, k.batch, "{what}: without a TTFT cap the knee is floor(exact)");
    }
}

fn check_goodput(s: &Scenario, d: &Derivation, label: &str) {
    let a = analyze(s);
    let Some(g) = d.goodput else {
        assert_eq!(a.server_batch, 0, "{label}: no goodput line only when no batch runs");
        return;
    };
    let little = f64::from(g.batch) / (f64::from(g.output_tokens) * g.step_s);
    same(little, g.throughput_req_per_s, &format!("{label}: Little's law"));
    let row = evaluate(s, a.server_batch);
    same(g.goodput_req_per_s, row.goodput_req_per_s, &format!("{label}: goodput at the server batch"));
    same(g.goodput_per_gpu_req_per_s * f64::from(g.tp), g.goodput_req_per_s, &format!("{label}: per GPU"));
}

#[test]
fn every_model_on_every_gpu_recombines_to_the_roofline_and_the_table() {
    let mut runs = 0;
    for model in MODELS {
        for gpu in GPUS {
            let s = Scenario { model: *model, gpu: *gpu, ..worked_example() };
            check_recombines(&s, &format!("{} on {}", model.id, gpu.id));
            let tp = analyze(&s).tp_needed.unwrap_or(8);
            let held = Scenario { parallel: Parallelism::tp(tp), ..s };
            check_recombines(&held, &format!("{} on {} x{tp}", model.id, gpu.id));
            runs += 2;
        }
    }
    assert_eq!(runs, 2 * MODELS.len() * GPUS.len());
}

#[test]
fn tensor_parallel_realistic_and_fp8_cases_recombine() {
    for tp in TP_CHOICES {
        for model in ["llama-3.1-70b", "mixtral-8x7b", "deepseek-v3", "gemma-2-27b", "gpt-oss-120b"] {
            for gpu in ["h100-sxm", "h200-sxm", "b200", "mi300x", "a100-80gb"] {
                let s = scenario(model, gpu, tp);
                let realistic = Scenario { calibration: CustomCalibration::REALISTIC_DEFAULT.into(), ..s };
                let fp8 = Scenario { weight_precision: Precision::Fp8, kv_precision: Precision::Fp8, ..s };
                let fp4 =
                    Scenario { weight_precision: Precision::Fp4, kv_precision: Precision::Fp4, ..realistic };
                let measured = Scenario { calibration: CostModel::Measured(Engine::Sglang), ..s };
                let measured_fp8 = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..fp8 };
                for (case, sc) in [
                    ("ideal", s),
                    ("realistic", realistic),
                    ("fp8", fp8),
                    ("fp4 realistic", fp4),
                    ("measured", measured),
                    ("fp8 measured", measured_fp8),
                ] {
                    check_recombines(&sc, &format!("{model} on {tp} x {gpu}, {case}"));
                }
            }
        }
    }
}

#[test]
fn an_moe_step_reads_only_the_experts_its_batch_touches() {
    let s = Scenario { tpot_target_s: 0.03, ..scenario("mixtral-8x7b", "h100-sxm", 2) };
    let d = derive_scenario(&s);
    let m = d.weights.moe.expect("Mixtral is MoE");
    assert_eq!((m.experts, m.top_k), (8, 2));
    assert_eq!(d.knee.form, KneeForm::Numeric);
    let at_one = evaluate(&s, 1).step.weight_read_bytes;
    assert!(at_one < 0.5 * d.weights.per_gpu_bytes, "batch 1 reads 2 of 8 experts: {at_one}");
    let knee = &d.steps[0];
    let touched = knee.experts_touched.unwrap();
    assert!(touched > 7.9 && touched <= 8.0, "a batch of {} touches nearly all 8: {touched}", knee.batch);
}

#[test]
fn mla_keeps_one_latent_per_layer_replicated_on_every_gpu() {
    let s = Scenario { weight_precision: Precision::Fp8, ..scenario("deepseek-v3", "h200-sxm", 8) };
    let d = derive_scenario(&s);
    assert_eq!(d.kv_token.shape, KvShape::Mla { latent_rank: 512, rope_dim: 64 });
    assert_eq!(d.kv_token.kv_bytes_per_token, (512.0 + 64.0) * 61.0 * 2.0);
    assert_eq!(d.kv_seq.shards, 1, "the latent is replicated, not split");
    assert_eq!(d.kv_seq.per_gpu_bytes, d.kv_seq.kv_bytes_per_seq);
}

#[test]
fn sliding_window_layers_hold_at_most_their_window() {
    let s = Scenario { context_tokens: 8192, ..scenario("gemma-2-9b", "h100-sxm", 1) };
    let w = derive_scenario(&s).kv_seq.sliding.expect("Gemma 2 slides on alternate layers");
    assert_eq!((w.full_layers, w.sliding_layers, w.window_tokens, w.held_tokens), (21, 21, 4096, 4096));
    let short = Scenario { context_tokens: 2048, ..s };
    assert_eq!(derive_scenario(&short).kv_seq.sliding.unwrap().held_tokens, 2048, "min(context, window)");
}

#[test]
fn tensor_parallelism_splits_the_bytes_and_adds_a_linear_all_reduce() {
    let s = Scenario { tpot_target_s: 0.03, ..scenario("llama-3.1-70b", "h100-sxm", 4) };
    let d = derive_scenario(&s);
    assert_eq!(d.kv_seq.shards, 4, "8 KV heads split over 4 GPUs");
    assert!(d.step.allreduce_per_seq_s > 0.0);
    // At ~317 sequences the GEMMs are compute-bound (past ~295), so the knee is the compute form.
    let KneeForm::Compute { allreduce_per_seq_s, .. } = d.knee.form else { panic!("{:?}", d.knee.form) };
    assert!(allreduce_per_seq_s > 0.0, "the all-reduce enters the knee's denominator");
    let memory_bound = derive_scenario(&Scenario { tpot_target_s: 0.02, ..s });
    let KneeForm::Memory { allreduce_bytes_per_seq, .. } = memory_bound.knee.form else {
        panic!("{:?}", memory_bound.knee.form)
    };
    assert!(allreduce_bytes_per_seq > 0.0, "and into the memory form's at 20 ms");
    let eight = derive_scenario(&Scenario { parallel: Parallelism::tp(8), ..s });
    assert_eq!(eight.kv_seq.shards, 8);
    let four_heads = derive_scenario(&scenario("qwen2.5-7b", "h100-sxm", 8));
    assert_eq!(four_heads.kv_seq.shards, 4, "4 KV heads: replicated past 4 GPUs");
}

#[test]
fn realistic_mode_shrinks_the_budget_by_the_overhead_and_the_bandwidth_by_mbu() {
    let s = Scenario { calibration: CustomCalibration::REALISTIC_DEFAULT.into(), ..worked_example() };
    let d = derive_scenario(&s);
    assert!(d.bandwidth.realistic);
    assert_close(d.bandwidth.effective_bytes_per_s, 0.8 * 3.35e12, 1e-12, "3.35 TB/s x 80%");
    let KneeForm::Memory { budget_s, budget_bytes, .. } = d.knee.form else { panic!("{:?}", d.knee.form) };
    assert_close(budget_s, 9e-3, 1e-12, "10 ms - 1 ms overhead");
    assert_close(budget_bytes, 9e-3 * 2.68e12, 1e-12, "budget bytes");
    assert!(d.knee.batch < 64, "a realistic server fits fewer than the ideal 64: {}", d.knee.batch);
}

#[test]
fn a_small_model_at_short_context_is_compute_bound_at_its_knee() {
    let s = Scenario { context_tokens: 128, tpot_target_s: 0.5, ..scenario("llama-3.2-1b", "l4", 1) };
    let d = derive_scenario(&s);
    assert!(matches!(d.knee.form, KneeForm::Compute { .. }), "{:?}", d.knee.form);
    check_recombines(&s, "Llama 3.2 1B on L4 at 128 tokens, 500 ms");
}

#[test]
fn weights_that_do_not_fit_leave_no_step_to_evaluate() {
    let d = derive_scenario(&scenario("llama-3.1-405b", "h100-sxm", 1));
    assert!(matches!(d.limit, Limit::WeightsDoNotFit { gpus_needed: 12, .. }), "{:?}", d.limit);
    assert!(d.steps.is_empty() && d.goodput.is_none());
    assert!(d.pool.free_bytes < 0.0, "weights exceed usable HBM");
}

#[test]
fn a_context_that_does_not_fit_leaves_no_step_to_evaluate() {
    let s = Scenario { context_tokens: 131_072, ..scenario("llama-3.1-8b", "l4", 1) };
    let d = derive_scenario(&s);
    assert!(matches!(d.limit, Limit::ContextDoesNotFit { .. }), "{:?}", d.limit);
    assert!(d.steps.is_empty() && d.goodput.is_none());
    assert!(d.pool.free_bytes > 0.0 && d.pool.free_bytes < d.pool.kv_bytes_per_seq);
}

#[test]
fn a_target_below_the_weight_read_evaluates_only_batch_one() {
    let s = Scenario { tpot_target_s: 0.004, ..worked_example() };
    let d = derive_scenario(&s);
    assert!(matches!(d.limit, Limit::TargetBelowFloor { .. }), "{:?}", d.limit);
    assert_eq!(d.steps.iter().map(|s| (s.batch, s.role)).collect::<Vec<_>>(), [(1, Role::One)]);
    let KneeForm::BelowFloor { empty_step_s } = d.knee.form else { panic!("{:?}", d.knee.form) };
    assert_close(empty_step_s, 16.06e9 / 3.35e12, 1e-9, "weights alone take 4.79 ms");
    assert!(d.goodput.is_none());
}

#[test]
fn a_loose_target_puts_the_knee_past_the_pool_and_evaluates_both() {
    let s = Scenario { tpot_target_s: 0.05, ..worked_example() };
    let d = derive_scenario(&s);
    assert_eq!(d.limit, Limit::KvPool);
    let steps: Vec<(u32, Role, bool)> = d.steps.iter().map(|s| (s.batch, s.role, s.fits_pool)).collect();
    assert_eq!(steps, [(208, Role::Pool, true), (518, Role::Knee, false)]);
    let g = d.goodput.unwrap();
    assert_eq!(g.batch, 208);
    assert_eq!(g.goodput_req_per_s, g.throughput_req_per_s, "goodput equals throughput");
}

/// The printed line with this id.
fn printed(s: &Scenario, id: &str) -> goodput_lab::view::derivation_text::Line {
    let lines = goodput_lab::view::derivation_text::lines(s, &derive_scenario(s));
    lines.into_iter().find(|l| l.id == id).unwrap_or_else(|| panic!("no line {id}"))
}

#[test]
fn the_worked_example_lines_print_as_in_the_reference() {
    let s = worked_example();
    let expect = [
        ("weights", "8.03e9 × 2 B (BF16)", "16.06 GB"),
        ("kv-token", "2 × 32 × 8 × 128 × 2 B (BF16)", "128 KiB"),
        ("kv-seq", "2,048 × 128 KiB", "268 MB"),
        ("bandwidth", "H100 SXM", "3.35 TB/s"),
        ("step", "(16.06 GB + B × 268 MB) / 3.35 TB/s", ""),
        ("step-knee", "(16.06 GB + 64 × 268 MB) / 3.35 TB/s = (16.06 + 17.18) GB / 3.35 TB/s", "9.92 ms"),
        ("step-next", "(16.06 GB + 65 × 268 MB) / 3.35 TB/s = (16.06 + 17.45) GB / 3.35 TB/s", "10.002 ms"),
        (
            "step-compare",
            "(16.06 GB + 128 × 268 MB) / 3.35 TB/s = (16.06 + 34.36) GB / 3.35 TB/s",
            "15.05 ms",
        ),
        ("compute", "2 × 8.03e9 × 128 FLOP / 989 TFLOP/s", "2.08 ms"),
        ("knee", "(33.5 − 16.06) GB / 268 MB", "64.97 → 64"),
        ("pool", "(80 GB × 90% − 16.06 GB) / 268 MB", "208 sequences"),
        ("goodput", "64 / (256 × 9.92 ms)", "25.2 req/s"),
    ];
    for (id, numbers, result) in expect {
        let l = printed(&s, id);
        assert_eq!((l.numbers.as_str(), l.result.as_str()), (numbers, result), "line {id}");
    }
    assert!(printed(&s, "compute").note.contains("memory-bound"));
    assert!(printed(&s, "step-next").note.starts_with("Misses 10 ms"));
    assert!(printed(&s, "pool").note.contains("min(knee 64, pool 208) = 64: the TPOT target binds"));
    assert_eq!(printed(&s, "step").note, "", "the worked example's simple form applies");
}

#[test]
fn fp8_kv_prints_134_mb_and_a_knee_of_129() {
    let s = worked_example_fp8_kv();
    assert_eq!(printed(&s, "kv-seq").result, "134 MB");
    assert_eq!(printed(&s, "knee").numbers, "(33.5 − 16.06) GB / 134 MB");
    assert_eq!(printed(&s, "knee").result, "129.94 → 129");
}

#[test]
fn every_printed_line_is_finite_and_its_step_times_are_the_tables() {
    for model in MODELS {
        for gpu in GPUS {
            let base = Scenario { model: *model, gpu: *gpu, ..worked_example() };
            let tp = analyze(&base).tp_needed.unwrap_or(8);
            let realistic = Scenario {
                parallel: Parallelism::tp(tp),
                calibration: CustomCalibration::REALISTIC_DEFAULT.into(),
                ..base
            };
            let measured = Scenario {
                parallel: Parallelism::tp(tp),
                calibration: CostModel::Measured(Engine::Trtllm),
                ..base
            };
            for s in [base, Scenario { parallel: Parallelism::tp(tp), ..base }, realistic, measured] {
                let d = derive_scenario(&s);
                let lines = goodput_lab::view::derivation_text::lines(&s, &d);
                let text = format!("{lines:?}");
                for bad in ["NaN", "inf", "–"] {
                    assert!(
                        !text.contains(bad),
                        "{} on {} x{}: {bad} in {text}",
                        model.id,
                        gpu.id,
                        s.parallel.tp
                    );
                }
                for (st, l) in d.steps.iter().zip(lines.iter().filter(|l| l.id.starts_with("step-"))) {
                    let shown: f64 = l.result.trim_end_matches(" ms").replace(',', "").parse().unwrap();
                    let table = evaluate(&s, st.batch).step.step_s * 1e3;
                    assert!(
                        (shown - table).abs() <= 0.005 * (1.0 + 1e-9),
                        "{} {}: {shown} vs {table}",
                        model.id,
                        l.id
                    );
                }
            }
        }
    }
}

#[test]
fn a_general_scenario_says_why_the_worked_examples_form_does_not_apply() {
    let s = Scenario {
        calibration: CustomCalibration::REALISTIC_DEFAULT.into(),
        tpot_target_s: 0.03,
        ..scenario("mixtral-8x7b", "h100-sxm", 2)
    };
    let step = printed(&s, "step");
    for reason in
        ["MoE step reads only the experts", "tensor parallelism splits the bytes over 2 GPUs", "80% of peak"]
    {
        assert!(step.note.contains(reason), "{reason}: {}", step.note);
    }
    assert_eq!(printed(&s, "knee").formula, "step(B) = target, solved by bisection");
    assert!(printed(&s, "goodput").note.contains("Per GPU"));
}

#[test]
fn the_limit_cases_print_words_instead_of_numbers() {
    let too_big = scenario("llama-3.1-405b", "h100-sxm", 1);
    assert_eq!(printed(&too_big, "pool").result, "none");
    assert!(printed(&too_big, "pool").note.contains("at least 12 GPUs"));
    assert_eq!(printed(&too_big, "goodput").result, "0 req/s");
    let tight = Scenario { tpot_target_s: 0.004, ..worked_example() };
    assert_eq!(printed(&tight, "knee").result, "none");
    assert_eq!(printed(&tight, "knee").numbers, "4.79 ms > 4 ms");
    assert_eq!(printed(&tight, "step-one").result, "4.87 ms");
}

#[test]
fn a_compute_bound_gemm_prints_the_per_operator_sum_and_names_the_group_that_takes_longest() {
    // FP8 weights and KV at 50 ms: the pool (476) is past the GEMMs' ridge, 8.03 GB / 3.35 TB/s =
    // 2 x 8.03e9 x B / 1,979 TFLOP/s at B = 296, so the GEMMs are compute-bound there.
    let s = Scenario {
        weight_precision: Precision::Fp8,
        kv_precision: Precision::Fp8,
        tpot_target_s: 0.05,
        ..worked_example()
    };
    let step = printed(&s, "step");
    assert!(step
        .formula
        .starts_with("step(B) = max(weights read(B) / TP / bandwidth, 2 × active params × B / peak) + max("));
    assert!(
        step.note.contains("a kernel group is compute-bound while another still reads memory"),
        "{}",
        step.note
    );
    let pool = printed(&s, "step-pool");
    assert_eq!(pool.formula, "step(476)");
    let b = 476.0;
    let (read_ms, flop_ms) = (8.03e9 / 3.35e12 * 1e3, 2.0 * 8.03e9 * b / 1979e12 * 1e3);
    let (kv_ms, attention_ms) =
        (b * 2048.0 * 65_536.0 / 3.35e12 * 1e3, b * 2048.0 * 32.0 * 32.0 * 512.0 / 1979e12 * 1e3);
    let numbers = format!(
        "max({read_ms:.2} ms, {flop_ms:.2} ms) + max({kv_ms:.2} ms, {attention_ms:.2} ms) + 0.00 ms + 0 ms"
    );
    assert_eq!(pool.numbers, numbers);
    assert_eq!(pool.result, format!("{:.2} ms", flop_ms + kv_ms));
    for says in [
        "the weight GEMMs are compute-bound",
        "the decode attention is memory-bound",
        "the decode attention takes the most",
    ] {
        assert!(pool.note.contains(says), "{says}: {}", pool.note);
    }
    assert!(printed(&s, "compute").note.contains("the GEMMs are compute-bound"));
    assert_eq!(printed(&worked_example(), "step").note, "", "the worked example keeps its single form");
}

#[test]
fn under_measured_engines_the_derivation_prints_the_first_steps_likely_range() {
    use goodput_lab::core::calibration::profile::RANGES;
    use goodput_lab::view::derivation_text::lines;
    let s = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..worked_example() };
    let d = derive_scenario(&s);
    let first = d.steps.first().expect("a step");
    let line = lines(&s, &d).into_iter().find(|l| l.id == "likely-step").expect("a likely-step line");
    // The worked example on H100 with vLLM is the best-covered class: its factors, written out.
    let fitted = RANGES.of(goodput_lab::core::calibration::bounds::Stack::Cuda, Coverage::ALL[0]);
    let (lo, hi) = (first.time.step_s * fitted.low, first.time.step_s * fitted.high);
    assert_eq!(
        line.result,
        format!("{:.2} to {:.2} ms at B = {}", lo * 1e3, hi * 1e3, first.batch),
        "{line:?}"
    );
    assert!(line.note.starts_with("fitted: -"), "{line:?}");
    let ideal = worked_example();
    assert!(
        lines(&ideal, &derive_scenario(&ideal)).iter().all(|l| l.id != "likely-step"),
        "the ideal roofline is a bound"
    );
}
