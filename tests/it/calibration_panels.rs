//! One cost model across panels: under each calibration (ideal, custom, measured with each engine)
//! the capacity plan, the placement's decode side and disaggregated split, the search's row and the
//! simulator's step give the batch table's numbers for the same configuration, because every one
//! prices through the scenario's cost model.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::calibration::{CostModel, CustomCalibration, Engine};
use goodput_lab::core::capacity::{capacity_plan, Placing};
use goodput_lab::core::energy::EnergyPrice;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::percentile::tpot_quantile_s;
use goodput_lab::core::placement::{
    compare, decode_side, decode_spread, disaggregated, Percentile, PlacementMode, Split,
};

const P90: Percentile = Percentile::P90_FIXED;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, GPUS};
use goodput_lab::core::roofline::{analyze, step_time, Precision};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::search::{row_for, Config, Layout, SearchSpec};
use goodput_lab::core::sim::{StepCost, StepWork};

fn calibrations() -> Vec<CostModel> {
    let mut all =
        vec![CostModel::Ideal, CostModel::Custom(CustomCalibration { mbu: 0.7, step_overhead_s: 1.5e-3 })];
    all.extend(Engine::ALL.map(CostModel::Measured));
    all
}

/// The worked example, Qwen3-8B (measured on H100) and DeepSeek-V3 FP8 on 8 x H200 (measured there).
fn loaded() -> Vec<Scenario> {
    let qwen =
        Scenario { model: *model_by_id("qwen3-8b").unwrap(), context_tokens: 1024, ..worked_example() };
    let deepseek = Scenario {
        model: *model_by_id("deepseek-v3").unwrap(),
        gpu: *gpu_by_id("h200-sxm").unwrap(),
        weight_precision: Precision::Fp8,
        parallel: Parallelism::tp(8),
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
fn the_capacity_plans_replica_is_the_placement_panels_chunked_point_under_every_calibration() {
    // Before issue 25 the plan ran each replica at the batch table's knee with no prefill; now it
    // runs the chunked colocated steady state the placement panel and the search price.
    each(|s, what| {
        let placing = Placing {
            mode: PlacementMode::Colocated,
            split: Split::default(),
            chunk_tokens: 512,
            percentile: P90,
        };
        let chunked = compare(s, 512, &Split::default(), &P90).chunked;
        let plan = capacity_plan(s, &placing, 10.0, 2.0, &EnergyPrice::FREE).map(|p| p.unit.rate_req_per_s);
        let serves = chunked.rate_req_per_s > 0.0 && chunked.tpot_s.is_some() && chunked.ttft_s.is_some();
        assert_eq!(plan.is_some(), serves, "{what}");
        if let Some(plan) = plan {
            assert_close(plan, chunked.rate_req_per_s, 1e-12, what);
        }
    });
}

#[test]
fn placement_decode_instances_spread_around_the_batch_tables_step_under_every_calibration() {
    each(|s, what| {
        let side = decode_side(s, s.parallel.tp, &P90);
        let split = Split { decode_tp: s.parallel.tp, prefill_tp: s.parallel.tp, ..Split::default() };
        let d = disaggregated(s, &split, &P90);
        if let Some(tpot) = side.tpot_s {
            // Its mean is the batch table's step; its p90 adds the batch's spread.
            let spread = decode_spread(s, side.batch);
            assert_close(spread.mean_s, step_time(s, side.batch).step_s, 1e-12, what);
            assert_close(tpot, tpot_quantile_s(&spread, &P90), 1e-12, what);
            assert_close(d.decode_tpot_s.unwrap(), tpot, 1e-12, what);
        }
    });
}

#[test]
fn a_search_row_of_the_pages_split_gives_the_placements_decode_tpot_under_every_calibration() {
    each(|s, what| {
        let gpu_index = GPUS.iter().position(|g| g.id == s.gpu.id).unwrap() as u8;
        let layout = Layout::Disaggregated {
            prefill_instances: 1,
            prefill: Parallelism::tp(s.parallel.tp),
            decode_instances: 1,
            decode: Parallelism::tp(s.parallel.tp),
        };
        let config =
            Config { gpu_index, weight_precision: s.weight_precision, kv_precision: s.kv_precision, layout };
        let spec = SearchSpec {
            scenario: *s,
            chunk_tokens: 512,
            load_req_per_s: 10.0,
            usd_per_gpu_hour: [2.0; GPUS.len()],
            link_bytes_per_s: None,
            percentile: P90,
            energy: EnergyPrice::FREE,
        };
        let split = Split { decode_tp: s.parallel.tp, prefill_tp: s.parallel.tp, ..Split::default() };
        if let (Some(row), Some(tpot)) =
            (row_for(&spec, &config), disaggregated(s, &split, &P90).decode_tpot_s)
        {
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
            assert_close(
                cost.step_s(&work),
                step_time(s, batch).step_s,
                1e-12,
                &format!("{what}, batch {batch}"),
            );
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

/// Issue 48: a DEP configuration's per-GPU goodput carries its likely range, each end its own knee.
#[test]
fn a_dep_headlines_goodput_per_gpu_carries_the_likely_range_read_at_each_ends_own_knee() {
    use goodput_lab::core::calibration::range::{likely_range, LikelyRange};
    use goodput_lab::core::goodput::evaluate;
    use goodput_lab::core::roofline::analyze;
    use goodput_lab::view::format::headline::headline;
    let query =
        "model=deepseek-v3&gpu=h200-sxm&w=fp8&kv=fp8&tp=1&ep=8&dp=8&tpot=50&calib=measured&engine=sglang";
    let s = goodput_lab::state::from_page_query(query).0.scenario;
    let r = likely_range(&s).expect("measured engines give a range");
    let knee_per_gpu = |s: &Scenario| evaluate(s, analyze(s).knee_batch).goodput_per_gpu_req_per_s;
    let (mid, low, high) = (
        knee_per_gpu(&s),
        knee_per_gpu(&LikelyRange::scaled(&s, r.high)),
        knee_per_gpu(&LikelyRange::scaled(&s, r.low)),
    );
    assert!(low < mid && mid < high, "{low} {mid} {high}");
    // A step x times as long serves at most 1/x as many requests at a smaller or equal knee.
    assert!(
        low <= mid / r.high * (1.0 + 1e-9) && high >= mid / r.low * (1.0 - 1e-9),
        "{low} {mid} {high} {r:?}"
    );
    let text = headline(&s, &analyze(&s));
    let printed = goodput_lab::view::format::req_per_s;
    let expected = format!("({} per GPU, likely {} to {})", printed(mid), printed(low), printed(high));
    assert!(text.contains(&expected), "{text}\nexpected {expected}");
    // The ideal roofline is a bound: no range.
    let ideal = Scenario { calibration: CostModel::Ideal, ..s };
    assert!(!headline(&ideal, &analyze(&ideal)).contains("likely"));
}
