//! The lessons: each sentence's numbers are true for the state the lesson loads, `lesson=N` opens
//! and round-trips it, and changing a control drops it.

use crate::common::assert_prints_as;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::model::prefill_attention_flop;
use goodput_lab::core::plan::compute;
use goodput_lab::core::roofline::{analyze, step_terms, Analysis, Bound, Limit, Precision, StepMix};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{LengthDist, Sweep};
use goodput_lab::state::fields::{TPOT, TTFT};
use goodput_lab::state::lessons::{active, lesson, step, Lesson, LESSONS};
use goodput_lab::state::sim::ArrivalKind;
use goodput_lab::state::view::{Mode, Panel, Theme, View};
use goodput_lab::state::{from_page_query, page_query, Inputs};
use goodput_lab::view::format::{ms, percent, req_per_s, significant, sim_goodput};

fn loaded(number: u8) -> (&'static Lesson, Scenario, Analysis) {
    let l = lesson(number).expect("lessons 1 to 9 exist");
    let s = l.inputs().scenario;
    (l, s, analyze(&s))
}

/// Fails unless the lesson's sentence prints `text`.
#[track_caller]
fn says(l: &Lesson, text: &str) {
    assert!(l.text.contains(text), "lesson {} should say {text:?}: {}", l.number, l.text);
}

fn sweep_of(inputs: &Inputs) -> Sweep {
    compute(&inputs.sim_plan(), |_, _| {}).sweep
}

/// Attainment of both targets at the swept rate the page prints as `rate`.
fn attainment_at(sweep: &Sweep, rate: &str) -> f64 {
    let point = sweep.points.iter().find(|p| significant(p.rate_req_per_s) == rate);
    point.unwrap_or_else(|| panic!("no swept rate prints as {rate}")).requests.both
}

#[test]
fn nine_lessons_the_worked_examples_six_in_order_then_disaggregation_speculation_and_wide_ep_each_one_or_two_sentences(
) {
    let titles: Vec<(u8, &str)> = LESSONS.iter().map(|l| (l.number, l.title)).collect();
    assert_eq!(
        titles,
        [
            (1, "The cliff"),
            (2, "FP8 KV cache"),
            (3, "No SLO"),
            (4, "Loose 50 ms"),
            (5, "Every request or p90"),
            (6, "Realistic attainment"),
            (7, "Disaggregation"),
            (8, "Speculative decoding"),
            (9, "Wide EP")
        ]
    );
    for l in LESSONS {
        let sentences = l.text.matches(". ").count() + usize::from(l.text.ends_with('.'));
        assert!((1..=2).contains(&sentences), "lesson {}: {sentences} sentences", l.number);
    }
}

#[test]
fn lesson_1_is_the_worked_example_cliff_64_meets_10_ms_and_96_misses() {
    let (l, s, a) = loaded(1);
    assert_eq!(l.inputs(), Inputs::default(), "the worked example's defaults");
    assert_eq!(a.knee_batch, 64);
    says(l, "largest batch is 64");
    let (at_64, at_96) = (evaluate(&s, 64), evaluate(&s, 96));
    assert_prints_as(at_64.step.step_s * 1e3, 9.92, 2, "step(64)");
    assert_prints_as(at_64.goodput_req_per_s, 25.2, 1, "goodput at 64");
    assert_prints_as(at_96.step.step_s * 1e3, 12.49, 2, "step(96)");
    assert!(!at_96.meets_tpot && at_96.goodput_req_per_s == 0.0, "every request at 96 misses");
    assert!(at_96.tokens_per_s > at_64.tokens_per_s, "throughput keeps climbing");
    for text in ["9.92 ms", "25.2 req/s", "Batch 96 takes 12.49 ms", "goodput falls to 0"] {
        says(l, text);
    }
}

#[test]
fn lesson_2_fp8_kv_halves_kv_per_sequence_and_roughly_doubles_knee_and_goodput() {
    let (l, s, a) = loaded(2);
    assert_eq!(s.kv_precision, Precision::Fp8);
    assert_eq!((a.kv_bytes_per_seq / 1e6).round(), 134.0, "KV per sequence prints as 134 MB");
    assert_eq!(a.knee_batch, 129);
    let (_, bf16_s, bf16) = loaded(1);
    let knee_ratio = f64::from(a.knee_batch) / f64::from(bf16.knee_batch);
    assert!((1.9..=2.1).contains(&knee_ratio), "knee ratio {knee_ratio}");
    let goodput = evaluate(&s, a.knee_batch).goodput_req_per_s;
    assert_prints_as(goodput, 50.6, 1, "goodput at 129");
    let goodput_ratio = goodput / evaluate(&bf16_s, bf16.knee_batch).goodput_req_per_s;
    assert!((1.9..=2.1).contains(&goodput_ratio), "goodput ratio {goodput_ratio}");
    for text in ["134 MB", "becomes 129", "twice 64", "50.6 req/s"] {
        says(l, text);
    }
}

#[test]
fn lesson_3_no_slo_uses_the_loosest_targets_and_the_kv_pool_binds() {
    let (l, s, a) = loaded(3);
    assert_eq!(s.tpot_target_s, TPOT.to_base(TPOT.max), "the TPOT slider's loosest stop");
    assert_eq!(s.ttft_target_s, TTFT.to_base(TTFT.max), "the TTFT slider's loosest stop");
    assert_eq!((a.limit, a.kv_pool_batch, a.server_batch), (Limit::KvPool, 208, 208));
    let pool = evaluate(&s, 208);
    assert_eq!(pool.goodput_req_per_s, pool.throughput_req_per_s, "goodput equals throughput");
    assert_eq!(req_per_s(pool.goodput_req_per_s), "37.9");
    for text in [
        "goodput equals throughput",
        "208 sequences of 2,048 tokens",
        "37.9 req/s",
        "500 ms TPOT",
        "60 s TTFT",
    ] {
        says(l, text);
    }
}

#[test]
fn lesson_4_at_50_ms_the_knee_passes_the_kv_pool() {
    let (l, s, a) = loaded(4);
    assert_eq!(ms(s.tpot_target_s), "50.00");
    assert_eq!((a.knee_batch, a.kv_pool_batch, a.limit), (518, 208, Limit::KvPool));
    let pool = evaluate(&s, 208);
    assert_eq!(pool.goodput_req_per_s, pool.throughput_req_per_s);
    assert_eq!((req_per_s(pool.goodput_req_per_s), ms(pool.step.step_s)), ("37.9".into(), "21.46".into()));
    assert_eq!(a.server_batch, 208, "the knee a server reaches is the pool");
    for text in [
        "50 ms",
        "TPOT knee would be 518",
        "the knee a server reaches is 208",
        "37.9 req/s at 21.46 ms per step",
    ] {
        says(l, text);
    }
}

#[test]
fn lesson_5_every_request_is_stricter_than_p90_in_the_simulator() {
    let (l, _, _) = loaded(5);
    let every = l.inputs();
    assert!(every.sim.open, "the simulator opens");
    assert_eq!(every.sim.attainment_target, 1.0, "the lesson loads 'every request'");
    assert_eq!(sim_goodput(&sweep_of(&every)), "9.10 req/s");
    let mut p90 = every;
    p90.sim.attainment_target = 0.9;
    assert_eq!(sim_goodput(&sweep_of(&p90)), "12.3 req/s");
    for text in ["Requiring every request", "9.10 req/s", "p90 and it reaches 12.3 req/s"] {
        says(l, text);
    }
}

#[test]
fn lesson_5_names_the_headlines_analytic_rate_and_the_percentile_it_is_read_at() {
    use goodput_lab::core::capacity::unit_point;
    use goodput_lab::view::format::headline::with_prefill;
    let (l, s, _) = loaded(5);
    let placing = l.inputs().placing();
    let unit = unit_point(&s, &placing).expect("the replica serves");
    let rate = req_per_s(unit.rate_req_per_s);
    // "Every request" is the steady state's p99.99, and the headline says so, not p100.
    assert_eq!(
        with_prefill(Some(&unit), &placing),
        format!("With prefill too: {rate} req/s a replica at p99.99.")
    );
    says(l, &format!("headline's {rate} req/s is the analytic steady state read at p99.99"));
}

#[test]
fn lesson_6_realistic_attainment_falls_over_a_range_of_load() {
    let (l, _, _) = loaded(6);
    let inputs = l.inputs();
    assert!(inputs.sim.open);
    assert_eq!((inputs.sim.arrivals, inputs.sim.lengths), (ArrivalKind::Poisson, LengthDist::LogNormal));
    assert_eq!(inputs.sim.attainment_target, 0.9);
    let sweep = sweep_of(&inputs);
    assert_eq!(attainment_at(&sweep, "6.30"), 1.0, "every request meets both up to 6.30 req/s");
    assert!(attainment_at(&sweep, "9.45") < 1.0, "and not at 9.45 req/s");
    assert_eq!(percent(attainment_at(&sweep, "12.6")), "87.9%");
    assert_eq!(percent(attainment_at(&sweep, "15.7")), "20.1%");
    assert_eq!(sim_goodput(&sweep), "12.3 req/s");
    let at_15 = sweep.points.iter().find(|p| significant(p.rate_req_per_s) == "15.7").unwrap().requests;
    assert!(at_15.ttft > 0.99 && at_15.tpot == at_15.both, "the misses are TPOT: {at_15:?}");
    // 64 decodes at 2,048 tokens and the first 448 tokens of a prompt, in one 512-token step.
    let s = inputs.scenario;
    let mixed = StepMix {
        decode_seqs: 64.0,
        decode_kv_tokens: 64.0 * 2048.0,
        prefill_tokens: 448.0,
        prefill_kv_tokens: 0.0,
        prefill_attention_flop: prefill_attention_flop(&s.model, 448),
        ..StepMix::default()
    };
    let terms = step_terms(&s, &mixed);
    assert_eq!(ms(terms.step_s), "13.50");
    assert_eq!((terms.gemm.bound(), terms.decode_attention.bound()), (Bound::Compute, Bound::Memory));
    for text in [
        "up to 6.30 req/s",
        "87.9% at 12.6 req/s",
        "20.1% at 15.7 req/s",
        "90% attainment is 12.3 req/s",
        "448-token prompt chunk take 13.50 ms",
    ] {
        says(l, text);
    }
}

#[test]
fn every_lesson_link_reopens_the_lesson_with_its_caption() {
    for l in LESSONS {
        let view = View { lesson: Some(l.number), ..View::default() };
        let query = page_query(&l.inputs(), &view);
        assert!(query.ends_with(&format!("lesson={}", l.number)), "{query}");
        let (inputs, reopened, notices) = from_page_query(&query);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(inputs, l.inputs());
        assert_eq!(active(&inputs, &reopened).map(|l| l.number), Some(l.number));
    }
}

#[test]
fn a_bare_lesson_key_loads_the_lessons_state() {
    let (inputs, view, notices) = from_page_query("lesson=2");
    assert!(notices.is_empty());
    assert_eq!(inputs.scenario.kv_precision, Precision::Fp8);
    assert_eq!(active(&inputs, &view).map(|l| l.number), Some(2));
}

#[test]
fn keys_beside_the_lesson_apply_on_top_and_then_it_no_longer_shows() {
    let (inputs, view, _) = from_page_query("lesson=2&tpot=20");
    assert_eq!((inputs.scenario.kv_precision, inputs.scenario.tpot_target_s), (Precision::Fp8, 0.02));
    assert!(active(&inputs, &view).is_none());
    assert!(!page_query(&inputs, &view).contains("lesson"), "a changed state drops lesson= from the URL");
}

#[test]
fn changing_a_control_drops_the_lesson_and_changing_it_back_restores_it() {
    let l = lesson(2).unwrap();
    let view = View { lesson: Some(2), ..View::default() };
    let mut inputs = l.inputs();
    inputs.scenario.kv_precision = Precision::Bf16;
    assert!(active(&inputs, &view).is_none());
    assert!(!page_query(&inputs, &view).contains("lesson="));
    inputs.scenario.kv_precision = Precision::Fp8;
    assert_eq!(active(&inputs, &view).map(|l| l.number), Some(2));
}

#[test]
fn opening_the_simulator_keeps_the_lesson_but_changing_its_controls_drops_it() {
    let l = lesson(2).unwrap();
    let view = View { lesson: Some(2), ..View::default() };
    let mut opened = l.inputs();
    opened.sim.open = true;
    assert_eq!(active(&opened, &view).map(|l| l.number), Some(2), "showing more is not a change");
    opened.sim.seed += 1;
    assert!(active(&opened, &view).is_none(), "a simulator control is a change");
}

#[test]
fn bad_lesson_values_load_nothing_and_say_so() {
    for bad in ["0", "10", "two", "-1", "2.5"] {
        let (inputs, view, notices) = from_page_query(&format!("lesson={bad}"));
        assert_eq!((inputs, view.lesson), (Inputs::default(), None), "lesson={bad}");
        assert_eq!(notices.len(), 1, "lesson={bad}: {notices:?}");
        assert_eq!(notices[0].key, "lesson");
        assert!(notices[0].message.contains("not a lesson from 1 to 9"), "{}", notices[0].message);
    }
}

#[test]
fn arrows_step_through_lessons_and_stop_at_the_ends() {
    assert_eq!((step(None, 1), step(None, -1)), (1, 1));
    assert_eq!((step(Some(3), 1), step(Some(3), -1)), (4, 2));
    assert_eq!((step(Some(9), 1), step(Some(1), -1)), (9, 1));
}

#[test]
fn a_presented_lesson_opens_on_its_own_panel_unless_the_link_names_one() {
    assert_eq!(from_page_query("present=1&lesson=5").1.panel, Panel::Sim);
    assert_eq!(from_page_query("present=1&lesson=2").1.panel, Panel::Step);
    assert_eq!(from_page_query("present=1&lesson=5&view=table").1.panel, Panel::Table);
    assert_eq!(from_page_query("lesson=5").1.panel, Panel::Rate, "the page shows every panel anyway");
}

#[test]
fn presentation_uses_the_projector_look_unless_the_link_chose_a_theme() {
    let present = View { mode: Mode::Present, ..View::default() };
    assert_eq!(present.look_theme(), Theme::Projector);
    assert_eq!(View { theme: Theme::Dark, ..present }.look_theme(), Theme::Dark);
    assert_eq!(View::default().look_theme(), Theme::Auto);
}

#[test]
fn lesson_9_wide_ep_holds_5x_the_sequences_of_tp8_and_serves_3_2x_the_tokens_per_gpu_at_50_ms_but_not_at_30()
{
    use goodput_lab::core::parallel::Parallelism;
    use goodput_lab::core::roofline::step_time;
    let (l, s, a) = loaded(9);
    assert_eq!(s.model.id, "deepseek-v3");
    assert_eq!(s.gpu.id, "h200-sxm");
    assert_eq!(s.parallel.label(), "TP1 EP8 DP8");
    let tp8 = Scenario { parallel: Parallelism::tp(8), ..s };
    let per_gpu = |s: &Scenario| {
        let batch = analyze(s).server_batch;
        f64::from(batch) / step_time(s, batch).step_s / f64::from(s.parallel.gpus())
    };
    let tp8_analysis = analyze(&tp8);
    assert_eq!((tp8_analysis.kv_pool_batch, tp8_analysis.server_batch), (597, 597), "TP 8's pool binds");
    assert_eq!((a.kv_pool_batch, a.server_batch), (3113, 2423), "wide EP's TPOT binds");
    assert_prints_as(per_gpu(&tp8), 1894.0, 0, "TP 8 tokens/s per GPU");
    assert_prints_as(per_gpu(&s), 6058.0, 0, "wide EP tokens/s per GPU");
    assert_prints_as(per_gpu(&s) / per_gpu(&tp8), 3.2, 1, "ratio");
    let step = step_time(&s, a.server_batch);
    assert_prints_as(step.terms.all_to_all_s * 1e3, 14.67, 2, "all-to-all");
    assert_prints_as(step.step_s * 1e3, 49.99, 2, "step");
    let at_30 = |s: &Scenario| per_gpu(&Scenario { tpot_target_s: 0.03, ..*s });
    assert_prints_as(at_30(&tp8), 788.0, 0, "TP 8 at 30 ms");
    assert_prints_as(at_30(&s), 213.0, 0, "wide EP at 30 ms");
    assert!(at_30(&tp8) > at_30(&s), "the order flips at 30 ms");
    for text in [
        "597 sequences fit",
        "1,894 tokens/s per GPU",
        "fits 3,113, runs 2,423",
        "6,058 tokens/s per GPU (3.2×)",
        "14.67 ms of each 49.99 ms step",
        "TP 8 serves 788 tokens/s per GPU",
        "wide EP 213",
    ] {
        says(l, text);
    }
}
