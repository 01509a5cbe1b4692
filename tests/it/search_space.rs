//! The search's space of replica shapes (TP x EP x DP x PP): its count against a written-out count,
//! every shape within the constraints, TP alone giving the rows the TP-only search gave, the split
//! scan against the x, y grid, and wide EP's finding for DeepSeek-V3 on H200.

use goodput_lab::core::capacity::{unit_point, Placing};
use goodput_lab::core::parallel::{system_gpus, Parallelism};
use goodput_lab::core::placement::{
    combine, decode_side, decode_side_of, prefill_side, Percentile, PlacementMode, Split, GPUS_PER_SIDE_MAX,
};
use goodput_lab::core::precision::Precision;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GPUS};
use goodput_lab::core::roofline::{kv_pool_batch, TP_CHOICES};
use goodput_lab::core::search::space::{parallelisms, REPLICA_GPUS_MAX};
use goodput_lab::core::search::split::{best_split_of, SideBound};
use goodput_lab::core::search::{search, search_group, Config, Group, Layout, Row, SearchSpec};
use goodput_lab::state::Inputs;

fn spec_for(model: &str) -> SearchSpec {
    let mut spec = Inputs::default().search_spec();
    spec.scenario.model = *model_by_id(model).expect("a preset model");
    spec
}

#[test]
fn deepseek_v3_on_h200_has_105_shapes_and_on_gb200_113_by_a_written_out_count() {
    let model = model_by_id("deepseek-v3").unwrap();
    // (TP, DP) pairs by stage size s = TP x DP (powers of two, TP <= 8): s = 1: 1, 2: 2, 4: 3, then 4
    // for each of 8, 16, 32, 64. EP is 1 or s (2 choices) except at s = 1. PP 1 takes s <= 64 (72
    // GPUs), PP 2 s <= 32 (36), PP 4 s <= 16 (18).
    let pp1 = 1 + 2 * (2 + 3 + 4 + 4 + 4 + 4);
    let pp2 = 1 + 2 * (2 + 3 + 4 + 4 + 4);
    let pp4 = 1 + 2 * (2 + 3 + 4 + 4);
    assert_eq!((pp1, pp2, pp4), (43, 35, 27));
    assert_eq!(parallelisms(model, gpu_by_id("h200-sxm").unwrap()).len(), pp1 + pp2 + pp4);
    // An NVL72 domain adds TP x DP = 72 (TP 1, 2, 4, 8 with DP 72, 36, 18, 9) at PP 1, EP 1 or 72.
    assert_eq!(parallelisms(model, gpu_by_id("gb200").unwrap()).len(), 105 + 4 * 2);
}

#[test]
fn a_dense_model_has_twelve_shapes_tp_by_pp_and_mixtral_caps_ep_at_its_eight_experts() {
    let llama = model_by_id("llama-3.1-70b").unwrap();
    let shapes = parallelisms(llama, gpu_by_id("h100-sxm").unwrap());
    // TP 1, 2, 4, 8 x PP 1, 2, 4; DP = EP = 1.
    assert_eq!(shapes.len(), 4 * 3);
    assert_eq!(&shapes[..4], &TP_CHOICES.map(Parallelism::tp));
    // Mixtral's 8 experts: EP = s only for s <= 8 (s = 2, 4, 8: 2 + 3 + 4 pairs at PP 1 and 2, 2 + 3 + 4
    // at PP 4 too), EP 1 for every pair: PP 1 has 22 pairs, PP 2 18, PP 4 14.
    let mixtral = model_by_id("mixtral-8x7b").unwrap();
    let wide = 2 + 3 + 4;
    let expected = (22 + wide) + (18 + wide) + (14 + wide);
    assert_eq!(parallelisms(mixtral, gpu_by_id("h100-sxm").unwrap()).len(), expected);
}

#[test]
fn every_shape_searched_keeps_the_constraints_and_every_colocated_row_fits_its_system() {
    for id in ["deepseek-v3", "llama-3.1-70b", "mixtral-8x7b", "qwen3-235b-a22b"] {
        let model = model_by_id(id).unwrap();
        let experts = model.moe.map_or(1, |m| m.experts);
        for gpu in GPUS.iter() {
            for p in parallelisms(model, gpu) {
                assert!([1, 2, 4, 8].contains(&p.tp) && [1, 2, 4].contains(&p.pp), "{id} {p:?}");
                assert_eq!((p.tp * p.dp) % p.ep, 0, "{id} {p:?}: EP divides TP x DP");
                assert!(p.ep <= experts, "{id} {p:?}: EP <= routed experts");
                assert!(model.moe.is_some() || (p.ep == 1 && p.dp == 1), "{id} {p:?}: dense");
                assert!(p.gpus() <= REPLICA_GPUS_MAX, "{id} {p:?}");
            }
        }
    }
    let spec = spec_for("qwen3-30b-a3b");
    for gpu in ["h200-sxm", "gb200", "l4"] {
        let gpu_index = GPUS.iter().position(|g| g.id == gpu).unwrap() as u8;
        let group = Group { gpu_index, weight_precision: Precision::Bf16, kv_precision: Precision::Fp8 };
        for row in &search_group(&spec, &group).rows {
            let scenario = row.config.scenario(&spec.scenario);
            assert!(kv_pool_batch(&scenario) >= 1, "{:?}", row.config);
            assert!(scenario.parallel.gpus() <= system_gpus(&scenario.gpu, &scenario.cluster));
            assert_eq!(scenario.parallel, row.config.layout.page_parallel());
        }
    }
}

/// Today's colocated TP row by hand: the page's scenario with the GPU, precisions and TP set, the
/// chunked steady state's point ([`unit_point`]), no search code.
fn tp_point(spec: &SearchSpec, row: &Row, tp: u32) -> Option<goodput_lab::core::capacity::Point> {
    let c = &row.config;
    let scenario = goodput_lab::core::scenario::Scenario {
        gpu: GPUS[usize::from(c.gpu_index)],
        weight_precision: c.weight_precision,
        kv_precision: c.kv_precision,
        parallel: Parallelism::tp(tp),
        ..spec.scenario
    };
    let placing = Placing {
        mode: PlacementMode::Colocated,
        split: Split::default(),
        chunk_tokens: spec.chunk_tokens,
        percentile: spec.percentile,
    };
    unit_point(&scenario, &placing)
}

#[test]
fn tp_only_colocated_rows_are_the_tp_searchs_rows_to_the_bit() {
    let spec = Inputs::default().search_spec();
    let found = search(&spec);
    let mut checked = 0;
    for row in &found.rows {
        let Layout::Colocated { parallel } = row.config.layout else { continue };
        if !parallel.tp_only() {
            continue;
        }
        let p = tp_point(&spec, row, parallel.tp).expect("a row serves");
        assert_eq!((row.rate_req_per_s, row.tpot_s, row.ttft_s), (p.rate_req_per_s, p.tpot_s, p.ttft_s));
        assert_eq!((row.gpus, row.binds), (parallel.tp, p.binds));
        checked += 1;
    }
    assert!(checked > 500, "{checked} TP-only rows");
}

#[test]
fn the_split_scan_finds_the_x_y_grids_best_and_at_8_gpus_a_side_the_tp_only_searchs_split() {
    let scenario = Inputs::default().scenario;
    let pct = Percentile::P90_FIXED;
    for prefill_tp in TP_CHOICES {
        for decode_tp in TP_CHOICES {
            let prefill = prefill_side(&scenario, prefill_tp, None, &pct);
            let decode = decode_side(&scenario, decode_tp, &pct);
            for bound in [SideBound::SEARCH, SideBound::TP_ONLY] {
                let (scan, _) = best_split_of(None, &prefill, &decode, bound);
                let mut grid: Option<(Split, f64)> = None;
                for x in 1..=bound.instances(prefill_tp) {
                    for y in 1..=bound.instances(decode_tp) {
                        let split = Split {
                            prefill_instances: x,
                            prefill_tp,
                            decode_instances: y,
                            decode_tp,
                            link_bytes_per_s: None,
                        };
                        let d = combine(&split, &prefill, &decode, &pct);
                        let better = grid.is_none_or(|(b, g)| {
                            let gpus = |s: &Split| {
                                s.prefill_instances * s.prefill_tp + s.decode_instances * s.decode_tp
                            };
                            d.goodput_per_gpu_req_per_s > g * (1.0 + 1e-12)
                                || (d.goodput_per_gpu_req_per_s >= g * (1.0 - 1e-12)
                                    && gpus(&split) < gpus(&b))
                        });
                        if d.rate_req_per_s > 0.0 && better {
                            grid = Some((split, d.goodput_per_gpu_req_per_s));
                        }
                    }
                }
                assert_eq!(
                    scan.map(|(s, _)| s),
                    grid.map(|(s, _)| s),
                    "TP{prefill_tp} : TP{decode_tp}, {bound:?}"
                );
            }
        }
    }
    assert_eq!(SideBound::TP_ONLY.instances(1), GPUS_PER_SIDE_MAX);
}

#[test]
fn wide_ep_decodes_deepseek_v3_fp8_on_h200_at_more_tokens_per_gpu_than_tp_8_under_a_loose_tpot() {
    let mut spec = spec_for("deepseek-v3");
    spec.scenario.tpot_target_s = 0.050;
    let gpu_index = GPUS.iter().position(|g| g.id == "h200-sxm").unwrap() as u8;
    let group = Group { gpu_index, weight_precision: Precision::Fp8, kv_precision: Precision::Fp8 };
    let rows = search_group(&spec, &group).rows;
    let best = |wide: bool| {
        (rows.iter())
            .filter(|r| match r.config.layout {
                Layout::Disaggregated { decode, .. } => {
                    if wide {
                        decode.ep >= 8 && decode.dp >= 8
                    } else {
                        decode == Parallelism::tp(8)
                    }
                }
                Layout::Colocated { .. } => false,
            })
            .map(|r| r.tokens_per_s_per_gpu)
            .fold(0.0, f64::max)
    };
    let (wide, tp8) = (best(true), best(false));
    eprintln!("DeepSeek-V3 FP8 on H200, TPOT 50 ms: wide EP decode {wide:.0} tok/s/GPU, TP8 decode {tp8:.0}");
    assert!(tp8 > 0.0 && wide > tp8, "wide EP {wide} vs TP8 {tp8}");
    // The decode instances alone, per GPU: the MLA latent is held once per DP rank, not per GPU.
    let per_gpu = |parallel: Parallelism| {
        let config = Config { layout: Layout::Colocated { parallel }, ..config_of(&group) };
        let side = decode_side_of(&config.scenario(&spec.scenario), parallel, &spec.percentile);
        side.rate_req_per_s / f64::from(parallel.gpus())
    };
    let (wide_ep, tp8) = (per_gpu(Parallelism { tp: 1, ep: 8, dp: 8, pp: 1 }), per_gpu(Parallelism::tp(8)));
    eprintln!("decode instances alone: TP1 EP8 DP8 {wide_ep:.2} req/s/GPU, TP8 {tp8:.2}");
    assert!(wide_ep > 2.0 * tp8);
}

fn config_of(group: &Group) -> Config {
    Config {
        gpu_index: group.gpu_index,
        weight_precision: group.weight_precision,
        kv_precision: group.kv_precision,
        layout: Layout::Colocated { parallel: Parallelism::tp(1) },
    }
}
