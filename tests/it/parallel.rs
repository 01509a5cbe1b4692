//! Expert, data and pipeline parallelism against written-out arithmetic: the memory split, the
//! experts the busiest rank reads, the all-to-all, two-batch overlap, the pipeline, and EP = DP =
//! PP = 1 as the tensor-parallel step.

use goodput_lab::core::calibration::{CostModel, CostTerms};
use goodput_lab::core::model::{expert_params, moe_layers};
use goodput_lab::core::parallel::{busiest_rank_factor, Cluster, ExpertLoad, Parallelism};
use goodput_lab::core::presets::{gpu_by_id, model_by_id};
use goodput_lab::core::roofline::{
    analyze, kv_bytes_per_seq, kv_pool_batch, step_time, step_time_at, usable_hbm_bytes,
    weight_bytes_per_gpu, Precision,
};
use goodput_lab::core::scenario::{Scenario, WORKED_EXAMPLE};

fn close(a: f64, b: f64, rel: f64, what: &str) {
    assert!((a - b).abs() <= rel * b.abs().max(1e-30), "{what}: {a} vs {b}");
}

fn deepseek(gpu: &str, parallel: Parallelism) -> Scenario {
    Scenario {
        model: *model_by_id("deepseek-v3").unwrap(),
        gpu: *gpu_by_id(gpu).unwrap(),
        weight_precision: Precision::Fp8,
        kv_precision: Precision::Fp8,
        parallel,
        context_tokens: 2048,
        output_tokens: 1024,
        tpot_target_s: 0.05,
        ..WORKED_EXAMPLE
    }
}

const fn degrees(tp: u32, ep: u32, dp: u32, pp: u32) -> Parallelism {
    Parallelism { tp, ep, dp, pp }
}

#[test]
fn the_worked_example_at_ep_dp_pp_of_one_is_weights_plus_kv_over_bandwidth() {
    assert!(WORKED_EXAMPLE.parallel.tp_only());
    let s = WORKED_EXAMPLE;
    let kv_seq = 2.0 * 32.0 * 8.0 * 128.0 * 2048.0 * 2.0;
    for batch in [1_u32, 64, 205] {
        let by_hand = (8.03e9 * 2.0 + f64::from(batch) * kv_seq) / 3.35e12;
        close(step_time(&s, batch).step_s, by_hand, 1e-12, "worked example step");
    }
    let knee = ((0.010 * 3.35e12 - 8.03e9 * 2.0) / kv_seq).floor();
    assert_eq!(f64::from(analyze(&s).knee_batch), knee);
}

#[test]
fn weights_per_gpu_split_dense_over_tp_experts_over_the_stage_and_layers_over_pp() {
    let s = deepseek("h200-sxm", degrees(2, 8, 4, 2));
    let m = s.model;
    let (experts, top_k) = (256.0, 8.0);
    let per_expert = (m.params - m.active_params) / (experts - top_k);
    let dense = m.params - per_expert * experts;
    let by_hand = (dense / 2.0 + per_expert * experts / (2.0 * 4.0)) * 1.0 / 2.0;
    close(weight_bytes_per_gpu(&s), by_hand, 1e-12, "weights per GPU");
    close(expert_params(&m), per_expert, 1e-12, "one expert's params");
}

#[test]
fn an_mla_latent_is_held_once_per_dp_rank_so_wide_dp_holds_more_sequences() {
    let tp8 = deepseek("h200-sxm", Parallelism::tp(8));
    let dp8 = deepseek("h200-sxm", degrees(1, 8, 8, 1));
    let kv_seq = (512.0 + 64.0) * 61.0 * 2048.0 * 1.0;
    close(kv_bytes_per_seq(&tp8), kv_seq, 1e-12, "MLA latent per sequence");
    let usable = usable_hbm_bytes(&tp8);
    let m = tp8.model;
    let per_expert = expert_params(&m);
    let dense = m.params - per_expert * 256.0;
    let tp8_pool = ((usable - m.params / 8.0) / kv_seq).floor();
    let dp8_pool = (8.0 * (usable - (dense + per_expert * 256.0 / 8.0)) / kv_seq).floor();
    assert_eq!(f64::from(kv_pool_batch(&tp8)), tp8_pool);
    assert_eq!(f64::from(kv_pool_batch(&dp8)), dp8_pool);
    assert!(dp8_pool > 4.0 * tp8_pool, "DP 8 holds {dp8_pool} sequences, TP 8 {tp8_pool}");
}

#[test]
fn the_busiest_rank_reads_the_distinct_experts_its_tokens_touch() {
    let mut s = deepseek("h200-sxm", degrees(1, 8, 8, 1));
    s.expert_load = ExpertLoad { imbalance: Some(1.0), two_batch_overlap: false };
    let m = s.model;
    let per_expert = expert_params(&m);
    let dense = m.params - per_expert * 256.0;
    for batch in [1_u32, 8, 64, 512] {
        let t = f64::from(batch);
        let distinct = 256.0 * (1.0 - (1.0 - 8.0 / 256.0_f64).powf(t));
        let by_hand = dense * 1.0 + per_expert * 1.0 * distinct / 8.0;
        close(step_time(&s, batch).weight_read_bytes, by_hand, 1e-12, "GEMM bytes per GPU");
    }
}

#[test]
fn uniform_routing_puts_the_busiest_rank_a_balls_into_bins_margin_above_the_mean() {
    let mean = 800.0 / 8.0;
    close(busiest_rank_factor(8, 800.0), 1.0 + (2.0 * 8.0_f64.ln() / mean).sqrt(), 1e-15, "factor");
    assert_eq!(busiest_rank_factor(1, 800.0), 1.0);
    assert_eq!(busiest_rank_factor(8, 0.0), 1.0);
    assert!(busiest_rank_factor(72, 1.0) <= 72.0);
}

/// DeepSeek-V3 TP1 EP16 DP16 on two 8-GPU nodes: the stage spans the NIC.
fn two_nodes(overlap: bool) -> Scenario {
    let mut s = deepseek("h200-sxm", degrees(1, 16, 16, 1));
    s.cluster = Cluster { nodes: 2, nic_bytes_per_s: 50e9 };
    s.expert_load = ExpertLoad { imbalance: Some(1.25), two_batch_overlap: overlap };
    s.calibration = CostModel::Terms(CostTerms { collective_latency_s: 20e-6, ..CostTerms::IDEAL });
    s
}

#[test]
fn the_all_to_all_is_two_calls_per_moe_layer_of_latency_plus_the_busiest_bytes_over_the_nic() {
    let s = two_nodes(false);
    let layers = f64::from(moe_layers(&s.model));
    assert_eq!(layers, 58.0);
    for batch in [16_u32, 256, 2048] {
        let t = f64::from(batch);
        let bytes = 1.25 * t * 8.0 / 16.0 * 7168.0 * 2.0 * 15.0 / 16.0;
        let by_hand = 2.0 * layers * (20e-6 + bytes / 50e9);
        close(step_time(&s, batch).terms.all_to_all_s, by_hand, 1e-12, "all-to-all");
    }
    let one_node = Scenario { parallel: degrees(1, 8, 8, 1), cluster: Cluster::ONE_NODE, ..s };
    let t = 256.0;
    let nvlink = 2.0 * 58.0 * (20e-6 + 1.25 * t * 8.0 / 8.0 * 7168.0 * 2.0 * 7.0 / 8.0 / 450e9);
    close(step_time(&one_node, 256).terms.all_to_all_s, nvlink, 1e-12, "all-to-all on NVLink");
    let tp_only = Scenario { parallel: degrees(8, 8, 1, 1), ..one_node };
    assert_eq!(step_time(&tp_only, 256).terms.all_to_all_s, 0.0, "DP 1: the TP all-reduce combines");
}

#[test]
fn two_batch_overlap_pays_the_longer_of_the_kernels_and_the_all_to_all() {
    for batch in [64_u32, 1024] {
        let plain = step_time(&two_nodes(false), batch);
        let overlapped = step_time(&two_nodes(true), batch);
        let kernels = plain.step_s - plain.terms.all_to_all_s - plain.terms.allreduce_s - plain.terms.fixed_s;
        let by_hand = kernels.max(plain.terms.all_to_all_s) + plain.terms.allreduce_s + plain.terms.fixed_s;
        close(overlapped.step_s, by_hand, 1e-12, "overlapped step");
        assert!(overlapped.step_s < plain.step_s);
    }
}

#[test]
fn a_pipeline_runs_min_pp_sequences_microbatches_and_pays_its_sends() {
    let tp4 = Scenario {
        model: *model_by_id("llama-3.1-70b").unwrap(),
        parallel: Parallelism::tp(4),
        ..WORKED_EXAMPLE
    };
    let pp2 = Scenario { parallel: degrees(4, 1, 1, 2), ..tp4 };
    let send = |tokens: f64| tokens * 8192.0 * 2.0 / 450e9;
    for batch in [64_u32, 9, 1] {
        let step = step_time(&pp2, batch);
        let m = f64::from(batch.min(2));
        let each = f64::from(batch) / m;
        assert_eq!(step.terms.microbatches, m);
        close(step.terms.pipeline_s, send(each), 1e-12, "pipeline sends");
        close(step.step_s, step_time_at(&tp4, each).step_s + send(each), 1e-12, "pipeline step");
    }
    // Memory: each stage holds half the layers, so the pool holds more than twice TP 4's sequences.
    assert!(kv_pool_batch(&pp2) > 2 * kv_pool_batch(&tp4));
}

#[test]
fn data_parallel_ranks_of_a_dense_model_are_replicas_of_one_rank() {
    let one = WORKED_EXAMPLE;
    let two = Scenario { parallel: degrees(1, 1, 2, 1), ..one };
    for batch in [1_u32, 64, 200] {
        close(step_time(&two, 2 * batch).step_s, step_time(&one, batch).step_s, 1e-12, "DP 2 at 2B");
    }
    let pool = |s: &Scenario| (usable_hbm_bytes(s) - weight_bytes_per_gpu(s)) / kv_bytes_per_seq(s);
    assert_eq!(f64::from(kv_pool_batch(&two)), (2.0 * pool(&one)).floor());
}

#[test]
fn wide_ep_serves_deepseek_at_more_tokens_per_gpu_than_tp8_on_one_node() {
    for engine in [CostModel::Ideal, CostModel::Measured(goodput_lab::core::calibration::Engine::Sglang)] {
        let per_gpu = |p: Parallelism| {
            let s = Scenario { calibration: engine, ..deepseek("h200-sxm", p) };
            let batch = analyze(&s).server_batch;
            f64::from(batch) / step_time(&s, batch).step_s / f64::from(p.gpus())
        };
        let (tp8, wide) = (per_gpu(Parallelism::tp(8)), per_gpu(degrees(1, 8, 8, 1)));
        assert!(wide > 2.0 * tp8, "{engine:?}: TP1 EP8 DP8 {wide:.0} against TP8 {tp8:.0} tokens/s per GPU");
    }
}

#[test]
fn the_derivation_prints_parallel_lines_whose_operands_recombine_to_the_roofline_results() {
    use goodput_lab::core::derivation::derive_scenario;
    use goodput_lab::view::derivation_text::lines;
    let mut s = two_nodes(false);
    s.calibration = CostModel::Measured(goodput_lab::core::calibration::Engine::Sglang);
    let d = derive_scenario(&s);
    let p = d.parallel.expect("EP 16 DP 16 has parallelism lines");
    let g = 16.0;
    close(p.weight_bytes_per_gpu, (p.dense_bytes / 1.0 + p.expert_bytes / g) / 1.0, 1e-12, "weights");
    close(
        p.pool_sequences,
        16.0 * (p.usable_bytes - p.weight_bytes_per_gpu) / p.kv_bytes_per_seq_per_gpu,
        1e-12,
        "pool",
    );
    let at = p.at.expect("a batch runs");
    let t = &at.time.terms;
    let tokens = f64::from(at.batch);
    let a2a = 2.0
        * f64::from(at.moe_layers)
        * (at.latency_s
            + at.all_to_all_call_s
            + t.imbalance * tokens * f64::from(at.top_k) / 16.0
                * f64::from(at.hidden_size)
                * 2.0
                * (g - 1.0)
                / g
                / (p.stage_link_bytes_per_s * at.all_to_all_link_share));
    close(t.all_to_all_s, a2a, 1e-12, "all-to-all");
    assert_eq!(p.stage_link_bytes_per_s, 50e9, "16 GPUs span two 8-GPU nodes: the NIC");
    let ids: Vec<String> = lines(&s, &d).into_iter().map(|l| l.id).collect();
    for id in ["par-replica", "par-weights", "par-pool", "par-imbalance", "par-a2a"] {
        assert!(ids.iter().any(|i| i == id), "{id} in {ids:?}");
    }
    assert!(!ids.iter().any(|i| i == "par-pipeline"), "no pipeline at PP 1");
    assert!(derive_scenario(&WORKED_EXAMPLE).parallel.is_none(), "TP alone prints no parallelism lines");
}
