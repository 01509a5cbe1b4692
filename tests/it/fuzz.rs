//! Property tests (proptest) of the edge and the core: any query string, any value under every URL
//! key, any measured file; the roofline, table, curves, derivation, texts, charts and simulator on
//! any validated state. Nothing panics, the validated state stays inside the documented ranges and
//! round-trips, and no NaN or infinity reaches the view. [`CASES`] holds each property's case count
//! (at least 100,000 in all, every plain `cargo test`, drawn from one fixed seed so a run repeats);
//! each property checks it ran that many, and `fuzz/cases.rs` holds every entry to a test that runs
//! it. `make fuzz` runs ten times as many from a fresh seed, which a failure prints with its replay.
#![cfg(not(target_arch = "wasm32"))]

mod cases;
mod energy;
mod extremes;
mod finite;
mod fleet;
mod placement;
mod regressions;
mod search;
mod spec;
mod strategies;
mod trace;

use std::fmt::Debug;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestCaseError, TestRunner};
use serde::Serialize;

use crate::common::batch_chart_svg;
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::{ChartStyle, Palette};
use goodput_lab::core::capacity::capacity_plan;
use goodput_lab::core::curves::curves_with_measured;
use goodput_lab::core::derivation::derive;
use goodput_lab::core::fit::{fit, YourPoint};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::model::prefill_attention_flop;
use goodput_lab::core::nearest::batch_at_speed;
use goodput_lab::core::parallel::system_gpus;
use goodput_lab::core::plan::CHUNK_BUDGETS;
use goodput_lab::core::presets::{CustomGpu, CustomModel, CUSTOM_ID, GPUS, MODELS};
use goodput_lab::core::roofline::{analyze, step_terms, step_time, Precision, StepMix, StepTerms};
use goodput_lab::core::scenario::context_for;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{chunk_tradeoff, sweep};
use goodput_lab::core::table::{batch_table, with_batches};
use goodput_lab::state::custom::{GPU_FIELDS, MODEL_FIELDS};
use goodput_lab::state::energy::{HOSTW, KWH, PUE};
use goodput_lab::state::fields::{
    NumberField, CTX, MBU, OUT, OVERHEAD, PRICE, PROMPT, RATE, TPOT, TTFT, UTIL,
};
use goodput_lab::state::fleet::{NEW_TOKENS, REPLICAS, THINK, TIER, TURNS};
use goodput_lab::state::lessons::LESSONS;
use goodput_lab::state::parallel;
use goodput_lab::state::prefix::{HIT, PREFIX};
use goodput_lab::state::sim::{
    ATTAIN, BURST, CAP, CHUNK, LENGTH_CV, POINTS, RATE_MAX, REQUESTS, SEED, SEEDS,
};
use goodput_lab::state::view::{View, MARK_MAX};
use goodput_lab::state::{from_page_query, measured, page_query, parse_raw, Inputs, Notice, KEYS};
use goodput_lab::view::batch_chart::BatchChart;
use goodput_lab::view::derivation_text::{general_reasons, lines};
use goodput_lab::view::export::{batch_table_csv, file_name, sim_sweep_csv, sim_table_csv};
use goodput_lab::view::format::{headline, sim_goodput, NOT_A_NUMBER};
use goodput_lab::view::share::{link_query, scenario_summary};
use strategies::{edge_scenario, hostile_query, measured_value, upload_text, valid_query};

/// Cases each property runs, by test name.
const CASES: [(&str, u32); 21] = [
    ("any_text_as_a_query_gives_a_valid_state_that_round_trips", 34_000),
    ("any_value_under_every_key_gives_a_valid_state_that_round_trips", 30_000),
    ("measured_points_from_any_text_are_valid_and_round_trip", 20_000),
    ("the_core_on_any_validated_state_shows_only_finite_numbers", 8_000),
    ("the_core_at_the_edges_of_every_range_shows_only_finite_numbers", 8_000),
    ("the_charts_draw_any_validated_state", 400),
    ("the_simulator_on_any_validated_state_gives_finite_numbers", 2_500),
    ("the_simulator_at_the_longest_lengths_gives_finite_numbers", 60),
    ("the_step_is_finite_positive_and_monotone_in_batch_and_context", 4_000),
    ("any_value_under_a_placement_key_gives_a_split_in_range_and_a_notice_exactly_when_not_taken", 20_000),
    ("placements_on_any_validated_state_are_finite_and_non_negative", 1_500),
    ("placements_at_the_edges_of_every_range_are_finite_and_non_negative", 1_500),
    ("any_value_under_a_speculation_key_gives_settings_in_range_that_round_trip_and_finite_numbers", 4_000),
    ("any_value_under_an_energy_key_gives_a_price_in_range_a_notice_exactly_when_not_taken_and_finite_figures", 3_000),
    // A whole search (every shape of every group: up to 113 shapes a group for a MoE model) per case.
    ("the_search_on_any_validated_state_gives_finite_rows_and_an_undominated_frontier", 24),
    (
        "the_fleet_on_any_small_workload_gives_finite_numbers_hits_within_prompts_and_every_arrival_routed",
        2_000,
    ),
    ("any_sequence_of_admissions_and_finishes_keeps_the_cache_within_its_capacities", 2_000),
    ("the_pages_fleet_on_any_validated_state_gives_finite_rows", 300),
    ("valid_trace_files_keep_every_invariant_and_lose_no_line", 1_500),
    ("hostile_trace_files_never_panic_and_every_error_names_its_line", 3_000),
    ("any_value_under_the_trace_key_gives_a_trace_that_round_trips_or_a_notice_and_none", 1_000),
];

/// The longest a notice may be: a value is quoted to 40 characters, so a longer one means a number
/// was printed in full (a 300-digit float).
const MAX_NOTICE_CHARS: usize = 200;

/// The seed every property draws from under `make test`: fixed, so a run is the same run each time and
/// a failure replays from its name alone. `make fuzz` passes a fresh one in `FUZZ_SEED`.
const FIXED_SEED: u64 = 20_261_207;

/// The seed and the case multiplier of this run: `FUZZ_SEED` (else [`FIXED_SEED`]) and `FUZZ_SCALE`
/// (else 1; `make fuzz` runs 10, over 1,000,000 cases in all).
fn run_settings() -> (u64, u32) {
    let read = |key: &str| std::env::var(key).ok().and_then(|v| v.trim().parse::<u64>().ok());
    let seed = read("FUZZ_SEED").unwrap_or(FIXED_SEED);
    let scale = read("FUZZ_SCALE").map_or(1, |s| s.clamp(1, 1_000) as u32);
    (seed, scale)
}

/// The runner's configuration: `cases` drawn from `seed`, nothing persisted.
fn config(cases: u32, seed: u64) -> Config {
    // XorShift: ChaCha, the default, costs more than most properties in an unoptimized test build.
    Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::XorShift,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

#[test]
fn a_seed_draws_the_same_cases_every_run_and_another_seed_other_cases() {
    let draw = |seed: u64| {
        let mut runner = TestRunner::new(config(50, seed));
        (0..50).map(|_| valid_query().new_tree(&mut runner).expect("a value").current()).collect::<Vec<_>>()
    };
    assert_eq!(draw(FIXED_SEED), draw(FIXED_SEED));
    assert_ne!(draw(FIXED_SEED), draw(FIXED_SEED + 1));
}

/// Runs `body` on `CASES[name]` (times `FUZZ_SCALE`) values of `strategy` drawn from the run's seed;
/// fails with the smallest failing value proptest finds and the command that replays it, and
/// otherwise checks the cases ran and prints how many, the seed and how long they took.
fn check<S: Strategy>(name: &str, strategy: S, body: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: Debug,
{
    let cases = CASES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c).expect("the property is in CASES");
    let (seed, scale) = run_settings();
    let cases = cases.saturating_mul(scale);
    let ran = AtomicU32::new(0);
    let mut runner = TestRunner::new(config(cases, seed));
    let start = Instant::now();
    let result = runner.run(&strategy, |value| {
        ran.fetch_add(1, Ordering::Relaxed);
        body(value)
    });
    if let Err(e) = result {
        panic!("{name} (seed {seed}; replay: FUZZ_SEED={seed} FUZZ_SCALE={scale} cargo test --test it {name}): {e}");
    }
    let ran = ran.into_inner();
    assert!(ran >= cases, "{name}: ran {ran} of {cases} cases");
    println!("fuzz {name}: {ran} cases, seed {seed}, in {:.2} s", start.elapsed().as_secs_f64());
}

/// Fails when any float anywhere in `x` is NaN or infinite.
fn all_finite(what: &str, x: &impl Serialize) -> Result<(), TestCaseError> {
    finite::check_finite(what, x).map_err(|bad| TestCaseError::fail(format!("not finite: {bad}")))
}

/// Fails when shown text spells a NaN or an infinity as Rust prints them, or holds the stand-in
/// [`NOT_A_NUMBER`] the formatters print for one.
fn readable(what: &str, text: &str) -> Result<(), TestCaseError> {
    let words = text.split(|c: char| !c.is_alphanumeric()).map(str::to_ascii_lowercase);
    let spelled = words.into_iter().any(|w| matches!(w.as_str(), "nan" | "inf" | "infinity"));
    prop_assert!(!spelled && !text.contains(NOT_A_NUMBER), "{what} shows a non-number: {text}");
    Ok(())
}

/// `base` (in `f`'s base units) lies in `f`'s range, ends included up to rounding.
fn within(f: &NumberField, base: f64, range: (f64, f64)) -> Result<(), TestCaseError> {
    let x = f.to_display(base);
    let slack = 1e-9 * range.0.abs().max(range.1.abs()).max(1.0);
    prop_assert!(
        x.is_finite() && x >= range.0 - slack && x <= range.1 + slack,
        "{}={x} outside {range:?}",
        f.key
    );
    prop_assert!(!f.whole || x.fract() == 0.0, "{}={x} is not whole", f.key);
    Ok(())
}

fn in_field(f: &NumberField, base: f64) -> Result<(), TestCaseError> {
    within(f, base, (f.min, f.max))
}

/// The model is a preset, or a custom model whose every field is in range and consistent.
fn model_in_range(i: &Inputs) -> Result<(), TestCaseError> {
    if i.scenario.model.id != CUSTOM_ID {
        prop_assert!(MODELS.contains(&i.scenario.model), "{} is not a preset", i.scenario.model.id);
        return Ok(());
    }
    let m = CustomModel::from_spec(&i.scenario.model);
    for f in &MODEL_FIELDS {
        in_field(&f.field, (f.get)(&m))?;
    }
    prop_assert!(m.active_params <= m.params && m.sliding_layers <= m.layers);
    Ok(())
}

/// The GPU is a preset, or a custom GPU whose every field is in range.
fn gpu_in_range(i: &Inputs) -> Result<(), TestCaseError> {
    if i.scenario.gpu.id != CUSTOM_ID {
        prop_assert!(GPUS.contains(&i.scenario.gpu), "{} is not a preset", i.scenario.gpu.id);
        return Ok(());
    }
    let g = CustomGpu::from_spec(&i.scenario.gpu);
    for f in &GPU_FIELDS {
        in_field(&f.field, (f.get)(&g))?;
    }
    Ok(())
}

/// The replica's degrees are ones the model and system allow: TP within the GPU's domain, EP 1 on a
/// dense model and else a divisor of TP x DP at most the routed experts, PP at most the layers,
/// TP x DP x PP within the system's GPUs, and the system, NIC and imbalance within their ranges.
fn parallel_in_range(i: &Inputs) -> Result<(), TestCaseError> {
    let s = &i.scenario;
    let (p, c) = (s.parallel, s.cluster);
    prop_assert!(parallel::tp_choices(&s.gpu).contains(&p.tp), "tp {}", p.tp);
    prop_assert!(p.ep >= 1 && p.dp >= 1 && p.pp >= 1, "{p:?}");
    prop_assert!(p.stage_gpus() % p.ep == 0, "EP must divide TP x DP: {p:?}");
    prop_assert!(p.ep <= parallel::routed_experts(&s.model).unwrap_or(1), "{p:?} on {}", s.model.name);
    prop_assert!(p.pp <= s.model.layers.max(1), "{p:?}");
    prop_assert!((1..=parallel::NODES_MAX).contains(&c.nodes), "{c:?}");
    prop_assert!(p.gpus() <= system_gpus(&s.gpu, &c), "{p:?} on {c:?}");
    in_field(&parallel::NIC, c.nic_bytes_per_s)?;
    if let Some(imbalance) = s.expert_load.imbalance {
        in_field(&parallel::IMB, imbalance)?;
    }
    Ok(())
}

/// Every validated value lies in its documented range.
fn in_ranges(i: &Inputs, v: &View) -> Result<(), TestCaseError> {
    model_in_range(i)?;
    gpu_in_range(i)?;
    prop_assert!(
        Precision::WEIGHTS.contains(&i.scenario.weight_precision)
            && Precision::KV.contains(&i.scenario.kv_precision)
    );
    parallel_in_range(i)?;
    // The prompt lies in its field up to the longest the model accepts, and the context is the
    // one rule's: prompt + output / 2, within the model's maximum.
    let prompt = i.scenario.prompt_tokens();
    within(&PROMPT, f64::from(prompt), (PROMPT.min, f64::from(i.prompt_tokens_max())))?;
    prop_assert_eq!(i.scenario.context_tokens, context_for(prompt, i.scenario.output_tokens));
    // Within the model's maximum, unless even the shortest prompt beside the output passes it.
    let floor = context_for(PROMPT.min as u32, i.scenario.output_tokens);
    prop_assert!(i.scenario.context_tokens <= i.context_tokens_max().max(floor));
    in_field(&OUT, f64::from(i.scenario.output_tokens))?;
    in_field(&TPOT, i.scenario.tpot_target_s)?;
    in_field(&TTFT, i.scenario.ttft_target_s)?;
    in_field(&UTIL, i.scenario.memory_utilization)?;
    let prefix = i.scenario.prefix;
    within(&PREFIX, f64::from(prefix.prefix_tokens), (0.0, f64::from(i.scenario.context_tokens)))?;
    in_field(&HIT, prefix.hit_rate)?;
    if let Some(c) = i.realistic() {
        in_field(&MBU, c.mbu)?;
        in_field(&OVERHEAD, c.step_overhead_s)?;
    }
    in_field(&RATE, i.rate_req_per_s)?;
    in_field(&PRICE, i.price_per_gpu_hour)?;
    in_field(&KWH, i.energy.usd_per_kwh)?;
    in_field(&PUE, i.energy.pue)?;
    in_field(&HOSTW, i.energy.host_w_per_gpu)?;
    let s = &i.sim;
    in_field(&BURST, s.burst_cv)?;
    in_field(&LENGTH_CV, s.length_cv)?;
    in_field(&REQUESTS, f64::from(s.requests))?;
    in_field(&SEED, s.seed as f64)?;
    in_field(&SEEDS, f64::from(s.seeds))?;
    in_field(&CHUNK, f64::from(s.chunk_tokens))?;
    in_field(&ATTAIN, s.attainment_target)?;
    in_field(&POINTS, f64::from(s.rate_points))?;
    in_field(&TIER, s.fleet.tier_bytes_per_gpu)?;
    in_field(&TURNS, f64::from(s.fleet.turns))?;
    in_field(&THINK, s.fleet.think_s)?;
    in_field(&NEW_TOKENS, f64::from(s.fleet.new_tokens))?;
    if let Some(n) = s.fleet.replicas {
        in_field(&REPLICAS, f64::from(n))?;
    }
    if let Some(cap) = s.cap {
        in_field(&CAP, f64::from(cap))?;
    }
    if let Some(r) = s.rate_max_req_per_s {
        in_field(&RATE_MAX, r)?;
    }
    prop_assert!(v.mark_batch.is_none_or(|b| (1..=MARK_MAX).contains(&b)));
    prop_assert!(v.lesson.is_none_or(|l| (1..=LESSONS.len() as u8).contains(&l)));
    placement::placement_in_range(&i.placement)
}

/// Each notice names a URL key and says what was used, briefly.
fn notices_are_short(notices: &[Notice]) -> Result<(), TestCaseError> {
    for n in notices {
        prop_assert!(KEYS.contains(&n.key), "notice key {}", n.key);
        let chars = n.message.chars().count();
        prop_assert!(chars > 0 && chars <= MAX_NOTICE_CHARS, "{chars} characters: {}", n.message);
    }
    Ok(())
}

/// The page's query for the state reopens the same state without a notice, and is a fixed point.
fn round_trips(i: &Inputs, v: &View) -> Result<(), TestCaseError> {
    let query = page_query(i, v);
    let (again, view, notices) = from_page_query(&query);
    prop_assert!(notices.is_empty(), "{query} gives notices {notices:?}");
    prop_assert_eq!(page_query(&again, &view), query.clone());
    prop_assert_eq!(
        (again.scenario.model.id, again.scenario.gpu.id, again.scenario.parallel.tp),
        (i.scenario.model.id, i.scenario.gpu.id, i.scenario.parallel.tp)
    );
    // The replica and its system write back exactly.
    prop_assert_eq!(
        (again.scenario.parallel, again.scenario.cluster, again.scenario.expert_load),
        (i.scenario.parallel, i.scenario.cluster, i.scenario.expert_load),
        "{}",
        query
    );
    prop_assert_eq!(
        (again.scenario.context_tokens, again.scenario.output_tokens),
        (i.scenario.context_tokens, i.scenario.output_tokens)
    );
    let close = |a: f64, b: f64, f: &NumberField| (f.to_display(a) - f.to_display(b)).abs() <= 5e-4 + 1e-9;
    prop_assert!(close(again.scenario.tpot_target_s, i.scenario.tpot_target_s, &TPOT), "{query}");
    prop_assert!(close(again.scenario.ttft_target_s, i.scenario.ttft_target_s, &TTFT), "{query}");
    prop_assert!(close(again.scenario.memory_utilization, i.scenario.memory_utilization, &UTIL), "{query}");
    prop_assert_eq!(
        again.scenario.prefix.prefix_tokens,
        i.scenario.prefix.prefix_tokens.min(i.scenario.context_tokens)
    );
    prop_assert!(close(again.scenario.prefix.hit_rate, i.scenario.prefix.hit_rate, &HIT), "{query}");
    placement::placement_round_trips(&i.placement, &again.placement)
}

/// Everything the state layer promises about a query's result.
fn validated(query: &str) -> Result<(), TestCaseError> {
    let (inputs, view, notices) = from_page_query(query);
    in_ranges(&inputs, &view)?;
    all_finite("inputs.sim", &inputs.sim.pairs())?;
    notices_are_short(&notices)?;
    round_trips(&inputs, &view)?;
    let mut more = Vec::new();
    let points = measured::read(&parse_raw(query), &mut more);
    notices_are_short(&more)?;
    measured_round_trip(&points)
}

#[test]
fn any_text_as_a_query_gives_a_valid_state_that_round_trips() {
    let text = prop_oneof![
        2 => any::<String>(),
        2 => proptest::string::string_regex("[?&=%+;#a-z_0-9.,:-]{0,120}").expect("a valid regex"),
        1 => proptest::collection::vec(any::<char>(), 0..80).prop_map(|c| c.into_iter().collect::<String>()),
    ];
    check("any_text_as_a_query_gives_a_valid_state_that_round_trips", text, |q| validated(&q));
}

#[test]
fn any_value_under_every_key_gives_a_valid_state_that_round_trips() {
    check("any_value_under_every_key_gives_a_valid_state_that_round_trips", hostile_query(), |q| {
        validated(&q)
    });
}

/// Measured points are valid, and their URL form reads back to the same points without a notice.
fn measured_round_trip(points: &[YourPoint]) -> Result<(), TestCaseError> {
    prop_assert!(points.len() <= measured::MAX_POINTS);
    for p in points {
        prop_assert!((1..=measured::MAX_BATCH).contains(&p.batch), "{p:?}");
        prop_assert!(p.tpot_s.is_finite() && p.tpot_s > 0.0, "{p:?}");
    }
    let query = measured::with_measured(String::new(), points);
    let mut notices = Vec::new();
    let again = measured::read(&parse_raw(&query), &mut notices);
    prop_assert!(notices.is_empty(), "{query} gives {notices:?}");
    prop_assert_eq!(again.len(), points.len(), "{}", query);
    prop_assert_eq!(measured::encode(&again), measured::encode(points));
    Ok(())
}

#[test]
fn measured_points_from_any_text_are_valid_and_round_trip() {
    let input = (measured_value(), upload_text());
    check("measured_points_from_any_text_are_valid_and_round_trip", input, |(value, upload)| {
        let mut notices = Vec::new();
        let query = serde_urlencoded::to_string([("measured", &value)]).unwrap_or_default();
        let points = measured::read(&parse_raw(&query), &mut notices);
        notices_are_short(&notices)?;
        measured_round_trip(&points)?;
        match measured::parse_upload(&upload) {
            Ok(u) => {
                for remark in &u.remarks {
                    prop_assert!(remark.chars().count() <= MAX_NOTICE_CHARS, "{remark}");
                }
                measured_round_trip(&u.points)
            }
            Err(message) => {
                let chars = message.chars().count();
                prop_assert!(chars > 0 && chars <= MAX_NOTICE_CHARS, "{message}");
                Ok(())
            }
        }
    });
}

/// The core on `inputs`: analysis, table rows (and the marked batch), the fit and curves, the
/// derivation, the capacity plan and every text the page prints from them are finite and readable.
fn core_is_finite(inputs: &Inputs, view: &View, points: &[YourPoint]) -> Result<(), TestCaseError> {
    let s = inputs.scenario;
    let a = analyze(&s);
    all_finite("analysis", &a)?;
    let mark: Vec<u32> = view.mark_batch.into_iter().collect();
    let rows = with_batches(&batch_table(&s, &a), &s, &a, &mark);
    all_finite("rows", &rows)?;
    let fitted = fit(&s, points).ok();
    all_finite("fit", &fitted)?;
    let c = curves_with_measured(&s, &a, points, fitted.as_ref());
    all_finite("curves", &c)?;
    let d = derive(&s, &a);
    all_finite("derivation", &d)?;
    let plan = capacity_plan(
        &s,
        &inputs.placing(),
        inputs.rate_req_per_s,
        inputs.usd_per_gpu_hour(),
        &inputs.energy,
    );
    all_finite("plan", &plan)?;
    let speed = c.ladder.first().map_or(1.0, |p| p.tokens_per_s_per_user);
    prop_assert!(batch_at_speed(&s, speed * 0.5, a.kv_pool_batch) >= 1);
    readable("headline", &headline(&s, &a))?;
    for l in lines(&s, &d) {
        readable(&l.id, &format!("{} {} {} {} {}", l.label, l.formula, l.numbers, l.result, l.note))?;
    }
    readable("reasons", &general_reasons(&d).join(" "))?;
    readable("summary", &scenario_summary(inputs))?;
    readable(
        "csv",
        &batch_table_csv(
            &rows,
            inputs.scenario.parallel.tp > 1,
            inputs.scenario.prefix.active(),
            (&s, &inputs.energy),
        ),
    )?;
    readable("file name", &file_name(inputs, "step", "svg"))?;
    readable("link", &link_query(inputs, view, points))
}

#[test]
fn the_core_on_any_validated_state_shows_only_finite_numbers() {
    check("the_core_on_any_validated_state_shows_only_finite_numbers", valid_query(), |q| {
        let (inputs, view, _) = from_page_query(&q);
        let points = measured::read(&parse_raw(&q), &mut Vec::new());
        core_is_finite(&inputs, &view, &points)
    });
}

/// The inputs a scenario comes from, with the default capacity plan and simulator.
fn inputs_of(s: &Scenario) -> Inputs {
    let mut inputs = Inputs { scenario: *s, ..Inputs::default() };
    match s.calibration {
        goodput_lab::core::roofline::CostModel::Measured(engine) => inputs.set_measured(engine),
        other => inputs.set_realistic(other.custom()),
    }
    inputs
}

#[test]
fn the_core_at_the_edges_of_every_range_shows_only_finite_numbers() {
    let mark = prop_oneof![Just(None), Just(Some(1)), Just(Some(MARK_MAX)), (1..=MARK_MAX).prop_map(Some)];
    let input = (edge_scenario(), mark, measured_value());
    check("the_core_at_the_edges_of_every_range_shows_only_finite_numbers", input, |(s, mark, m)| {
        let points = measured::read(&parse_raw(&format!("measured={m}")), &mut Vec::new());
        core_is_finite(&inputs_of(&s), &View { mark_batch: mark, ..View::default() }, &points)
    });
}

#[test]
fn the_charts_draw_any_validated_state() {
    let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0, layer: goodput_lab::chart::Layer::Whole };
    check("the_charts_draw_any_validated_state", valid_query(), |q| {
        let (inputs, view, _) = from_page_query(&q);
        let points = measured::read(&parse_raw(&q), &mut Vec::new());
        let s = inputs.scenario;
        let a = analyze(&s);
        let c = curves_with_measured(&s, &a, &points, fit(&s, &points).ok().as_ref());
        let mark = view.mark_batch.map(|b| evaluate(&s, b));
        let mut svgs = String::new();
        for kind in BatchChart::ALL {
            let (svg, drawn) =
                batch_chart_svg(&BatchDraw::new(kind, &c, &style).marked(mark.as_ref()), (640, 360));
            prop_assert!(drawn.is_ok(), "{kind:?} chart: {:?}", drawn.err());
            svgs.push_str(&svg);
        }
        readable("svg", &svgs)
    });
}

/// One sweep and two chunk budgets of `requests` requests on `inputs`' state: every number finite.
fn simulation_is_finite(inputs: &Inputs, requests: u32, points: u32) -> Result<(), TestCaseError> {
    let s = inputs.scenario;
    let c = goodput_lab::core::sim::SimConfig { requests, rate_points: points, ..inputs.sim.config(&s) };
    all_finite("config", &c)?;
    let result = sweep(&c);
    all_finite("sweep", &result)?;
    readable("goodput", &sim_goodput(&result))?;
    readable("sim csv", &sim_table_csv(&result.points, c.load, c.counting))?;
    readable("sim sweep csv", &sim_sweep_csv(&result, c.load, c.counting))?;
    readable("goodput range", &goodput_lab::view::format::sim_goodput_range(&result))?;
    let level = result.at_goodput.map_or(c.rate_max_req_per_s / 4.0, |p| p.rate_req_per_s / 2.0);
    let chunks = chunk_tradeoff(&c, level, &[CHUNK_BUDGETS[0], CHUNK_BUDGETS[CHUNK_BUDGETS.len() - 1]]);
    all_finite("chunks", &chunks)
}

#[test]
fn the_simulator_on_any_validated_state_gives_finite_numbers() {
    let input = (valid_query(), 1u32..=6, 2u32..=4, 128u32..=8192, 1u32..=256);
    check(
        "the_simulator_on_any_validated_state_gives_finite_numbers",
        input,
        |(q, requests, points, ctx, out)| {
            let (inputs, _, _) = from_page_query(&q);
            let context_tokens = ctx.min(inputs.context_tokens_max());
            let scenario = Scenario { context_tokens, output_tokens: out, ..inputs.scenario };
            let inputs = Inputs { scenario, ..inputs };
            simulation_is_finite(&inputs, requests, points)
        },
    );
}

#[test]
fn the_simulator_at_the_longest_lengths_gives_finite_numbers() {
    let lengths = (
        prop_oneof![Just(CTX.max as u32), 128u32..=1_048_576],
        prop_oneof![Just(OUT.max as u32), 1u32..=16_384],
    );
    let input = (valid_query(), lengths);
    check("the_simulator_at_the_longest_lengths_gives_finite_numbers", input, |(q, (ctx, out))| {
        let (inputs, _, _) = from_page_query(&q);
        let context_tokens = ctx.min(inputs.context_tokens_max());
        let scenario = Scenario { context_tokens, output_tokens: out, ..inputs.scenario };
        let inputs = Inputs { scenario, ..inputs };
        simulation_is_finite(&inputs, 2, 2)
    });
}

/// The per-operator step of `b` decodes holding `ctx` tokens each and a `p`-token prompt chunk after
/// `done` prompt tokens, in s.
fn mixed_step(s: &Scenario, b: u32, ctx: u32, p: u32, done: u32) -> StepTerms {
    let m = &s.model;
    let mix = StepMix {
        decode_seqs: f64::from(b),
        decode_kv_tokens: f64::from(b) * f64::from(ctx),
        prefill_tokens: f64::from(p),
        prefill_kv_tokens: f64::from(done),
        prefill_attention_flop: prefill_attention_flop(m, done + p) - prefill_attention_flop(m, done),
        ..StepMix::default()
    };
    step_terms(s, &mix)
}

/// `later` is not below `earlier` beyond rounding (a sliding layer's capped KV can round an ulp).
fn not_below(later: f64, earlier: f64, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(later >= earlier * (1.0 - 1e-12), "{what}: {later} < {earlier}");
    Ok(())
}

/// As [`not_below`] for two mixes' steps run as the same number of pipeline microbatches. Under PP a
/// step is one microbatch's trip through the stages, step(B / m) with m = min(PP, sequences), so one
/// more sequence below PP adds a microbatch and may shorten the trip (src/core/roofline/step/split.rs).
fn not_below_at_same_microbatches(
    later: &StepTerms,
    earlier: &StepTerms,
    what: &str,
) -> Result<(), TestCaseError> {
    if later.microbatches != earlier.microbatches {
        return Ok(());
    }
    not_below(later.step_s, earlier.step_s, what)
}

#[test]
fn the_step_is_finite_positive_and_monotone_in_batch_and_context() {
    let input = (valid_query(), 0_u32..=4096, 0_u32..=131_072, 0_u32..=8192, 0_u32..=131_072);
    check("the_step_is_finite_positive_and_monotone_in_batch_and_context", input, |(q, b, ctx, p, done)| {
        let s = from_page_query(&q).0.scenario;
        let t = mixed_step(&s, b, ctx, p, done);
        prop_assert!(
            t.step_s.is_finite() && t.step_s > 0.0,
            "step {t:?} for {b} decodes at {ctx}, {p} prompt tokens"
        );
        not_below_at_same_microbatches(&mixed_step(&s, b + 1, ctx, p, done), &t, "one more decode")?;
        not_below_at_same_microbatches(&mixed_step(&s, b, ctx + 1, p, done), &t, "a longer context")?;
        not_below_at_same_microbatches(&mixed_step(&s, b, ctx, p + 1, done), &t, "one more prompt token")?;
        not_below_at_same_microbatches(&mixed_step(&s, b, ctx, p, done + 1), &t, "a later chunk")?;
        let decode = step_time(&s, b).step_s;
        prop_assert!(decode.is_finite() && decode > 0.0, "step({b}) = {decode}");
        // The decode step's microbatches: min(PP, B), at least 1.
        let pp = f64::from(s.parallel.pp.max(1));
        if f64::from(b).clamp(1.0, pp) == f64::from(b + 1).clamp(1.0, pp) {
            not_below(step_time(&s, b + 1).step_s, decode, "step(B + 1)")?;
        }
        let longer = Scenario { context_tokens: s.context_tokens + 1, ..s };
        not_below(step_time(&longer, b).step_s, decode, "step(B) at one more token of context")
    });
}
