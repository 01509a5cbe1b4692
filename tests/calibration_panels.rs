//! One cost model across panels: under each calibration (ideal, custom, measured with each engine)
//! the capacity plan, the placement's decode side and disaggregated split, the search's row and the
//! simulator's step give the batch table's numbers for the same configuration, because every one
//! prices through the scenario's cost model.

mod common;

use common::{assert_close, worked_example};
use goodput_lab::core::calibration::{Calibration, CostModel, Engine};
use goodput_lab::core::capacity::capacity_plan;
use goodput_lab::core::placement::{decode_side, disaggregated, Split};
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GPUS};
use goodput_lab::core::roofline::{analyze, step_time, Precision, Scenario};
use goodput_lab::core::search::{row_for, Config, Layout, SearchSpec};
use goodput_lab::core::sim::{StepCost, StepWork};
use goodput_lab::core::table::batch_table;

fn calibrations() -> Vec<CostModel> {
    let mut all = vec![CostModel::Ideal, CostModel::Custom(Calibration { mbu: 0.7, overhead_s: 1.5e-3 })];
    all.extend(Engine::ALL.map(CostModel::Measured));
    all
}

/// The worked example, Qwen3-8B (measured on H100) and DeepSeek-V3 FP8 on 8 x H200 (measured there).
fn loaded() -> Vec<Scenario> {
    let qwen = Scenario { model: *model_by_id("qwen3-8b").unwrap(), context_tokens: 1024, ..worked_example() };
    let deepseek = Scenario {
        model: *model_by_id("deepseek-v3").unwrap(),
        gpu: *gpu_by_id("h200-sxm").unwrap(),
        weight_precision: Precision::Fp8,
        tp: 8,
        tpot_target_s: 0.03,
        ..worked_example()
    };
    vec![worked_example(), qwen, deepseek]
}

fn each(f: impl Fn(&Scenario, &str)) {
    for base in loaded() {
        for calibration in calibrations() {
            let s = Scenario { calibration, ..base };
            f(&s, &format!("{} under {calibration:?}", s.model.id));
        }
    }
}

#[test]
fn the_capacity_plan_serves_the_batch_tables_running_knee_goodput_under_every_calibration() {
    each(|s, what| {
        let a = analyze(s);
        // The batch that runs: the knee, or the KV pool where the knee lies past it (issue 25).
        let server = a.knee_batch.min(a.kv_pool_batch);
        let rows = batch_table(s, &a);
        let knee = rows.into_iter().find(|r| r.point.batch == server).map(|r| r.point.goodput_req_per_s);
        let plan = capacity_plan(s, &a, 10.0, 2.0).map(|p| p.replica_goodput_req_per_s);
        assert_eq!(plan.is_some(), knee.is_some_and(|g| g > 0.0), "{what}");
        if let (Some(plan), Some(knee)) = (plan, knee) {
            assert_close(plan, knee, 1e-12, what);
        }
    });
}

#[test]
fn placement_decode_instances_run_at_the_batch_tables_step_under_every_calibration() {
    each(|s, what| {
        let side = decode_side(s, s.tp);
        let split = Split { decode_tp: s.tp, prefill_tp: s.tp, ..Split::default() };
        let d = disaggregated(s, &split);
        if let Some(tpot) = side.tpot_s {
            assert_close(tpot, step_time(s, side.batch).step_s, 1e-12, what);
            assert_close(d.decode_tpot_s.unwrap(), tpot, 1e-12, what);
        }
    });
}

#[test]
fn a_search_row_of_the_pages_split_gives_the_placements_decode_tpot_under_every_calibration() {
    each(|s, what| {
        let gpu_index = GPUS.iter().position(|g| g.id == s.gpu.id).unwrap() as u8;
        let layout =
            Layout::Disaggregated { prefill_instances: 1, prefill_tp: s.tp, decode_instances: 1, decode_tp: s.tp };
        let config = Config { gpu_index, weight_precision: s.weight_precision, kv_precision: s.kv_precision, layout };
        let spec = SearchSpec {
            scenario: *s,
            chunk_tokens: 512,
            load_req_per_s: 10.0,
            usd_per_gpu_hour: [2.0; GPUS.len()],
            link_bytes_per_s: None,
        };
        let split = Split { decode_tp: s.tp, prefill_tp: s.tp, ..Split::default() };
        if let (Some(row), Some(tpot)) = (row_for(&spec, &config), disaggregated(s, &split).decode_tpot_s) {
            assert_close(row.tpot_s, tpot, 1e-12, what);
        }
    });
}

#[test]
fn the_simulators_decode_step_is_the_batch_tables_step_under_every_calibration() {
    each(|s, what| {
        let cost = StepCost::new(s);
        for batch in [1_u32, 8, 64] {
            let work = StepWork {
                decode_tokens: batch,
                kv_tokens: f64::from(batch) * f64::from(s.context_tokens),
                ..StepWork::default()
            };
            assert_close(cost.step_s(&work), step_time(s, batch).step_s, 1e-12, &format!("{what}, batch {batch}"));
        }
    });
}

#[test]
fn the_measured_profile_makes_every_panel_slower_than_the_ideal_bound() {
    for base in loaded() {
        let measured = Scenario { calibration: CostModel::Measured(Engine::Vllm), ..base };
        assert!(step_time(&measured, 1).step_s > step_time(&base, 1).step_s, "{}", base.model.id);
        let (ideal_knee, measured_knee) = (analyze(&base).knee_batch, analyze(&measured).knee_batch);
        assert!(measured_knee <= ideal_knee, "{}: {measured_knee} vs {ideal_knee}", base.model.id);
    }
}
