//! The energy model (`core::energy`) against arithmetic written out here: a step's power between
//! idle and board by how busy it keeps the GPU, joules per output token, tokens/s per MW and the
//! energy's $ per million tokens; the worked example's knee on H100; every GPU preset's power and its
//! source; the J/token column of the batch table and its CSV; the capacity plan's power and cost;
//! the search's J/token and its sort; the `kwh`, `pue` and `hostw` keys.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::capacity::{capacity_plan, Placing};
use goodput_lab::core::energy::{batch_energy, gpu_power_w, EnergyPrice};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::{Percentile, PlacementMode, Split};
use goodput_lab::core::precision::Precision;
use goodput_lab::core::presets::{gpu_by_id, CustomGpu, GPUS, GPU_PRICES};
use goodput_lab::core::search::{row_for, Config, Layout, SearchSpec};
use goodput_lab::state::search::{Filters, SortKey};
use goodput_lab::state::{from_query, to_query, Inputs};
use goodput_lab::view::export::table_csv;
use goodput_lab::view::format::search::shown;

/// The worked example's step at batch B on H100 SXM, by hand: (weights + B x KV(2,048)) / 3.35 TB/s,
/// with 16.06 GB of BF16 weights and 2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B per token.
fn worked_step_s(batch: f64) -> f64 {
    (16.06e9 + batch * 2048.0 * 131_072.0) / 3.35e12
}

/// J per kWh.
const J_PER_KWH: f64 = 3_600_000.0;

#[test]
fn a_gpu_draws_idle_plus_the_busy_share_of_board_minus_idle_and_no_more_than_board() {
    let h100 = gpu_by_id("h100-sxm").unwrap();
    // H100 SXM: 700 W board, 15% of it idle = 105 W; a quarter busy: 105 + 595 / 4.
    assert_eq!((h100.board_power_w, h100.idle_power_w), (700.0, 105.0));
    assert_close(gpu_power_w(h100, 0.25), 105.0 + 595.0 * 0.25, 1e-12, "a quarter busy");
    assert_close(gpu_power_w(h100, 0.0), 105.0, 1e-12, "idle");
    assert_close(gpu_power_w(h100, 1.0), 700.0, 1e-12, "busy");
    assert_close(gpu_power_w(h100, 7.0), 700.0, 1e-12, "u above 1 is board power");
    assert_close(gpu_power_w(h100, -1.0), 105.0, 1e-12, "u below 0 is idle");
}

#[test]
fn the_worked_example_knee_on_h100_costs_0_109_joules_per_token_at_board_power() {
    let s = worked_example();
    let knee = evaluate(&s, 64);
    let e = batch_energy(&s, &knee, &EnergyPrice::DEFAULT);
    // Every group memory-bound, no fixed cost: the GPU is busy the whole step, so it draws 700 W.
    assert_close(e.utilization, 1.0, 1e-12, "utilization at the knee");
    let step = worked_step_s(64.0);
    let j_per_token = 700.0 * 1.0 * step / 64.0;
    assert_close(e.energy_j_per_token, j_per_token, 1e-9, "J/token at the knee");
    assert!((0.1085..0.1086).contains(&e.energy_j_per_token), "{}", e.energy_j_per_token);
    assert_close(e.tokens_per_s_per_mw, 1e6 / j_per_token, 1e-9, "tokens/s per MW");
    assert_close(e.energy_usd_per_million_tokens, j_per_token * 1e6 / J_PER_KWH * 0.08, 1e-9, "$/Mtok");
    assert_close(e.power_w, 700.0, 1e-12, "one GPU at board power");
}

#[test]
fn a_fixed_overhead_is_idle_time_that_lowers_the_power() {
    let s = from_query("calib=custom&mbu=100&overhead=2").0.scenario;
    let point = evaluate(&s, 64);
    let e = batch_energy(&s, &point, &EnergyPrice::DEFAULT);
    // Reads take the worked example's step; the 2 ms overhead adds time at which nothing is read.
    let (memory, step) = (worked_step_s(64.0), worked_step_s(64.0) + 0.002);
    assert_close(point.step.step_s, step, 1e-9, "the step with its overhead");
    let u = memory / step;
    assert_close(e.utilization, u, 1e-9, "memory time over step time");
    let power = 105.0 + (700.0 - 105.0) * u;
    assert_close(e.gpu_power_w, power, 1e-9, "power between idle and board");
    assert_close(e.energy_j_per_token, power * step / 64.0, 1e-9, "J/token");
}

#[test]
fn host_power_and_pue_multiply_into_every_energy_figure() {
    let s = worked_example();
    let knee = evaluate(&s, 64);
    let energy = EnergyPrice { usd_per_kwh: 0.12, pue: 1.3, host_w_per_gpu: 150.0 };
    let e = batch_energy(&s, &knee, &energy);
    let j_per_token = (700.0 + 150.0) * 1.3 * worked_step_s(64.0) / 64.0;
    assert_close(e.energy_j_per_token, j_per_token, 1e-9, "J/token with host and PUE");
    assert_close(e.energy_usd_per_million_tokens, j_per_token * 1e6 / J_PER_KWH * 0.12, 1e-9, "$/Mtok");
    assert_close(e.energy_usd_per_hour, (700.0 + 150.0) * 1.3 / 1000.0 * 0.12, 1e-9, "$/h");
    assert!(!energy.board_only() && EnergyPrice::DEFAULT.board_only());
}

#[test]
fn tensor_parallelism_counts_every_gpu_of_the_replica() {
    let s = from_query("model=llama-3.1-70b&tp=4").0.scenario;
    let point = evaluate(&s, 32);
    let e = batch_energy(&s, &point, &EnergyPrice::DEFAULT);
    let t = point.step.terms;
    // The all-reduces are time at which no group reads or computes.
    let memory = t.gemm.memory_s + t.decode_attention.memory_s + t.prefill_attention.memory_s;
    let compute = t.gemm.compute_s + t.decode_attention.compute_s + t.prefill_attention.compute_s;
    let u = memory.max(compute) / point.step.step_s;
    assert!(u < 1.0, "the all-reduces leave the GPUs idle part of the step: {u}");
    let power = 105.0 + 595.0 * u;
    assert_close(e.energy_j_per_token, power * 4.0 * point.step.step_s / 32.0, 1e-9, "J/token over 4 GPUs");
}

/// `x` with thousands commas, as the sources write watts (`1,000`).
fn with_commas(x: f64) -> String {
    let digits = format!("{x:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn every_gpu_preset_idles_below_its_board_power_and_its_source_states_both() {
    for g in GPUS {
        assert!(g.idle_power_w > 0.0 && g.idle_power_w < g.board_power_w, "{}: idle < board", g.id);
        let board = format!("{} W", with_commas(g.board_power_w));
        assert!(
            g.source.contains("Power: ") && g.source.contains(&board),
            "{}: {board} in {}",
            g.id,
            g.source
        );
        assert!(g.source.contains("idle 15% of board"), "{}: the idle rule in its source", g.id);
        assert!(g.host_link_bytes_per_s >= 32e9, "{}: a host link", g.id);
        let per_direction = format!("{} GB/s per direction", with_commas(g.host_link_bytes_per_s / 1e9));
        assert!(g.source.contains(&per_direction), "{}: {per_direction} in its source", g.id);
    }
    for id in ["gb200", "gb300"] {
        assert_eq!(gpu_by_id(id).unwrap().host_link_bytes_per_s, 450e9, "{id}: Grace C2C 900 GB/s / 2");
    }
}

#[test]
fn a_custom_gpu_takes_the_stated_default_power_and_host_link() {
    let custom = CustomGpu::from_spec(gpu_by_id("l4").unwrap()).to_spec();
    assert_eq!((custom.board_power_w, custom.idle_power_w), (700.0, 105.0));
    assert_eq!(custom.host_link_bytes_per_s, 64e9);
    assert!(custom.source.contains("700 W") && custom.source.contains("64 GB/s"), "{}", custom.source);
}

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

#[test]
fn the_capacity_plan_draws_its_gpus_board_power_and_adds_the_energy_to_its_cost() {
    let s = worked_example();
    let free = capacity_plan(&s, &PLACING, 100.0, 2.5, &EnergyPrice::FREE).expect("a plan");
    let priced = capacity_plan(&s, &PLACING, 100.0, 2.5, &EnergyPrice::DEFAULT).expect("a plan");
    assert_eq!(free.gpus, priced.gpus, "power does not change the GPUs");
    // On the ideal roofline the decode step is all reads: every GPU at 700 W.
    let watts = f64::from(priced.gpus) * 700.0;
    assert_close(priced.energy.power_w, watts, 1e-9, "the plan's power");
    let tokens_per_s = 100.0 * 256.0;
    assert_close(priced.energy.energy_j_per_token, watts / tokens_per_s, 1e-9, "J/token at the load");
    let energy_mtok = watts / 1000.0 * 0.08 / (tokens_per_s * 3600.0) * 1e6;
    assert_close(priced.energy.energy_usd_per_million_tokens, energy_mtok, 1e-9, "energy $/Mtok");
    let gpu_mtok = f64::from(priced.gpus) * 2.5 / (tokens_per_s * 3600.0) * 1e6;
    assert_close(free.cost_per_million_tokens, gpu_mtok, 1e-12, "free power: GPU-hours alone");
    assert_close(priced.cost_per_million_tokens, gpu_mtok + energy_mtok, 1e-12, "GPU-hours plus energy");
    let pue = EnergyPrice { pue: 1.5, host_w_per_gpu: 100.0, ..EnergyPrice::DEFAULT };
    let facility = capacity_plan(&s, &PLACING, 100.0, 2.5, &pue).unwrap();
    assert_close(facility.energy.power_w, f64::from(priced.gpus) * 800.0 * 1.5, 1e-9, "with host and PUE");
}

#[test]
fn the_batch_table_csv_prints_joules_per_token_and_follows_pue() {
    let parse = |csv: &str| -> Vec<Vec<String>> {
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let h = r.headers().unwrap().iter().map(String::from).collect();
        std::iter::once(h).chain(r.records().map(|x| x.unwrap().iter().map(String::from).collect())).collect()
    };
    let at = |inputs: &Inputs, batch: &str| {
        let table = parse(&table_csv(inputs));
        let column = table[0].iter().position(|h| h == "Energy (J/token)").expect("the J/token column");
        table.iter().find(|r| r[0] == batch).expect("the row")[column].clone()
    };
    let j = 700.0 * worked_step_s(64.0) / 64.0;
    assert_eq!(at(&Inputs::default(), "64"), format!("{j:.3}"), "0.109 J/token at the knee");
    let j1 = 700.0 * worked_step_s(1.0);
    assert_eq!(at(&Inputs::default(), "1"), format!("{j1:.2}"), "batch 1 pays the weights alone");
    let (with_pue, notices) = from_query("pue=1.5&hostw=100");
    assert!(notices.is_empty(), "{notices:?}");
    let j = 800.0 * 1.5 * worked_step_s(64.0) / 64.0;
    assert_eq!(at(&with_pue, "64"), format!("{j:.3}"));
}

/// The search's spec on the worked example, its rows priced at the default power price.
fn spec() -> SearchSpec {
    SearchSpec {
        scenario: worked_example(),
        chunk_tokens: 512,
        load_req_per_s: 100.0,
        usd_per_gpu_hour: GPU_PRICES.map(|p| p.usd_per_gpu_hour),
        link_bytes_per_s: None,
        percentile: Percentile::P90_FIXED,
        energy: EnergyPrice::DEFAULT,
    }
}

#[test]
fn the_search_prices_each_row_s_energy_and_sorts_by_joules_per_token() {
    let spec = spec();
    let rows: Vec<_> = (0..GPUS.len() as u8)
        .filter_map(|gpu_index| {
            let layout = Layout::Colocated { parallel: Parallelism::tp(1) };
            let config = Config {
                gpu_index,
                weight_precision: Precision::Bf16,
                kv_precision: Precision::Bf16,
                layout,
            };
            row_for(&spec, &config)
        })
        .collect();
    assert!(rows.len() >= 5, "{} GPUs run the worked example alone", rows.len());
    let h100 = rows.iter().find(|r| r.config.gpu_index == 0).expect("the H100 row");
    // Ideal roofline: the decode step is all reads, so the load's GPUs draw 700 W each.
    let j = f64::from(h100.gpus_for_load) * 700.0 / (100.0 * 256.0);
    assert_close(h100.energy_j_per_token, j, 1e-9, "the H100 row's J/token");
    let order = shown(&rows, &Filters::default(), SortKey::EnergyPerToken);
    assert_eq!(order.len(), rows.len());
    let joules: Vec<f64> = order.iter().map(|&i| rows[i].energy_j_per_token).collect();
    assert!(joules.windows(2).all(|w| w[0] <= w[1]), "fewest J/token first: {joules:?}");
    assert!(joules[0] < joules[joules.len() - 1], "the rows differ: {joules:?}");
    let by_cost = shown(&rows, &Filters::default(), SortKey::GoodputPerGpu);
    assert_ne!(order, by_cost, "the energy order is its own");
}

#[test]
fn the_energy_keys_are_written_off_their_defaults_and_read_back() {
    assert!(!to_query(&Inputs::default()).contains("kwh"), "{}", to_query(&Inputs::default()));
    let (inputs, notices) = from_query("kwh=0.125&pue=1.25&hostw=150");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.energy, EnergyPrice { usd_per_kwh: 0.125, pue: 1.25, host_w_per_gpu: 150.0 });
    let query = to_query(&inputs);
    assert!(query.contains("kwh=0.125&pue=1.25&hostw=150"), "{query}");
    assert_eq!(from_query(&query).0, inputs);
}

#[test]
fn a_bad_energy_value_falls_back_or_clamps_with_a_notice_naming_its_key() {
    let (inputs, notices) = from_query("kwh=cheap&pue=0.5&hostw=-3");
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["kwh", "pue", "hostw"], "{notices:?}");
    assert_eq!(inputs.energy, EnergyPrice { usd_per_kwh: 0.08, pue: 1.0, host_w_per_gpu: 0.0 });
    let (high, notices) = from_query("kwh=1e9&pue=9&hostw=1e300");
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert_eq!(high.energy, EnergyPrice { usd_per_kwh: 10.0, pue: 3.0, host_w_per_gpu: 5000.0 });
}
