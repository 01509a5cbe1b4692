//! One question, one answer (issue 25): for one state the capacity plan, the placement panel, the
//! search's row for the page's configuration and the simulator give the GPUs for the load, and the
//! analytic p90 TTFT and TPOT stand beside a simulated distribution. The first three are one
//! function by construction and must agree exactly; the simulator is a finite seeded run, an
//! independent check held within a stated tolerance.

use goodput_lab::core::capacity::{capacity_plan, gpus_for};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::colocated::chunked_at;
use goodput_lab::core::placement::{compare, PlacementMode};
use goodput_lab::core::presets::GPUS;
use goodput_lab::core::search::{row_for, Config, Layout};
use goodput_lab::core::sim::{simulate, sweep, LengthDist, SimConfig};
use goodput_lab::state::{from_query, Inputs};
use goodput_lab::view::format::placement::rows;

/// The issue's engineer: Llama 3.1 70B FP8 on 4 x H100, 2,048-token prompts, 300-token answers,
/// TPOT 30 ms, TTFT 1 s, 50 req/s (context 2,048 + 300 / 2 = 2,198).
const CHAT_70B: &str = "model=llama-3.1-70b&w=fp8&tp=4&ctx=2198&out=300&tpot=30&ttft=1000&rate=50";

/// How far the simulator's goodput may sit from the analytic steady state's rate: the analytic
/// percentiles are approximations (module doc of `core::placement::percentile`) and the run is
/// finite (2,000 requests x 7 seeds).
const SIM_RATE_TOLERANCE: f64 = 0.15;

fn inputs(query: &str) -> Inputs {
    let (i, notices) = from_query(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    i
}

/// The page's own configuration as a search row sees it.
fn page_config(i: &Inputs) -> Config {
    let s = &i.scenario;
    let gpu_index = GPUS.iter().position(|g| g.id == s.gpu.id).expect("a preset GPU") as u8;
    Config {
        gpu_index,
        weight_precision: s.weight_precision,
        kv_precision: s.kv_precision,
        layout: Layout::Colocated { parallel: s.parallel },
    }
}

/// (plan, placement, search, simulator) GPUs for the load, and the analytic and simulated rates.
fn answers(i: &Inputs) -> ([u32; 4], f64, f64) {
    let s = &i.scenario;
    let load = i.rate_req_per_s;
    let plan = capacity_plan(s, &i.placing(), load, i.usd_per_gpu_hour(), &i.energy).expect("a plan");
    let c = compare(s, i.sim.chunk_tokens, &i.placement.split, &i.percentile());
    let table = rows(&c, i.sim.chunk_tokens, &i.placement.split, load);
    let chunked_row = table.iter().find(|r| r.id == "chunked").expect("a chunked row");
    let placement: u32 = chunked_row.gpus_for_load.replace(',', "").parse().expect("a GPU count");
    let search = row_for(&i.search_spec(), &page_config(i)).expect("a row").gpus_for_load;
    let swept = sweep(&i.sim.config(s));
    let sim = gpus_for(load, swept.goodput_req_per_s, s.parallel.tp);
    ([plan.gpus, placement, search, sim], plan.unit.rate_req_per_s, swept.goodput_req_per_s)
}

#[track_caller]
fn agree(query: &str) -> [u32; 4] {
    let i = inputs(query);
    assert_eq!(i.placement.mode, PlacementMode::Colocated);
    let (gpus, analytic, simulated) = answers(&i);
    println!("{query}: GPUs {gpus:?}, analytic {analytic:.3} req/s a replica, simulated {simulated:.3}");
    assert_eq!(gpus[0], gpus[1], "{query}: plan and placement panel");
    assert_eq!(gpus[0], gpus[2], "{query}: plan and search row");
    let off = (analytic - simulated).abs() / simulated;
    assert!(off <= SIM_RATE_TOLERANCE, "{query}: analytic {analytic} vs simulated {simulated} ({off:.3})");
    let gpus_off = (f64::from(gpus[0]) - f64::from(gpus[3])).abs() / f64::from(gpus[3]);
    assert!(gpus_off <= SIM_RATE_TOLERANCE + 0.05, "{query}: {gpus:?}");
    gpus
}

#[test]
fn the_worked_example_gets_one_gpu_count_from_plan_placement_search_and_simulator() {
    let gpus = agree("");
    // Prompts on the GPUs cut a replica below the decode-only knee's 25.2 req/s: more than the
    // four GPUs the decode-only plan gave for 100 req/s.
    assert!(gpus[0] > 4, "{gpus:?}");
}

#[test]
fn the_issues_70b_chat_case_gets_one_gpu_count_on_ideal_and_measured_engines() {
    let ideal = agree(CHAT_70B);
    let measured = agree(&format!("{CHAT_70B}&calib=measured"));
    assert!(measured[0] > ideal[0], "fixed costs only add GPUs: {measured:?} vs {ideal:?}");
    // The prompts alone need 2 x 70.6e9 x 2,048 FLOP each; 50 a second on 4 H100s' 7.9 PFLOP/s of
    // FP8 is 1.8 of them, so no plan may claim fewer than 8 GPUs (two replicas).
    assert!(ideal[0] >= 8, "{ideal:?}");
}

#[test]
fn fixed_lengths_agree_too() {
    agree("lengths=fixed");
    agree(&format!("{CHAT_70B}&lengths=fixed"));
}

/// MLPerf-like serving: Llama 3.1 70B FP8 on 8 x H100 under the measured engines, 871-token prompts
/// and 300-token answers against a step budget of 8,192 tokens, TPOT 200 ms, TTFT 2 s.
const BIG_BUDGET_70B: &str =
    "calib=measured&model=llama-3.1-70b&w=fp8&tp=8&in=871&out=300&chunk=8192&tpot=200&ttft=2000&rate=50";

#[test]
fn with_a_step_budget_many_prompts_long_the_plan_agrees_with_the_simulator() {
    // A step takes every waiting prompt the budget holds, in the simulator and in the plan: the plan's
    // prompt server clears C - B tokens a step, not one prompt (which put its TTFT p90 past 2 s at
    // 23.9 req/s a replica, 15% under the simulator's 28.0).
    agree(BIG_BUDGET_70B);
    agree("calib=measured&in=222&out=256&chunk=8192&tpot=30&ttft=1000");
}

/// The simulator at 80% of the analytic best rate, and the analytic point there.
fn side_by_side(query: &str) -> (f64, f64, f64, f64) {
    let i = inputs(query);
    let s = i.scenario;
    let pct = i.percentile();
    let best = capacity_plan(&s, &i.placing(), i.rate_req_per_s, 1.0, &i.energy).unwrap().unit.rate_req_per_s;
    let rate = 0.8 * best;
    let point = chunked_at(&s, i.sim.chunk_tokens, rate, &pct);
    let c: SimConfig = SimConfig { requests: 6000, ..i.sim.config(&s) };
    let simulated = simulate(&c, rate);
    let (ttft, tpot) = (simulated.ttft.p90_s.unwrap(), simulated.tpot.p90_s.unwrap());
    println!(
        "{query}: mean TPOT {:.5} vs sim p50 {:.5}; batch {:.1} vs sim {:.1}",
        point.tpot_mean_s.unwrap(),
        simulated.tpot.p50_s.unwrap(),
        point.batch,
        simulated.batch_mean
    );
    println!(
        "{query}: p90 TTFT {:.4} vs sim {ttft:.4}; p90 TPOT {:.5} vs sim {tpot:.5}",
        point.ttft_s.unwrap(),
        point.tpot_s.unwrap()
    );
    (point.ttft_s.unwrap(), ttft, point.tpot_s.unwrap(), tpot)
}

#[test]
fn the_analytic_p90_ttft_and_tpot_stand_within_a_stated_band_of_the_simulated_distribution() {
    let queries = ["lengths=fixed", "", &format!("{CHAT_70B}&lengths=fixed"), CHAT_70B];
    let all: Vec<_> = queries.iter().map(|q| side_by_side(q)).collect();
    for (query, &(ttft, sim_ttft, tpot, sim_tpot)) in queries.iter().zip(&all) {
        // TPOT within 10%: the means agree within 2%, but the simulator's answers spread more than
        // the normal approximation of prompt steps and batch (its p90 sits 3-8% above; README,
        // "Placement, stated"). TTFT within 15% (the M/G/1 exponential tail).
        assert!((tpot - sim_tpot).abs() <= 0.10 * sim_tpot, "{query}: TPOT {tpot} vs {sim_tpot}");
        assert!((ttft - sim_ttft).abs() <= 0.15 * sim_ttft, "{query}: TTFT {ttft} vs {sim_ttft}");
    }
    let fixed = inputs("lengths=fixed");
    assert_eq!(fixed.sim.lengths, LengthDist::Fixed);
}

#[test]
fn the_reachable_knee_never_lies_past_the_kv_pool_for_any_preset_and_no_goodput_is_drawn_there() {
    use goodput_lab::core::curves::curves;
    use goodput_lab::core::presets::MODELS;
    use goodput_lab::core::roofline::analyze;
    use goodput_lab::core::scenario::Scenario;
    use goodput_lab::core::table::batch_table;
    use goodput_lab::state::WORKED_EXAMPLE;
    for model in MODELS {
        for gpu in GPUS {
            for (tp, tpot_s) in [(1, 0.010), (8, 0.050), (8, 0.5)] {
                let s = Scenario {
                    model: *model,
                    gpu: *gpu,
                    parallel: Parallelism::tp(tp),
                    tpot_target_s: tpot_s,
                    ..WORKED_EXAMPLE
                };
                let a = analyze(&s);
                let what = format!("{} on {} TP{tp} at {tpot_s} s", model.id, gpu.id);
                let c = curves(&s, &a);
                assert!(
                    c.server_batch <= a.kv_pool_batch,
                    "{what}: server batch {} past pool {}",
                    c.server_batch,
                    a.kv_pool_batch
                );
                assert_eq!(c.server_batch, a.knee_batch.min(a.kv_pool_batch), "{what}");
                for p in c.points.iter().chain(&c.ideal_points).filter(|p| p.batch > a.kv_pool_batch) {
                    assert_eq!(p.goodput_req_per_s, 0.0, "{what}: goodput drawn at batch {}", p.batch);
                }
                for row in batch_table(&s, &a) {
                    assert!(
                        !row.is_knee || row.point.batch <= a.kv_pool_batch,
                        "{what}: table knee past the pool"
                    );
                    if row.point.batch > a.kv_pool_batch {
                        assert_eq!(row.point.goodput_req_per_s, 0.0, "{what}: table goodput past the pool");
                    }
                }
            }
        }
    }
}

#[test]
fn where_plan_and_simulator_differ_the_page_names_the_limit_that_holds_the_plans_rate() {
    use goodput_lab::core::capacity::unit_point;
    use goodput_lab::core::placement::Binds;
    use goodput_lab::view::format::sim_plan_line;
    let i = inputs("");
    let s = &i.scenario;
    let unit = unit_point(s, &i.placing()).expect("a unit");
    let swept = sweep(&i.sim.config(s));
    let line = sim_plan_line(i.rate_req_per_s, &swept, s.parallel.tp, Some(&unit));
    let (plan, sim) = (
        gpus_for(i.rate_req_per_s, unit.rate_req_per_s, unit.gpus),
        gpus_for(i.rate_req_per_s, swept.goodput_req_per_s, s.parallel.tp),
    );
    assert_ne!(plan, sim, "the worked example's plan and simulator differ at 100 req/s: {line}");
    // The worked example's replica is held by TPOT at 10 ms.
    assert_eq!(unit.binds, Binds::Tpot);
    assert!(line.contains("where its TPOT p90 meets the target"), "{line}");
    assert!(!line.contains("TTFT p90"), "{line}");
}
