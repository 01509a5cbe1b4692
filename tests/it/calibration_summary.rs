//! The ideal roofline beside the measured engines (`core::calibration::summary`): every figure the
//! planning panels' notes print, checked against a computation written out here (a scan over batches,
//! the step at batch 1, the plan's ceiling over the chunked replica's p90 rate by hand), and total where nothing runs.

use goodput_lab::core::calibration::summary::{figures, summary, Figures, Load};
use goodput_lab::core::calibration::{CostModel, Engine};
use goodput_lab::core::capacity::Placing;
use goodput_lab::core::energy::EnergyPrice;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::{chunked_best, Percentile, PlacementMode, Split};
use goodput_lab::core::presets::{model_by_id, GPUS, MODELS};
use goodput_lab::core::roofline::{kv_pool_batch, step_time};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::{DEFAULT_PRICE_PER_GPU_HOUR, DEFAULT_RATE_REQ_PER_S, WORKED_EXAMPLE};

const PLACING: Placing = Placing {
    mode: PlacementMode::Colocated,
    split: Split {
        prefill_instances: 1,
        prefill_tp: 1,
        decode_instances: 1,
        decode_tp: 1,
        link_bytes_per_s: None,
    },
    chunk_tokens: 512,
    percentile: Percentile::P90_FIXED,
};
const LOAD: Load = Load {
    rate_req_per_s: DEFAULT_RATE_REQ_PER_S,
    usd_per_gpu_hour: DEFAULT_PRICE_PER_GPU_HOUR,
    placing: PLACING,
    energy: EnergyPrice::FREE,
};

fn measured(s: &Scenario, engine: Engine) -> Scenario {
    Scenario { calibration: CostModel::Measured(engine), ..*s }
}

/// The largest batch meeting both targets that the pool holds, by walking up from 1 (the knee as
/// the capacity plan runs it); 0 when batch 1 misses.
fn knee_by_scan(s: &Scenario) -> u32 {
    let pool = kv_pool_batch(s);
    (1..=pool.min(100_000)).take_while(|&b| evaluate(s, b).goodput_req_per_s > 0.0).last().unwrap_or(0)
}

/// GPUs and $/M tokens for the load, from the chunked replica's p90 rate, written out.
fn plan_by_hand(s: &Scenario, load: Load) -> (u32, f64) {
    let replica_req_per_s = chunked_best(s, 512, &Percentile::P90_FIXED).rate_req_per_s;
    let replicas = (load.rate_req_per_s / replica_req_per_s).ceil();
    let gpus = replicas * f64::from(s.parallel.tp);
    let tokens_per_hour = load.rate_req_per_s * f64::from(s.output_tokens) * 3600.0;
    (gpus as u32, gpus * load.usd_per_gpu_hour / tokens_per_hour * 1e6)
}

fn close(a: f64, b: f64, rel: f64, what: &str) {
    assert!((a - b).abs() <= rel * b.abs(), "{what}: {a} vs {b}");
}

#[test]
fn on_the_ideal_roofline_the_own_figures_are_the_worked_example_knee_64_at_9_92_ms() {
    let own = summary(&WORKED_EXAMPLE, Engine::Vllm, LOAD).own;
    assert_eq!(own.knee_batch, Some(64));
    assert_eq!((own.knee_tpot_s.unwrap() * 1e5).round() / 100.0, 9.92);
    assert_eq!(own, figures(&WORKED_EXAMPLE, LOAD), "own is the scenario priced as it is");
}

#[test]
fn the_measured_knee_on_the_worked_example_is_below_the_ideal_knee_and_is_the_last_batch_inside_both_targets()
{
    for engine in Engine::ALL {
        let s = summary(&WORKED_EXAMPLE, engine, LOAD);
        let knee = s.measured.knee_batch.expect("some batch meets the targets on measured engines");
        assert!(knee < s.own.knee_batch.unwrap(), "{engine:?}: measured {knee} below ideal");
        assert_eq!(knee, knee_by_scan(&measured(&WORKED_EXAMPLE, engine)), "{engine:?}: by scan");
    }
}

#[test]
fn the_knee_tpot_and_goodput_per_gpu_are_the_measured_step_at_that_batch() {
    let s = Scenario { parallel: Parallelism::tp(2), ..WORKED_EXAMPLE };
    let m = summary(&s, Engine::Sglang, LOAD).measured;
    let knee = m.knee_batch.unwrap();
    let step_s = step_time(&measured(&s, Engine::Sglang), knee).step_s;
    assert_eq!(m.knee_tpot_s, Some(step_s));
    assert!(step_s <= s.tpot_target_s, "the knee meets the target");
    let per_gpu = f64::from(knee) / (f64::from(s.output_tokens) * step_s) / 2.0;
    close(m.knee_goodput_per_gpu_req_per_s.unwrap(), per_gpu, 1e-12, "B / (output x TPOT) / TP");
}

#[test]
fn the_measured_floor_tpot_is_the_measured_step_at_batch_one_and_slower_than_the_ideal_floor() {
    for engine in Engine::ALL {
        let s = summary(&WORKED_EXAMPLE, engine, LOAD);
        let floor = step_time(&measured(&WORKED_EXAMPLE, engine), 1).step_s;
        assert_eq!(s.measured.floor_tpot_s, Some(floor), "{engine:?}");
        assert_eq!(s.own.floor_tpot_s, Some(step_time(&WORKED_EXAMPLE, 1).step_s));
        assert!(floor > s.own.floor_tpot_s.unwrap(), "{engine:?}: fixed costs only add time");
    }
}

#[test]
fn measured_engines_need_at_least_the_ideal_gpus_for_the_load_as_the_plan_written_out_gives() {
    for rate in [1.0, 37.5, DEFAULT_RATE_REQ_PER_S, 1234.0] {
        let load = Load { rate_req_per_s: rate, ..LOAD };
        let s = summary(&WORKED_EXAMPLE, Engine::Vllm, load);
        let m = measured(&WORKED_EXAMPLE, Engine::Vllm);
        let (gpus, usd) = plan_by_hand(&m, load);
        assert_eq!(s.measured.gpus, Some(gpus), "rate {rate}");
        close(s.measured.usd_per_million_tokens.unwrap(), usd, 1e-9, "$/M tokens");
        assert!(s.measured.gpus >= s.own.gpus, "rate {rate}: {:?} >= {:?}", s.measured.gpus, s.own.gpus);
        assert!(s.measured.usd_per_million_tokens >= s.own.usd_per_million_tokens);
    }
}

#[test]
fn a_scenario_already_on_measured_engines_has_its_own_figures_equal_to_the_measured_ones() {
    let s = summary(&measured(&WORKED_EXAMPLE, Engine::Trtllm), Engine::Trtllm, LOAD);
    assert_eq!(s.own, s.measured);
}

#[test]
fn weights_that_do_not_fit_give_no_figure_at_all() {
    let s = Scenario { model: *model_by_id("llama-3.1-405b").unwrap(), ..WORKED_EXAMPLE };
    let none = Figures {
        knee_batch: None,
        knee_tpot_s: None,
        knee_goodput_per_gpu_req_per_s: None,
        floor_tpot_s: None,
        gpus: None,
        usd_per_million_tokens: None,
    };
    let sum = summary(&s, Engine::Vllm, LOAD);
    assert_eq!((sum.own, sum.measured), (none, none));
}

#[test]
fn a_target_below_the_measured_floor_keeps_the_floor_but_gives_no_knee_or_plan() {
    let floor = step_time(&measured(&WORKED_EXAMPLE, Engine::Vllm), 1).step_s;
    let ideal_floor = step_time(&WORKED_EXAMPLE, 1).step_s;
    let s = Scenario { tpot_target_s: 0.5 * (floor + ideal_floor), ..WORKED_EXAMPLE };
    let sum = summary(&s, Engine::Vllm, LOAD);
    assert!(sum.own.knee_batch.is_some(), "the ideal roofline still meets it");
    assert_eq!(sum.measured.floor_tpot_s, Some(floor));
    let m = sum.measured;
    assert_eq!((m.knee_batch, m.knee_tpot_s, m.gpus, m.usd_per_million_tokens), (None, None, None, None));
}

#[test]
fn a_load_that_is_not_a_positive_number_gives_no_plan_but_keeps_the_knee() {
    for rate in [0.0, -3.0, f64::NAN, f64::INFINITY] {
        let m = summary(&WORKED_EXAMPLE, Engine::Vllm, Load { rate_req_per_s: rate, ..LOAD }).measured;
        assert_eq!((m.gpus, m.usd_per_million_tokens), (None, None), "rate {rate}");
        assert!(m.knee_batch.is_some());
    }
}

#[test]
fn every_preset_pair_and_engine_gives_finite_figures_or_none_and_measured_never_beats_ideal() {
    for model in MODELS {
        for gpu in GPUS {
            for tp in [1, 8] {
                let s =
                    Scenario { model: *model, gpu: *gpu, parallel: Parallelism::tp(tp), ..WORKED_EXAMPLE };
                for engine in Engine::ALL {
                    let sum = summary(&s, engine, LOAD);
                    let what = format!("{} on {} x{tp}, {engine:?}", model.id, gpu.id);
                    for x in [
                        sum.measured.knee_tpot_s,
                        sum.measured.floor_tpot_s,
                        sum.measured.usd_per_million_tokens,
                    ]
                    .into_iter()
                    .flatten()
                    {
                        assert!(x.is_finite() && x > 0.0, "{what}: {x}");
                    }
                    assert!(sum.measured.floor_tpot_s >= sum.own.floor_tpot_s, "{what}: floor");
                    assert!(sum.measured.knee_batch <= sum.own.knee_batch, "{what}: knee");
                }
            }
        }
    }
}

#[test]
fn wherever_measured_engines_find_a_rate_the_ideal_roofline_finds_at_least_that_rate() {
    use goodput_lab::core::capacity::unit_point;
    for model in MODELS {
        for gpu in GPUS {
            for tp in [1, 8] {
                let s =
                    Scenario { model: *model, gpu: *gpu, parallel: Parallelism::tp(tp), ..WORKED_EXAMPLE };
                let ideal = unit_point(&s, &PLACING);
                for engine in Engine::ALL {
                    let Some(m) = unit_point(&measured(&s, engine), &PLACING) else { continue };
                    let what = format!("{} on {} x{tp}, {engine:?}", model.id, gpu.id);
                    let i = ideal
                        .unwrap_or_else(|| panic!("{what}: measured {} req/s, ideal none", m.rate_req_per_s));
                    assert!(
                        i.rate_req_per_s >= m.rate_req_per_s * (1.0 - 1e-9),
                        "{what}: ideal {} < measured {}",
                        i.rate_req_per_s,
                        m.rate_req_per_s
                    );
                }
            }
        }
    }
}

#[test]
fn deepseek_v3_fp8_on_8_h200_at_the_issues_targets_has_an_ideal_rate_wherever_it_has_a_measured_one() {
    use goodput_lab::core::capacity::unit_point;
    use goodput_lab::core::precision::Precision;
    let s = Scenario {
        model: *model_by_id("deepseek-v3").expect("preset"),
        gpu: *goodput_lab::core::presets::gpu_by_id("h200-sxm").expect("preset"),
        weight_precision: Precision::Fp8,
        parallel: Parallelism::tp(8),
        context_tokens: 2048 + 150,
        output_tokens: 300,
        tpot_target_s: 0.030,
        ttft_target_s: 1.0,
        ..WORKED_EXAMPLE
    };
    let ideal = unit_point(&s, &PLACING);
    for engine in Engine::ALL {
        if let Some(m) = unit_point(&measured(&s, engine), &PLACING) {
            let i = ideal.expect("the ideal roofline finds a rate where the measured engines do");
            assert!(
                i.rate_req_per_s >= m.rate_req_per_s,
                "{engine:?}: {} < {}",
                i.rate_req_per_s,
                m.rate_req_per_s
            );
        }
    }
}
