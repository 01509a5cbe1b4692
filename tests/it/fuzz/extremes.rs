//! Extreme values in a link: context 1 and 10,000,000 tokens, a TPOT target of 0, 0 output tokens,
//! a model larger than every GPU, HBM smaller than the weights. Each gives a notice naming the key
//! and the range it was clamped to, or a headline that says what does not fit and by how much; and
//! past it a state the core computes with finite numbers, no NaN and no blank.

use goodput_lab::core::derivation::derive;
use goodput_lab::core::presets::GPUS;
use goodput_lab::core::roofline::{analyze, Limit, TP_CHOICES};
use goodput_lab::core::table::batch_table;
use goodput_lab::state::{from_page_query, Inputs, Notice};
use goodput_lab::view::derivation_text::lines;
use goodput_lab::view::format::{headline, sim_analytic};

use super::{core_is_finite, simulation_is_finite};

/// The state a link opens, its notices and the headline over it; fails unless the core shows only
/// finite numbers on it and the simulator (a few requests) does too.
fn open(query: &str) -> (Inputs, Vec<Notice>, String) {
    let (inputs, view, notices) = from_page_query(query);
    core_is_finite(&inputs, &view, &[]).unwrap_or_else(|e| panic!("{query}: {e}"));
    simulation_is_finite(&inputs, 4, 2).unwrap_or_else(|e| panic!("{query}: {e}"));
    let s = inputs.scenario;
    let line = headline(&s, &analyze(&s));
    assert!(!line.trim().is_empty(), "{query}: blank headline");
    (inputs, notices, line)
}

/// The one notice of a link, which must be about `key`.
fn only_notice(notices: &[Notice], key: &str) -> String {
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].key, key);
    notices[0].message.clone()
}

/// Llama 3.1 8B's KV per token in BF16: 2 x 32 layers x 8 KV heads x 128 dims x 2 B.
const WORKED_EXAMPLE_KV_BYTES_PER_TOKEN: f64 = 2.0 * 32.0 * 8.0 * 128.0 * 2.0;
/// Llama 3.1 8B's weights in BF16: 8.03e9 x 2 B.
const WORKED_EXAMPLE_WEIGHT_BYTES: f64 = 8.03e9 * 2.0;

#[test]
fn a_context_of_one_token_is_clamped_to_128_with_a_notice_and_the_batch_table_still_fills() {
    let (inputs, notices, line) = open("ctx=1");
    assert_eq!(only_notice(&notices, "ctx"), "ctx=1 is outside 128–131072 tokens; using 128 tokens.");
    // The shortest prompt it stands for, 16 tokens in, beside 256 out: context 16 + 128.
    assert_eq!(inputs.scenario.context_tokens, 144);
    assert!(line.starts_with("Largest batch meeting 10 ms:"), "{line}");
    let s = inputs.scenario;
    assert!(batch_table(&s, &analyze(&s)).iter().any(|r| r.is_knee));
}

#[test]
fn ten_million_tokens_of_context_stop_at_the_models_maximum_and_the_notice_names_the_model() {
    for query in ["ctx=10000000", "ctx=10,000,000", "ctx=1e7"] {
        let (inputs, notices, line) = open(query);
        let message = only_notice(&notices, "ctx");
        assert!(
            message.ends_with(
                "is outside 128–131072 tokens, the most Llama 3.1 8B accepts; using 131072 tokens."
            ),
            "{message}"
        );
        assert_eq!(inputs.scenario.context_tokens, 131_072);
        // Prefilling its 130,944-token prompt (131,072 of context less 256 / 2): 2 x 8.03e9 x 130,944
        // FLOP alone is 2.1 s at 989 TFLOP/s, past 2 s.
        assert!(
            line.starts_with("No batch meets the 2,000 ms TTFT target: prefilling 130,944 tokens"),
            "{line}"
        );
    }
}

#[test]
fn ten_million_tokens_on_a_model_that_accepts_them_stop_at_the_sliders_top_and_the_kv_that_does_not_fit_is_explained(
) {
    let (inputs, notices, line) = open("model=custom&m_max_ctx=10000000&ctx=10000000");
    let message = only_notice(&notices, "ctx");
    assert_eq!(message, "ctx=10000000 is outside 128–1048576 tokens; using 1048576 tokens.");
    assert_eq!(inputs.scenario.context_tokens, 1_048_576);
    let kv_gb = WORKED_EXAMPLE_KV_BYTES_PER_TOKEN * 1_048_576.0 / 1e9;
    let free_gb = (80e9 * 0.9 - WORKED_EXAMPLE_WEIGHT_BYTES) / 1e9;
    let expected = format!(
        "Not even one sequence fits: 1,048,576 tokens of KV take {kv_gb:.2} GB, and {free_gb:.2} GB is free after the weights."
    );
    assert_eq!(line, expected);
}

#[test]
fn a_tpot_target_of_zero_is_clamped_to_1_ms_and_the_headline_says_even_one_sequence_misses_it() {
    let (inputs, notices, line) = open("tpot=0");
    assert_eq!(only_notice(&notices, "tpot"), "tpot=0 is outside 1–500 ms; using 1 ms.");
    assert_eq!(inputs.scenario.tpot_target_s, 0.001);
    let floor_ms = (WORKED_EXAMPLE_WEIGHT_BYTES + 2048.0 * WORKED_EXAMPLE_KV_BYTES_PER_TOKEN) / 3.35e12 * 1e3;
    let expected = format!(
        "No batch meets 1 ms: even a batch of 1 takes {floor_ms:.2} ms per step, so goodput is 0 at every batch size."
    );
    assert_eq!(line, expected);
}

#[test]
fn an_output_of_zero_tokens_is_clamped_to_one_token_and_little_s_law_uses_it() {
    let (inputs, notices, _) = open("out=0");
    assert_eq!(only_notice(&notices, "out"), "out=0 is outside 1–16384 tokens; using 1 token.");
    assert_eq!(inputs.scenario.output_tokens, 1);
    let s = inputs.scenario;
    let a = analyze(&s);
    let knee =
        batch_table(&s, &a).into_iter().find(|r| r.is_knee).expect("the worked example's knee is listed");
    let p = knee.point;
    assert_eq!(p.goodput_req_per_s, f64::from(p.batch) / p.step.step_s, "one token per request");
}

/// Every line of the derivation for `inputs`, joined.
fn derivation_text(inputs: &Inputs) -> String {
    let s = inputs.scenario;
    let d = derive(&s, &analyze(&s));
    lines(&s, &d)
        .iter()
        .map(|l| format!("{} {} {}", l.numbers, l.result, l.note))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_model_larger_than_every_gpu_names_its_weights_and_each_gpus_usable_memory() {
    for gpu in GPUS {
        let query = format!("model=custom&m_params=10000&m_active=10000&gpu={}&tp=8&w=fp4", gpu.id);
        let (inputs, notices, line) = open(&query);
        assert!(notices.is_empty(), "{notices:?}");
        let usable_gb = gpu.hbm_bytes * 0.9 / 1e9;
        let needed = (5000.0 / usable_gb).ceil();
        let expected = format!(
            "Custom model in FP4 needs 5,000.00 GB of weights; one {} holds {usable_gb:.2} GB usable, so it needs at \
             least {needed} GPUs, more than tensor parallelism 8 offers: try smaller weights (FP8, INT4) or a GPU \
             with more HBM.",
            gpu.name
        );
        assert_eq!(line, expected);
        let s = inputs.scenario;
        assert!(matches!(analyze(&s).limit, Limit::WeightsDoNotFit { .. }));
        assert!(derivation_text(&inputs)
            .contains(&format!("The weights do not fit: they need at least {needed} GPUs.")));
    }
}

#[test]
fn the_largest_preset_on_the_smallest_gpu_at_tp_1_says_how_many_gpus_its_weights_need() {
    let smallest = GPUS.iter().min_by(|a, b| a.hbm_bytes.total_cmp(&b.hbm_bytes)).unwrap();
    let (inputs, _, line) = open(&format!("model=deepseek-v3&gpu={}&tp=1", smallest.id));
    assert_eq!(inputs.scenario.gpu.id, smallest.id);
    let usable_gb = smallest.hbm_bytes * 0.9 / 1e9;
    let weights_gb = inputs.scenario.model.params * 2.0 / 1e9;
    let needed = (weights_gb / usable_gb).ceil();
    assert!(needed > 8.0, "no tensor-parallel degree offered holds it");
    assert!(
        line.starts_with(&format!(
            "DeepSeek-V3 in BF16 needs 1,342.00 GB of weights; one {} holds {usable_gb:.2} GB usable, so it needs at least {needed} GPUs",
            smallest.name
        )),
        "{line}"
    );
}

#[test]
fn hbm_smaller_than_the_weights_is_clamped_to_1_gb_and_the_headline_says_the_weights_do_not_fit() {
    let (_, notices, line) = open("gpu=custom&g_hbm=0");
    assert_eq!(only_notice(&notices, "g_hbm"), "g_hbm=0 is outside 1–100000 GB; using 1 GB.");
    assert_eq!(
        line,
        "Llama 3.1 8B in BF16 needs 16.06 GB of weights; one Custom GPU holds 0.90 GB usable, so it needs at least 18 \
         GPUs, more than tensor parallelism 8 offers: try smaller weights (FP8, INT4) or a GPU with more HBM."
    );
}

#[test]
fn hbm_just_short_of_the_weights_offers_the_tensor_parallel_degree_that_holds_them() {
    let (inputs, _, line) = open("gpu=custom&g_hbm=16");
    let s = inputs.scenario;
    assert_eq!(analyze(&s).tp_needed, Some(2));
    assert!(TP_CHOICES.contains(&2));
    assert!(
        line.ends_with("so it needs at least 2 GPUs: set tensor parallelism to 2 (it is 1 now)."),
        "{line}"
    );
    let (fixed, _, line) = open("gpu=custom&g_hbm=16&tp=2");
    let s = fixed.scenario;
    assert!(analyze(&s).server_batch > 0, "at TP 2 a batch runs: {line}");
}

#[test]
fn when_nothing_fits_the_simulator_refuses_every_request_and_reports_rates_of_zero() {
    for query in ["gpu=custom&g_hbm=1", "model=custom&m_max_ctx=10000000&ctx=10000000"] {
        for load in ["open", "closed"] {
            let (inputs, _, _) = from_page_query(&format!("{query}&load={load}"));
            let s = inputs.scenario;
            let c =
                goodput_lab::core::sim::SimConfig { requests: 5, rate_points: 2, ..inputs.sim.config(&s) };
            let sweep = goodput_lab::core::sim::sweep(&c);
            for p in &sweep.points {
                assert_eq!(p.rejected, 5, "{query} {load}: every request is refused");
                assert_eq!((p.requests.both, p.throughput_req_per_s), (0.0, 0.0));
                assert!(p.departure_rate_req_per_s.is_finite(), "{query} {load}: {p:?}");
            }
            assert_eq!(sweep.goodput_req_per_s, 0.0);
        }
    }
}

#[test]
fn the_simulators_analytic_line_says_when_nothing_fits_or_no_batch_meets_the_targets() {
    let line = |query: &str| {
        let (inputs, _, _) = from_page_query(query);
        let s = inputs.scenario;
        let a = analyze(&s);
        sim_analytic(&s, &a, inputs.sim.cap_for(&a))
    };
    assert_eq!(
        line("gpu=custom&g_hbm=1"),
        "Analytic model: nothing fits in memory (see the headline), so the simulated server refuses every request."
    );
    assert_eq!(line("tpot=0"), "Analytic model: no batch meets both targets; simulated cap 1 sequence.");
    // The worked example: 64 / (256 x 9.92 ms) = 25.2 req/s.
    assert_eq!(line(""), "Analytic model: batch 64 → 25.2 req/s; simulated cap 64 sequences.");
}
