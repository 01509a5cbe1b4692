//! Exports: the batch table as CSV carries the worked example's printed values under unit-bearing headers and
//! reads back through a CSV parser; the simulator's table likewise; file names say the scenario.

use crate::common::worked_example;
use goodput_lab::core::energy::EnergyPrice;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::model_by_id;
use goodput_lab::core::roofline::{analyze, CustomCalibration, Precision};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{sweep, SimConfig};
use goodput_lab::core::sim::{Attainment, Counting, LoadMode, Percentiles, RatePoint};
use goodput_lab::core::table::batch_table;
use goodput_lab::state::sim::SimInputs;
use goodput_lab::state::{from_query, Inputs};
use goodput_lab::view::export::{
    batch_table_csv, file_name, seed_range_cell, sim_sweep_csv, sim_table_csv, table_csv,
};

/// The CSV parsed back: header, then rows of cells.
fn parse(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect();
    (header, rows)
}

#[test]
fn the_worked_example_table_exports_with_its_printed_values_and_units() {
    let s = worked_example();
    let (header, rows) =
        parse(&batch_table_csv(&batch_table(&s, &analyze(&s)), false, false, (&s, &EnergyPrice::DEFAULT)));
    assert_eq!(
        header,
        [
            "Batch (sequences)",
            "Step time (ms)",
            "Throughput (tokens/s)",
            "Meets TPOT target (yes/no)",
            "Goodput (req/s)",
            "TTFT (ms)",
            "Meets TTFT target (yes/no)",
            "Weights read (GB/GPU)",
            "Energy (J/token)",
            "Note"
        ]
    );
    let batches: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(batches, ["1", "16", "32", "64", "96", "128", "208"]);
    // The worked example's table, to the printed digit.
    let worked_example_rows = [
        ["16", "6.08", "2,633", "yes", "10.3"],
        ["32", "7.36", "4,349", "yes", "17.0"],
        ["64", "9.92", "6,450", "yes", "25.2"],
        ["96", "12.49", "7,688", "no", "0"],
        ["128", "15.05", "8,505", "no", "0"],
    ];
    for want in worked_example_rows {
        let row = rows.iter().find(|r| r[0] == want[0]).unwrap();
        assert_eq!(&row[..5], want);
        assert_eq!(row[7], "16.06", "weights read per step");
    }
    let knee = rows.iter().find(|r| r[0] == "64").unwrap();
    assert_eq!(knee[9], "knee: largest batch meeting both targets");
}

#[test]
fn commas_inside_values_are_quoted_and_lines_end_in_crlf() {
    let s = worked_example();
    let csv = batch_table_csv(&batch_table(&s, &analyze(&s)), false, false, (&s, &EnergyPrice::DEFAULT));
    assert!(csv.contains("128,15.05,\"8,505\",no,0,"), "{csv}");
    assert!(csv.ends_with("\r\n") && csv.lines().count() == 8);
}

#[test]
fn tensor_parallel_tables_add_the_per_gpu_columns() {
    let s = from_query("model=llama-3.1-70b&tp=4").0.scenario;
    let (header, rows) =
        parse(&batch_table_csv(&batch_table(&s, &analyze(&s)), true, false, (&s, &EnergyPrice::DEFAULT)));
    assert_eq!(header.len(), 12);
    assert_eq!(header[8..10], ["Throughput per GPU (tokens/s/GPU)", "Goodput per GPU (req/s/GPU)"]);
    assert!(rows.iter().all(|r| r.len() == 12));
    let tokens = |t: &str| t.replace(',', "").parse::<f64>().unwrap();
    for r in &rows {
        let per_gpu = tokens(&r[8]);
        assert!((tokens(&r[2]) / 4.0 - per_gpu).abs() <= 1.0, "per-GPU tokens/s is a quarter: {r:?}");
    }
}

#[test]
fn the_simulators_table_exports_its_printed_cells() {
    let point = RatePoint {
        rate_req_per_s: 12.5,
        requests: Attainment { both: 0.975, ttft: 1.0, tpot: 0.975 },
        ttft: Percentiles { p50_s: Some(0.0402), p90_s: Some(0.0611), p99_s: None },
        tpot: Percentiles { p50_s: Some(0.00912), p90_s: None, p99_s: None },
        throughput_tokens_per_s: 3201.4,
        ..RatePoint::default()
    };
    let (header, rows) = parse(&sim_table_csv(&[point], LoadMode::Open, Counting::Requests));
    assert_eq!(header[0], "Offered rate (req/s)");
    assert_eq!(header[1], "Both targets (%)");
    assert_eq!(
        rows,
        [["12.5", "97.5%", "97.5%", "100.0%", "97.5%", "40.20", "61.10", "9.12", "—", "3,201", "steady"]]
    );
    assert_eq!(header[2], "Both targets, lowest to highest seed (%)");
    assert_eq!(header[10], "Steady state");
    let over = RatePoint { overloaded: true, ..point };
    let (_, rows) = parse(&sim_table_csv(&[over], LoadMode::Open, Counting::Requests));
    assert_eq!(rows[0][10], "overloaded: the queue grows");
    let closed = RatePoint { concurrency: 32, ..point };
    let (header, rows) = parse(&sim_table_csv(&[closed], LoadMode::Closed, Counting::Tokens));
    assert_eq!(
        (header[0].as_str(), header[1].as_str()),
        ("Clients → achieved rate (req/s)", "Both targets (by tokens) (%)")
    );
    assert_eq!(rows[0][0], "32 → 12.5");
}

#[test]
fn the_simulators_csv_gives_each_levels_range_over_seeds() {
    let c = SimConfig { requests: 300, seeds: 3, ..SimInputs::default().config(&Inputs::default().scenario) };
    let sw = sweep(&c);
    let (_, rows) = parse(&sim_sweep_csv(&sw, LoadMode::Open, Counting::Requests));
    assert_eq!(rows.len(), sw.points.len());
    for (row, (p, b)) in rows.iter().zip(sw.points.iter().zip(&sw.bands)) {
        assert_eq!(row[1], goodput_lab::view::format::percent(p.requests.both));
        assert_eq!(row[2], seed_range_cell(b.requests.0.both, b.requests.1.both));
        assert_eq!(row[10], if p.overloaded { "overloaded: the queue grows" } else { "steady" });
    }
}

#[test]
fn the_worked_examples_file_name_says_model_gpu_kv_context_and_target() {
    let name = file_name(&Inputs::default(), "step", "svg");
    assert_eq!(name, "goodput-lab_llama-3.1-8b_h100-sxm_bf16-kv_ctx2048_tpot10ms_step.svg");
    assert_eq!(
        file_name(&Inputs::default(), "table", "csv"),
        "goodput-lab_llama-3.1-8b_h100-sxm_bf16-kv_ctx2048_tpot10ms_table.csv"
    );
}

#[test]
fn file_names_follow_every_part_of_the_scenario() {
    let scenario = Scenario {
        model: *model_by_id("qwen3-30b-a3b").unwrap(),
        parallel: Parallelism::tp(2),
        weight_precision: Precision::Fp8,
        kv_precision: Precision::Fp8,
        context_tokens: 8192,
        tpot_target_s: 0.0075,
        ..Inputs::default().scenario
    };
    let realistic = Some(CustomCalibration { mbu: 0.72, step_overhead_s: 1.5e-3 });
    let inputs = Inputs { scenario, ..Inputs::default() }.with_realistic(realistic);
    assert_eq!(
        file_name(&inputs, "rate", "png"),
        "goodput-lab_qwen3-30b-a3b_h100-sxm_tp2_fp8-w_fp8-kv_ctx8192_tpot7.5ms_mbu72-overhead1.5ms_rate.png"
    );
    let custom = from_query("model=custom&gpu=custom").0;
    assert!(file_name(&custom, "step", "svg").starts_with("goodput-lab_custom_custom_"));
    let odd = file_name(&Inputs::default(), "Sim table/1", "C S V");
    assert!(odd.ends_with("_sim-table-1.c-s-v"), "{odd}");
    assert!(odd.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)), "{odd}");
}

#[test]
fn the_table_button_exports_the_rows_the_page_shows_with_per_gpu_columns_under_tp() {
    for query in ["", "tp=2&model=llama-3.1-70b", "kv=fp8&tpot=20"] {
        let (inputs, _) = from_query(query);
        let s = inputs.scenario;
        assert_eq!(
            table_csv(&inputs),
            batch_table_csv(
                &batch_table(&s, &analyze(&s)),
                s.parallel.tp > 1,
                s.prefix.active(),
                (&s, &inputs.energy)
            ),
            "{query}"
        );
    }
    let (tp2, _) = from_query("tp=2&model=llama-3.1-70b");
    assert!(parse(&table_csv(&tp2)).0.iter().any(|h| h.contains("per GPU")), "per-GPU columns under TP");
}

#[test]
fn with_a_prefix_cache_the_csvs_ttft_header_says_mean_and_its_cells_are_the_mean() {
    let (inputs, _) = from_query("prefix=1024&hit=50");
    let s = inputs.scenario;
    let (header, rows) = parse(&table_csv(&inputs));
    assert_eq!(header[5], "TTFT, mean (ms)", "the page's column says mean: so does the CSV");
    let knee = rows.iter().find(|r| r[0] == "64").expect("the knee's row");
    let step_s = goodput_lab::core::roofline::step_time(&s, 64).step_s;
    let mean_s = goodput_lab::core::prefill::ttft_split(&s, step_s).mean_s;
    assert_eq!(knee[5], goodput_lab::view::format::ms(mean_s), "h x hit + (1 - h) x miss, as printed");
    // Without a prefix cache the one TTFT keeps its plain header.
    assert_eq!(parse(&table_csv(&from_query("").0)).0[5], "TTFT (ms)");
}
