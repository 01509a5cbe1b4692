//! Lesson 7, disaggregation: the state it loads (a prefill-heavy workload under tight targets, the
//! placement panel open on the core's best split), and every number its sentences state, held
//! against the placement table the page prints and against arithmetic written out here.

use crate::common::{assert_close, wait_p90_by_hand, Z90};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::{best_split, compare, Binds, Comparison, PlacementMode, Split};
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::roofline::step_time_at;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::lessons::{lesson, Lesson};
use goodput_lab::state::Inputs;
use goodput_lab::view::format::placement::{rows, PlacementRow};
use goodput_lab::view::format::{ms, significant};

/// Lesson 7, its inputs and its comparison, as the placement panel computes it.
fn loaded() -> (&'static Lesson, Inputs, Comparison) {
    let l = lesson(7).expect("lesson 7 exists");
    let i = l.inputs();
    (l, i, compare(&i.scenario, i.sim.chunk_tokens, &i.placement.split, &i.percentile()))
}

/// The placement table's row `id`, as the page prints it.
fn row(i: &Inputs, c: &Comparison, id: &str) -> PlacementRow {
    let table = rows(c, i.sim.chunk_tokens, &i.placement.split, i.rate_req_per_s);
    table.into_iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no {id} row"))
}

#[track_caller]
fn says(l: &Lesson, text: &str) {
    assert!(l.text.contains(text), "lesson 7 should say {text:?}: {}", l.text);
}

#[test]
fn lesson_7_loads_a_prefill_heavy_workload_under_tight_targets_on_the_cores_best_split() {
    let (l, i, _) = loaded();
    assert_eq!((l.title, l.id), ("Disaggregation", "disaggregation"));
    let s = i.scenario;
    let defaults = Inputs::default();
    assert_eq!(
        (s.model.id, s.gpu.id, s.parallel.tp),
        ("llama-3.1-8b", "h100-sxm", 1),
        "the worked example's model and GPU"
    );
    assert_eq!((s.context_tokens, s.output_tokens), (8192, 128), "64 prompt tokens per output token");
    assert_eq!((s.ttft_target_s, s.tpot_target_s), (0.5, 0.02));
    assert_eq!(i.sim, defaults.sim, "the simulator's step budget, 512 tokens, is the chunked row's");
    assert_eq!(i.placement.mode, PlacementMode::Disaggregated, "place=disagg opens the placement panel");
    let (best, _) = best_split(&s, None, &i.percentile()).expect("a split serves");
    assert_eq!(i.placement.split, best, "the split loaded is the core's best per GPU");
    let stated = Split {
        prefill_instances: 2,
        prefill_tp: 2,
        decode_instances: 1,
        decode_tp: 1,
        link_bytes_per_s: None,
    };
    assert_eq!(best, stated);
    says(l, "2 × TP2 prefill : 1 × TP1 decode");
    for text in ["8,192-token prompts", "128-token answers", "500 ms TTFT", "20 ms TPOT"] {
        says(l, text);
    }
}

#[test]
fn lesson_7_states_the_placement_tables_cells_and_whole_prompt_colocation_wins_per_gpu() {
    let (l, i, c) = loaded();
    let (chunked, unchunked, best) = (row(&i, &c, "chunked"), row(&i, &c, "unchunked"), row(&i, &c, "best"));
    let disagg = row(&i, &c, "disagg");
    assert_eq!(
        PlacementRow { id: "best", label: best.label.clone(), ..disagg },
        best,
        "the split loaded is the best"
    );
    assert_eq!(
        (chunked.per_gpu.as_str(), unchunked.per_gpu.as_str(), best.per_gpu.as_str()),
        ("3.05", "3.56", "3.54")
    );
    assert_eq!((best.rate.as_str(), best.gpus.as_str()), ("17.7", "5"));
    assert_eq!(
        (chunked.binds.as_str(), unchunked.binds.as_str(), best.binds.as_str()),
        ("the TTFT target", "the TPOT target", "the prefill side")
    );
    let (_, d) = c.best_split.expect("a split serves");
    let per_gpu = [c.per_gpu(&c.unchunked), d.goodput_per_gpu_req_per_s, c.per_gpu(&c.chunked)];
    assert!(
        per_gpu[0] > per_gpu[1] && per_gpu[1] > per_gpu[2],
        "whole prompts > best split > chunked: {per_gpu:?}"
    );
    assert_eq!((c.chunked.binds, c.unchunked.binds), (Binds::Ttft, Binds::Tpot));
    for text in [
        "whole-prompt colocation serves 3.56 req/s per GPU",
        "serves 3.54 (17.7 req/s on 5 GPUs)",
        "Chunked colocation serves the least, 3.05",
        "cuts each prompt into 16 steps",
    ] {
        says(l, text);
    }
    // 8,128 prompt tokens (8,192 of context less 128 / 2) in chunks of what the decodes leave.
    let steps = 8128.0 / (512.0 - c.chunked.batch);
    assert_eq!(steps.round(), 16.0, "{steps}");
}

#[test]
fn lesson_7s_best_split_is_the_slower_side_of_arithmetic_written_out_here() {
    let (_, i, c) = loaded();
    let s = i.scenario;
    let (_, d) = c.best_split.expect("a split serves");
    // One prefill instance (TP2): prefill D, then the prompt's KV (8,128 x 131,072 B) over 450 GB/s
    // of NVLink; its rate puts the p90 TTFT, D + transfer + W90, on 500 ms (lengths spread 50%).
    let tp2 = Scenario { parallel: Parallelism::tp(2), ..s };
    let prefill_s = prefill_time(&tp2).prefill_s;
    let transfer_s = 8128.0 * 131_072.0 / 450e9;
    let ttft = prefill_s + transfer_s + wait_p90_by_hand(d.prefill_rate_req_per_s, prefill_s, 0.5);
    assert_close(ttft, 0.5, 1e-9, "p90 TTFT on the target");
    // One decode instance (TP1) at the largest batch whose p90 step, step(b) plus the batch's
    // spread sqrt(2b/3) sequences of one step slope each, meets 20 ms: B / (128 x step).
    let p90 = |b: u32| {
        let step = evaluate(&s, b).step.step_s;
        step + Z90 * (evaluate(&s, b + 1).step.step_s - step) * (2.0 * f64::from(b) / 3.0).sqrt()
    };
    let b = d.decode_batch;
    assert!(p90(b) <= 0.02 && p90(b + 1) > 0.02, "the decode batch is {b}");
    let decode_rate = f64::from(b) / (128.0 * evaluate(&s, b).step.step_s);
    let rate = (2.0 * d.prefill_rate_req_per_s).min(decode_rate);
    assert_close(d.rate_req_per_s, rate, 1e-9, "the best split's rate");
    assert_close(d.goodput_per_gpu_req_per_s, rate / 5.0, 1e-9, "per GPU, on 2 x 2 + 1 GPUs");
    assert_eq!((significant(rate), significant(rate / 5.0)), ("17.7".into(), "3.54".into()));
    // Prefill is most of the work: a request's GPU-seconds of prefill against those of decode.
    let decode_gpu_s = 128.0 * evaluate(&s, b).step.step_s / f64::from(b);
    assert!(2.0 * prefill_s > decode_gpu_s, "prefill {prefill_s} s on 2 GPUs, decode {decode_gpu_s} GPU-s");
}

#[test]
fn lesson_7s_colocated_rates_sit_on_their_binding_targets() {
    let (_, i, c) = loaded();
    let s = i.scenario;
    // Whole prompts: TPOT's p90 on the 20 ms target; its mean is step(B) / (1 - rate x prefill).
    let prefill_s = prefill_time(&s).prefill_s;
    let r = c.unchunked.rate_req_per_s;
    assert_close(c.unchunked.tpot_s.unwrap(), 0.02, 1e-6, "whole prompts: p90 TPOT binds");
    let mean = step_time_at(&s, c.unchunked.batch).step_s / (1.0 - r * prefill_s);
    assert_close(c.unchunked.tpot_mean_s.unwrap(), mean, 1e-9, "the stretched mean step");
    // Chunked: TTFT's p90 on the 500 ms target, TPOT well inside 20 ms.
    assert_close(c.chunked.ttft_s.unwrap(), 0.5, 1e-6, "chunked: p90 TTFT binds");
    assert!(c.chunked.tpot_s.unwrap() < 0.0125, "chunked TPOT {:?}", c.chunked.tpot_s);
    assert_eq!(ms(c.chunked.tpot_s.unwrap()), "9.25");
}
