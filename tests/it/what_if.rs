//! The what-if breadth: precisions, MoE expert reads, MLA and sliding-window KV, tensor
//! parallelism, prefill and TTFT, realistic calibration and the capacity plan, each checked
//! against arithmetic written out independently here.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::capacity::capacity_plan;
use goodput_lab::core::curves::curves;
use goodput_lab::core::energy::EnergyPrice;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::model::{expected_experts, params_read};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, Attention};
use goodput_lab::core::roofline::{
    analyze, gpus_needed, kv_bytes_per_seq, step_time, weight_bytes, Bound, CustomCalibration, Limit,
    Precision,
};
use goodput_lab::core::scenario::Scenario;

/// The worked example with another model, GPU and tensor-parallel degree.
fn on(model: &str, gpu: &str, tp: u32) -> Scenario {
    let model = *model_by_id(model).expect("model preset");
    let gpu = *gpu_by_id(gpu).expect("gpu preset");
    Scenario { model, gpu, parallel: Parallelism::tp(tp), ..worked_example() }
}

#[test]
fn moe_batch_of_one_reads_only_the_active_weights() {
    let s = on("qwen3-30b-a3b", "h100-sxm", 1);
    let one = step_time(&s, 1).weight_read_bytes;
    assert_close(one, s.model.active_params * 2.0, 1e-9, "B=1 reads dense part + top-k experts");
    assert!(one < 0.15 * weight_bytes(&s), "B=1 reads {one} of {} bytes", weight_bytes(&s));
}

#[test]
fn moe_weight_reads_grow_with_batch_towards_all_experts() {
    let s = on("qwen3-30b-a3b", "h100-sxm", 1);
    let mut last = 0.0;
    for b in [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] {
        let read = step_time(&s, b).weight_read_bytes;
        assert!(read > last, "reads grow at {b}");
        last = read;
    }
    assert_close(step_time(&s, 1024).weight_read_bytes, weight_bytes(&s), 1e-3, "B=1024 reads ~all");
}

#[test]
fn expected_experts_is_top_k_at_one_token_and_all_experts_at_many() {
    assert_close(expected_experts(256, 8, 1.0), 8.0, 1e-12, "B=1");
    assert_close(
        expected_experts(256, 8, 2.0),
        256.0 * (1.0 - (1.0 - 8.0 / 256.0_f64).powi(2)),
        1e-12,
        "B=2",
    );
    assert_close(expected_experts(256, 8, 5000.0), 256.0, 1e-9, "B=5000");
}

#[test]
fn a_dense_model_reads_all_weights_at_every_batch() {
    let s = worked_example();
    for b in [1, 64, 1000] {
        assert_eq!(step_time(&s, b).weight_read_bytes, 16.06e9);
    }
    assert_eq!(params_read(&s.model, 3.0), s.model.params);
}

#[test]
fn mla_caches_latent_plus_rope_per_layer_and_is_not_split_by_tp() {
    let s = Scenario { context_tokens: 1000, ..on("deepseek-v3", "h200-sxm", 1) };
    assert_close(kv_bytes_per_seq(&s), 1000.0 * (512.0 + 64.0) * 61.0 * 2.0, 1e-12, "MLA KV per sequence");
    let tp8 = Scenario { parallel: Parallelism::tp(8), ..s };
    assert_eq!(step_time(&tp8, 10).kv_read_bytes, step_time(&s, 10).kv_read_bytes, "latent on every GPU");
    assert_close(
        step_time(&tp8, 10).weight_read_bytes,
        step_time(&s, 10).weight_read_bytes / 8.0,
        1e-12,
        "weights",
    );
}

#[test]
fn sliding_window_layers_cap_their_kv_at_the_window() {
    let s = on("gemma-2-9b", "h100-sxm", 1);
    let per_layer_token = 2.0 * 8.0 * 256.0 * 2.0;
    let at = |ctx: u32| kv_bytes_per_seq(&Scenario { context_tokens: ctx, ..s });
    assert_close(at(8192), per_layer_token * (21.0 * 8192.0 + 21.0 * 4096.0), 1e-12, "8192 tokens");
    assert_close(at(4096), per_layer_token * 42.0 * 4096.0, 1e-12, "at the window nothing is capped");
}

#[test]
fn tensor_parallelism_splits_weights_kv_and_flops_and_adds_an_all_reduce() {
    let s1 = on("llama-3.1-70b", "h100-sxm", 1);
    let s4 = Scenario { parallel: Parallelism::tp(4), ..s1 };
    let (a, b) = (step_time(&s1, 32), step_time(&s4, 32));
    assert_close(b.weight_read_bytes, a.weight_read_bytes / 4.0, 1e-12, "weights per GPU");
    assert_close(b.kv_read_bytes, a.kv_read_bytes / 4.0, 1e-12, "KV per GPU");
    assert_close(b.compute_s, a.compute_s / 4.0, 1e-12, "compute");
    let allreduce = 2.0 * 80.0 * (2.0 * 3.0 / 4.0 * 32.0 * 8192.0 * 2.0) / 450e9;
    assert_close(b.allreduce_s, allreduce, 1e-12, "two ring all-reduces per layer");
    assert_eq!(a.allreduce_s, 0.0);
    assert_close(b.step_s, b.memory_s.max(b.compute_s) + allreduce, 1e-12, "step adds the all-reduce");
}

#[test]
fn kv_heads_are_replicated_past_the_kv_head_count() {
    let s = Scenario { parallel: Parallelism::tp(8), ..on("qwen3-235b-a22b", "h200-sxm", 1) };
    let one = Scenario { parallel: Parallelism::tp(1), ..s };
    assert_eq!(s.model.attention, Attention::Gqa { kv_heads: 4, head_dim: 128 });
    assert_close(step_time(&s, 8).kv_read_bytes, step_time(&one, 8).kv_read_bytes / 4.0, 1e-12, "4 shards");
}

#[test]
fn goodput_per_gpu_divides_by_the_replicas_gpus() {
    let s =
        Scenario { parallel: Parallelism::tp(2), tpot_target_s: 0.05, ..on("llama-3.1-70b", "h100-sxm", 1) };
    let p = evaluate(&s, 16);
    assert!(p.goodput_req_per_s > 0.0);
    assert_close(p.goodput_per_gpu_req_per_s, p.goodput_req_per_s / 2.0, 1e-12, "per GPU");
    assert_close(p.tokens_per_s_per_gpu, p.tokens_per_s / 2.0, 1e-12, "tokens per GPU");
}

#[test]
fn weights_too_big_for_one_gpu_name_the_gpus_and_tp_needed() {
    let a = analyze(&on("llama-3.1-70b", "h100-sxm", 1));
    assert!(matches!(a.limit, Limit::WeightsDoNotFit { gpus_needed: 2, .. }), "{:?}", a.limit);
    assert_eq!(a.tp_needed, Some(2));
    let a2 = analyze(&on("llama-3.1-70b", "h100-sxm", 2));
    assert!(a2.kv_pool_batch > 0, "TP 2 holds the weights and some KV: {:?}", a2.limit);
    let huge = on("llama-3.1-405b", "h100-sxm", 8);
    assert_eq!(gpus_needed(&huge), (811.7 / 72.0_f64).ceil() as u32);
    assert_eq!(analyze(&huge).tp_needed, None);
}

#[test]
fn weight_precision_sets_bytes_and_the_compute_peak() {
    let h100 = on("llama-3.1-8b", "h100-sxm", 1);
    let with = |w: Precision, s: &Scenario| Scenario { weight_precision: w, ..*s };
    assert_eq!(weight_bytes(&with(Precision::Fp8, &h100)), 8.03e9);
    assert_eq!(weight_bytes(&with(Precision::Int4, &h100)), 8.03e9 / 2.0);
    let peak = |s: &Scenario| analyze(s).peak_flop_per_s;
    assert_eq!(peak(&with(Precision::Fp8, &h100)), 1979e12);
    assert_eq!(peak(&with(Precision::Fp4, &h100)), 1979e12, "no FP4 on H100: FP8 cores");
    assert_eq!(peak(&with(Precision::Int4, &h100)), 989e12, "INT4 is weight-only");
    let b200 = on("llama-3.1-8b", "b200", 1);
    assert_eq!(peak(&with(Precision::Fp4, &b200)), 9000e12);
    let a100 = on("llama-3.1-8b", "a100-80gb", 1);
    assert_eq!(peak(&with(Precision::Fp8, &a100)), 312e12, "no FP8 on A100: BF16 cores");
}

#[test]
fn prefill_matches_the_flop_count_and_the_weight_read() {
    // The worked example's prompt: 2,048 of context less 256 / 2 = 1,920 tokens in.
    let s = worked_example();
    let p = prefill_time(&s);
    let linear = 2.0 * 8.03e9 * 1920.0;
    let attention = 32.0 * (1920.0 * 1921.0 / 2.0) * 32.0 * 2.0 * (128.0 + 128.0);
    assert_close(p.flop, linear + attention, 1e-12, "prefill FLOPs");
    assert_close(p.prefill_s, (linear + attention) / 989e12, 1e-12, "compute-bound prefill");
    assert_eq!(p.bound, Bound::Compute);
    // A 128-token prompt: its context is 128 + 256 / 2.
    let short = prefill_time(&Scenario { context_tokens: 128 + 128, ..s });
    assert_eq!(short.bound, Bound::Memory);
    // Its GEMMs wait on the weight read; its attention, a kernel of its own, adds its FLOPs after.
    let short_attention = 32.0 * (128.0 * 129.0 / 2.0) * 32.0 * 2.0 * (128.0 + 128.0);
    let weight_read_s = 16.06e9 / 3.35e12;
    assert_close(
        short.prefill_s,
        weight_read_s + short_attention / 989e12,
        1e-12,
        "weight read, then attention",
    );
}

#[test]
fn ttft_is_the_step_in_flight_plus_the_prefill() {
    let s = worked_example();
    let p = evaluate(&s, 64);
    assert_close(p.ttft_s, p.step.step_s + prefill_time(&s).prefill_s, 1e-12, "TTFT at 64");
}

#[test]
fn a_tight_ttft_target_caps_the_batch_before_tpot() {
    let s = Scenario { ttft_target_s: 0.042, ..worked_example() };
    let a = analyze(&s);
    let prefill_s = prefill_time(&s).prefill_s;
    let expect = ((0.042 - prefill_s) * 3.35e12 - 16.06e9) / (2048.0 * 131072.0);
    assert_eq!(a.knee_batch, expect.floor() as u32);
    assert_eq!(a.limit, Limit::Ttft);
    let past = evaluate(&s, a.knee_batch + 1);
    assert!(past.meets_tpot && !past.meets_ttft && past.goodput_req_per_s == 0.0, "needs both targets");
}

#[test]
fn a_ttft_target_below_the_prefill_leaves_no_goodput() {
    let s = Scenario { ttft_target_s: 0.020, ..worked_example() };
    let a = analyze(&s);
    assert_eq!(a.knee_batch, 0);
    assert!(matches!(a.limit, Limit::TtftBelowFloor { .. }), "{:?}", a.limit);
}

#[test]
fn realistic_mode_at_full_bandwidth_and_no_overhead_equals_the_ideal_model_exactly() {
    let ideal_full = CustomCalibration { mbu: 1.0, step_overhead_s: 0.0 };
    for (model, gpu, tp) in
        [("llama-3.1-8b", "h100-sxm", 1), ("qwen3-30b-a3b", "mi300x", 2), ("deepseek-v3", "b200", 8)]
    {
        let ideal = on(model, gpu, tp);
        let calibrated = Scenario { calibration: ideal_full.into(), ..ideal };
        assert_eq!(analyze(&calibrated), analyze(&ideal));
        for b in [1, 7, 64, 300] {
            assert_eq!(evaluate(&calibrated, b), evaluate(&ideal, b), "{model} at {b}");
        }
    }
}

#[test]
fn realistic_mode_divides_bandwidth_by_mbu_and_adds_the_overhead() {
    let s = Scenario {
        calibration: CustomCalibration { mbu: 0.8, step_overhead_s: 1e-3 }.into(),
        ..worked_example()
    };
    let step = step_time(&s, 64);
    assert_close(step.step_s, (16.06e9 + 64.0 * 2048.0 * 131072.0) / (3.35e12 * 0.8) + 1e-3, 1e-12, "step");
    let knee: f64 = ((0.010 - 1e-3) * 3.35e12 * 0.8 - 16.06e9) / (2048.0 * 131072.0);
    assert_eq!(analyze(&s).knee_batch, knee.floor() as u32);
    let c = curves(&s, &analyze(&s));
    assert_eq!(c.ideal_points.len(), c.points.len(), "ideal curves drawn alongside");
    assert_eq!(c.ideal_points[0], evaluate(&worked_example(), c.ideal_points[0].batch));
    assert!(curves(&worked_example(), &analyze(&worked_example())).ideal_points.is_empty());
}

#[test]
fn capacity_plan_runs_replicas_at_the_chunked_p90_point_below_the_decode_only_knee() {
    use goodput_lab::core::capacity::Placing;
    use goodput_lab::core::placement::{chunked_best, Percentile, PlacementMode, Split};
    let placing = Placing {
        mode: PlacementMode::Colocated,
        split: Split::default(),
        chunk_tokens: 512,
        percentile: Percentile::P90_FIXED,
    };
    let s = worked_example();
    let plan =
        capacity_plan(&s, &placing, 100.0, 2.5, &EnergyPrice::FREE).expect("the worked example serves");
    let rate = chunked_best(&s, 512, &Percentile::P90_FIXED).rate_req_per_s;
    assert_close(plan.unit.rate_req_per_s, rate, 1e-12, "the placement panel's chunked point");
    // The knee without prefill: 64 / (256 x step(64)) = 25.2 req/s; prompts take their share.
    let knee = 64.0 / (256.0 * ((16.06e9 + 64.0 * 2048.0 * 131072.0) / 3.35e12));
    assert!(rate < knee && rate > 0.4 * knee, "{rate} vs {knee}");
    let replicas = (100.0 / rate).ceil();
    assert_eq!((f64::from(plan.replicas), f64::from(plan.gpus)), (replicas, replicas));
    let usd = replicas * 2.5 / (100.0 * 256.0 * 3600.0) * 1e6;
    assert_close(plan.cost_per_million_tokens, usd, 1e-12, "$/M tokens");
    let tp2 =
        Scenario { parallel: Parallelism::tp(2), tpot_target_s: 0.05, ..on("llama-3.1-70b", "h100-sxm", 1) };
    let plan2 = capacity_plan(&tp2, &placing, 100.0, 2.5, &EnergyPrice::FREE).unwrap();
    assert_eq!(plan2.gpus, plan2.replicas * 2);
    let none = Scenario { tpot_target_s: 0.001, ..worked_example() };
    assert_eq!(capacity_plan(&none, &placing, 100.0, 2.5, &EnergyPrice::FREE), None);
}

#[test]
fn custom_specs_never_panic_and_stay_finite_whatever_the_numbers() {
    use goodput_lab::core::presets::{CustomGpu, CustomModel};
    let base = CustomModel::from_spec(&worked_example().model);
    let gpu = CustomGpu::from_spec(&worked_example().gpu);
    for experts in [0, 1, 2, 8, 4096] {
        for top_k in [0, 1, 4, 9, 5000] {
            for (window_tokens, sliding_layers) in [(0, 0), (1, 1), (4096, 99), (0, 16), (10_000_000, 32)] {
                for (kv_heads, head_dim, tp) in [(1, 1, 8), (8, 128, 2), (1024, 4096, 8)] {
                    let m = CustomModel {
                        experts,
                        top_k,
                        window_tokens,
                        sliding_layers,
                        kv_heads,
                        head_dim,
                        ..base
                    };
                    let fp = CustomGpu { fp8_flop_per_s: 0.0, fp4_flop_per_s: 0.0, ..gpu };
                    let s = Scenario {
                        model: m.to_spec(),
                        gpu: fp.to_spec(),
                        parallel: Parallelism::tp(tp),
                        ..worked_example()
                    };
                    let a = analyze(&s);
                    for b in [1, a.knee_batch.max(1), 4096] {
                        let p = evaluate(&s, b);
                        let numbers = [p.step.step_s, p.ttft_s, p.tokens_per_s, p.goodput_per_gpu_req_per_s];
                        assert!(numbers.iter().all(|x| x.is_finite()), "{m:?} at {b}: {numbers:?}");
                    }
                }
            }
        }
    }
}
