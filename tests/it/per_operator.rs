//! The per-operator step: each kernel group (weight GEMMs, decode attention, prefill attention)
//! costs max(bytes / bandwidth, FLOPs / peak) and the step is their sum, checked against the
//! arithmetic written out here from the published model and GPU numbers.

use crate::common::llama_8b::{
    BANDWIDTH, BF16_PEAK, FLOP_PER_PAIR_LAYER, KV_BYTES_PER_TOKEN, LAYERS, PARAMS,
};
use crate::common::{assert_close, worked_example};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::model::prefill_attention_flop;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GPUS, MODELS};
use goodput_lab::core::roofline::{
    analyze, step_sum_s, step_terms, step_time, Bound, Group, Precision, StepMix,
};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{StepCost, StepWork};

fn on(model: &str, gpu: &str, tp: u32) -> Scenario {
    Scenario {
        model: *model_by_id(model).unwrap(),
        gpu: *gpu_by_id(gpu).unwrap(),
        parallel: Parallelism::tp(tp),
        ..worked_example()
    }
}

/// 63 decodes at 2,048 tokens and a prompt's first 2,048-token chunk, in one step.
fn prefill_heavy(cost: &StepCost) -> StepWork {
    StepWork {
        decode_tokens: 63,
        prefill_tokens: 2048,
        prefill_attention_flop: cost.chunk_attention_flop(0, 2048),
        kv_tokens: 63.0 * 2048.0,
        prefill_kv_tokens: 0.0,
    }
}

#[test]
fn a_prefill_heavy_step_is_compute_bound_in_its_gemms_while_its_decode_attention_reads_memory() {
    let s = worked_example();
    let cost = StepCost::new(&s);
    let t = cost.terms(&prefill_heavy(&cost));
    let gemm_flop_s = 2.0 * PARAMS * 2111.0 / BF16_PEAK;
    let kv_read_s = 63.0 * 2048.0 * KV_BYTES_PER_TOKEN / BANDWIDTH;
    let prefill_attention_s = LAYERS * (2048.0 * 2049.0 / 2.0) * FLOP_PER_PAIR_LAYER / BF16_PEAK;
    assert_eq!(t.gemm.bound(), Bound::Compute, "2,111 tokens: {} ms of FLOPs", gemm_flop_s * 1e3);
    assert_eq!(t.decode_attention.bound(), Bound::Memory, "the decodes still read their KV");
    assert_eq!(t.prefill_attention.bound(), Bound::Compute, "a first chunk reads no earlier KV");
    assert_eq!(t.binding, Group::Gemm);
    let expected = gemm_flop_s + kv_read_s + prefill_attention_s;
    assert_close(t.step_s, expected, 1e-12, "GEMM FLOPs + KV read + causal attention");
    // The single max hid the KV read under the compute: it was 5.05 ms shorter.
    let single = ((2.0 * PARAMS * 2111.0 + LAYERS * 2048.0 * 2049.0 / 2.0 * FLOP_PER_PAIR_LAYER) / BF16_PEAK)
        .max((2.0 * PARAMS + 63.0 * 2048.0 * KV_BYTES_PER_TOKEN) / BANDWIDTH);
    assert_close(t.step_s - single, kv_read_s, 1e-9, "the per-operator step adds the KV read");
    assert_close(t.step_s * 1e3, 40.44, 1e-3, "40.44 ms against the single max's 35.39 ms");
}

#[test]
fn in_the_worked_examples_regime_every_group_is_memory_bound_and_the_sum_is_the_single_max() {
    let s = worked_example();
    for b in 0..=analyze(&s).kv_pool_batch {
        let t = step_time(&s, b);
        assert!(t.terms.all_memory_bound(), "batch {b}");
        assert_eq!(t.step_s, step_sum_s(t.memory_s, t.compute_s, t.allreduce_s, t.fixed_s), "batch {b}");
        let bytes = 2.0 * PARAMS + f64::from(b) * 2048.0 * KV_BYTES_PER_TOKEN;
        assert_close(t.step_s, bytes / BANDWIDTH, 1e-12, &format!("(weights + B x KV) / bw at {b}"));
    }
}

#[test]
fn past_the_gemm_ridge_the_step_adds_the_kv_read_to_the_gemm_compute() {
    // The GEMMs turn compute-bound where 2 x 8.03e9 x B / 989 TFLOP/s passes 16.06 GB / 3.35 TB/s.
    let ridge = (2.0 * PARAMS / BANDWIDTH) / (2.0 * PARAMS / BF16_PEAK);
    let s = Scenario { kv_precision: Precision::Fp8, ..worked_example() };
    for b in [295_u32, 296, 300, 400] {
        let t = step_time(&s, b);
        let single = step_sum_s(t.memory_s, t.compute_s, t.allreduce_s, t.fixed_s);
        assert_eq!(t.terms.gemm.bound() == Bound::Compute, f64::from(b) > ridge, "batch {b}, ridge {ridge}");
        if f64::from(b) > ridge {
            assert!(t.step_s > single, "batch {b}: {} > {single}", t.step_s);
        }
    }
}

#[test]
fn fp8_weights_at_a_large_batch_are_compute_bound_in_the_gemms_and_the_step_adds_the_kv_read() {
    let s = Scenario { weight_precision: Precision::Fp8, kv_precision: Precision::Fp8, ..worked_example() };
    let t = step_time(&s, 400);
    let gemm_flop_s = 2.0 * PARAMS * 400.0 / 1979e12;
    let kv_read_s = 400.0 * 2048.0 * KV_BYTES_PER_TOKEN / 2.0 / BANDWIDTH;
    assert!(gemm_flop_s > PARAMS / BANDWIDTH, "FP8 FLOPs pass the 8.03 GB read");
    assert_eq!((t.terms.gemm.bound(), t.terms.decode_attention.bound()), (Bound::Compute, Bound::Memory));
    assert_close(t.step_s, gemm_flop_s + kv_read_s, 1e-12, "19.27 ms");
    let single = (PARAMS + 400.0 * 2048.0 * KV_BYTES_PER_TOKEN / 2.0) / BANDWIDTH;
    assert_close(single * 1e3, 18.42, 1e-3, "the single max: weights + KV");
    assert_eq!(t.terms.binding, Group::DecodeAttention, "the KV read takes the most");
}

#[test]
fn the_simulators_step_is_the_analytic_function_for_any_composition() {
    for model in MODELS {
        for gpu in GPUS {
            let base = Scenario { model: *model, gpu: *gpu, ..worked_example() };
            let s = Scenario { parallel: Parallelism::tp(analyze(&base).tp_needed.unwrap_or(8)), ..base };
            let cost = StepCost::new(&s);
            let work = StepWork {
                decode_tokens: 40,
                prefill_tokens: 472,
                prefill_attention_flop: cost.chunk_attention_flop(1000, 472),
                kv_tokens: 40.0 * 1900.0,
                prefill_kv_tokens: 1000.0,
            };
            let mix = StepMix {
                decode_seqs: 40.0,
                decode_kv_tokens: 40.0 * 1900.0,
                prefill_tokens: 472.0,
                prefill_kv_tokens: 1000.0,
                prefill_attention_flop: prefill_attention_flop(&s.model, 1472)
                    - prefill_attention_flop(&s.model, 1000),
                ..StepMix::default()
            };
            assert_eq!(cost.step_s(&work), step_terms(&s, &mix).step_s, "{} on {}", model.id, gpu.id);
            let sum: f64 = Group::ALL.iter().map(|&g| cost.terms(&work).group(g).time_s()).sum();
            let t = cost.terms(&work);
            assert_close(t.step_s, sum + t.allreduce_s + t.fixed_s, 1e-12, model.id);
        }
    }
}

#[test]
fn prefill_and_ttft_are_one_step_of_the_prompt() {
    for ctx in [128_u32, 2048, 32_768] {
        // A prompt of `ctx` tokens: its context is ctx + 256 / 2 (`core::scenario::context_for`).
        let s = Scenario { context_tokens: ctx + 128, ..worked_example() };
        let mix = StepMix {
            prefill_tokens: f64::from(ctx),
            prefill_attention_flop: prefill_attention_flop(&s.model, ctx),
            ..StepMix::default()
        };
        let p = prefill_time(&s);
        assert_eq!(p.prefill_s, step_terms(&s, &mix).step_s, "{ctx} tokens");
        let weight_read_s = 2.0 * PARAMS / BANDWIDTH;
        let gemm_s = weight_read_s.max(2.0 * PARAMS * f64::from(ctx) / BF16_PEAK);
        let pairs = f64::from(ctx) * (f64::from(ctx) + 1.0) / 2.0;
        let attention_s = LAYERS * pairs * FLOP_PER_PAIR_LAYER / BF16_PEAK;
        assert_close(p.prefill_s, gemm_s + attention_s, 1e-12, &format!("prefill of {ctx}"));
        assert_close(evaluate(&s, 16).ttft_s, step_time(&s, 16).step_s + p.prefill_s, 1e-12, "TTFT");
    }
}

#[test]
fn an_moe_step_reads_the_experts_all_its_tokens_touch_and_computes_on_the_active_ones() {
    let s = on("mixtral-8x7b", "h100-sxm", 2);
    let mix = StepMix { prefill_tokens: 504.0, ..StepMix::decode(8.0, 2048.0) };
    let t = step_terms(&s, &mix);
    let expert = (46.70e9 - 12.88e9) / 6.0;
    let dense = 46.70e9 - 8.0 * expert;
    let touched = 8.0 * (1.0 - 0.75_f64.powf(512.0));
    assert_close(t.gemm.bytes, (dense + expert * touched) * 2.0 / 2.0, 1e-12, "weights per GPU");
    assert_close(t.gemm.flop, 2.0 * 12.88e9 * 512.0, 1e-12, "2 x active x tokens");
    // 46.7 GB over 2 GPUs take 13.9 ms to read; 512 tokens' 13.2 TFLOP take 6.7 ms on two H100s.
    assert_eq!(t.gemm.bound(), Bound::Memory, "a sparse model's GEMMs stay memory-bound longer");
    let long = step_terms(&s, &StepMix { prefill_tokens: 2040.0, ..mix });
    assert_eq!(long.gemm.bound(), Bound::Compute, "2,048 tokens: 26.7 ms of FLOPs");
    let one = step_terms(&s, &StepMix::decode(1.0, 2048.0));
    assert_close(one.gemm.bytes, (dense + 2.0 * expert) * 2.0 / 2.0, 1e-12, "one token reads 2 experts");
}

#[test]
fn tensor_parallelism_splits_every_group_and_adds_an_all_reduce_for_every_token() {
    let s = on("llama-3.1-70b", "h100-sxm", 4);
    let mix = StepMix { prefill_tokens: 448.0, ..StepMix::decode(64.0, 2048.0) };
    let t = step_terms(&s, &mix);
    let kv_per_token = 2.0 * 80.0 * 8.0 * 128.0 * 2.0;
    assert_close(t.decode_attention.bytes, 64.0 * 2048.0 * kv_per_token / 4.0, 1e-12, "KV over 4 shards");
    let pair_flop = 80.0 * 64.0 * 2.0 * 256.0;
    assert_close(
        t.decode_attention.compute_s,
        64.0 * 2048.0 * pair_flop / (4.0 * 989e12),
        1e-12,
        "heads split",
    );
    assert_close(t.gemm.compute_s, 2.0 * 70.55e9 * 512.0 / (4.0 * 989e12), 1e-12, "GEMMs split");
    let allreduce = 2.0 * 80.0 * (2.0 * 3.0 / 4.0 * 512.0 * 8192.0 * 2.0) / 450e9;
    assert_close(t.allreduce_s, allreduce, 1e-12, "two ring all-reduces per layer for 512 tokens");
}

#[test]
fn mla_attention_reads_the_replicated_latent_and_counts_its_per_head_flops() {
    let s = Scenario { weight_precision: Precision::Fp8, ..on("deepseek-v3", "h200-sxm", 8) };
    let t = step_terms(&s, &StepMix::decode(32.0, 2048.0));
    let held = 32.0 * 2048.0;
    assert_close(t.decode_attention.bytes, held * (512.0 + 64.0) * 61.0 * 2.0, 1e-12, "latent on every GPU");
    assert_close(t.decode_attention.flop, held * 61.0 * 128.0 * 2.0 * (192.0 + 128.0), 1e-12, "per pair");
    assert_eq!(t.decode_attention.bound(), Bound::Memory, "71 FLOP per byte, under H200's ridge");
}
