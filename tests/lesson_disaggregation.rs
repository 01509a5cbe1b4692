//! Lesson 7, disaggregation: the state it loads (a prefill-heavy workload under tight targets, the
//! placement panel open on the core's best split), and every number its sentences state, held
//! against the placement table the page prints and against arithmetic written out here.

mod common;

use common::assert_close;
use goodput_lab::core::placement::{best_split, compare, Binds, Comparison, PlacementMode, Split};
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::roofline::{evaluate, step_time_at, Scenario};
use goodput_lab::format::placement::{rows, PlacementRow};
use goodput_lab::format::{ms, significant};
use goodput_lab::state::lessons::{lesson, Lesson};
use goodput_lab::state::Inputs;

/// Lesson 7, its inputs and its comparison, as the placement panel computes it.
fn loaded() -> (&'static Lesson, Inputs, Comparison) {
    let l = lesson(7).expect("lesson 7 exists");
    let i = l.inputs();
    (l, i, compare(&i.scenario, i.sim.chunk_tokens, &i.placement.split))
}

/// The placement table's row `id`, as the page prints it.
fn row(i: &Inputs, c: &Comparison, id: &str) -> PlacementRow {
    let table = rows(c, i.sim.chunk_tokens, &i.placement.split);
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
        (s.model.id, s.gpu.id, s.tp),
        ("llama-3.1-8b", "h100-sxm", 1),
        "the worked example's model and GPU"
    );
    assert_eq!((s.context_tokens, s.output_tokens), (8192, 128), "64 prompt tokens per output token");
    assert_eq!((s.ttft_target_s, s.tpot_target_s), (0.5, 0.02));
    assert_eq!(i.sim, defaults.sim, "the simulator's step budget, 512 tokens, is the chunked row's");
    assert_eq!(i.placement.mode, PlacementMode::Disaggregated, "place=disagg opens the placement panel");
    let (best, _) = best_split(&s, None).expect("a split serves");
    assert_eq!(i.placement.split, best, "the split loaded is the core's best per GPU");
    let stated = Split {
        prefill_instances: 8,
        prefill_tp: 1,
        decode_instances: 1,
        decode_tp: 2,
        link_bytes_per_s: None,
    };
    assert_eq!(best, stated);
    says(l, "8 × TP1 prefill : 1 × TP2 decode");
    for text in ["8,192-token prompts", "128-token answers", "500 ms TTFT", "20 ms TPOT"] {
        says(l, text);
    }
}

#[test]
fn lesson_7_states_the_placement_tables_cells_and_chunked_colocation_wins_per_gpu() {
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
        ("5.16", "3.96", "4.26")
    );
    assert_eq!((best.rate.as_str(), best.gpus.as_str(), chunked.tpot.as_str()), ("42.6", "10", "6.88"));
    assert_eq!(chunked.binds, "the GPUs' capacity");
    let (_, d) = c.best_split.expect("a split serves");
    let per_gpu = [c.per_gpu(&c.chunked), d.goodput_per_gpu_req_per_s, c.per_gpu(&c.unchunked)];
    assert!(
        per_gpu[0] > per_gpu[1] && per_gpu[1] > per_gpu[2],
        "chunked > best split > whole prompts: {per_gpu:?}"
    );
    assert_eq!(c.chunked.binds, Binds::Capacity);
    for text in [
        "colocation serves 3.96 req/s per GPU",
        "4.26 (42.6 req/s on 10 GPUs)",
        "chunked colocation serves the most: 5.16 req/s per GPU",
        "the GPU's compute runs out before either target binds",
        "at 6.88 ms, well inside 20 ms",
        "2 decode GPUs beside its 8 prefill GPUs",
    ] {
        says(l, text);
    }
}

#[test]
fn lesson_7s_best_split_is_the_slower_side_of_arithmetic_written_out_here() {
    let (_, i, c) = loaded();
    let s = i.scenario;
    let (_, d) = c.best_split.expect("a split serves");
    // One prefill instance (TP1): prefill D, then the prompt's KV (8,192 x 131,072 B) over 450 GB/s
    // of NVLink; M/D/1 mean wait W = rho D / (2 (1 - rho)) fits the slack S at 2S / (D (D + 2S)).
    let prefill_s = prefill_time(&s).prefill_s;
    let transfer_s = 8192.0 * 131_072.0 / 450e9;
    let slack_s = 0.5 - prefill_s - transfer_s;
    let prefill_rate = 2.0 * slack_s / (prefill_s * (prefill_s + 2.0 * slack_s));
    // One decode instance (TP2) at the largest batch whose step meets 20 ms: B / (128 x step).
    let tp2 = Scenario { tp: 2, ..s };
    let b = d.decode_batch;
    let step_s = evaluate(&tp2, b).step.step_s;
    assert!(step_s <= 0.02 && evaluate(&tp2, b + 1).step.step_s > 0.02, "the TPOT knee is {b}");
    let decode_rate = f64::from(b) / (128.0 * step_s);
    let rate = (8.0 * prefill_rate).min(decode_rate);
    assert_close(d.rate_req_per_s, rate, 1e-9, "the best split's rate");
    assert_close(d.goodput_per_gpu_req_per_s, rate / 10.0, 1e-9, "per GPU, on 8 + 2 GPUs");
    assert_eq!((significant(rate), significant(rate / 10.0)), ("42.6".into(), "4.26".into()));
    // Prefill is most of the work: a request's GPU-seconds of prefill against those of decode.
    let decode_gpu_s = 2.0 * 128.0 * step_s / f64::from(b);
    assert!(prefill_s > decode_gpu_s, "prefill {prefill_s} s, decode {decode_gpu_s} GPU-s");
}

#[test]
fn lesson_7s_colocated_rates_sit_on_their_binding_targets_by_arithmetic_written_out_here() {
    let (_, i, c) = loaded();
    let s = i.scenario;
    let prefill_s = prefill_time(&s).prefill_s;
    // Whole prompts: TPOT = step(B) / (1 - rate x prefill), B = rate x 128 x TPOT, on the 20 ms target.
    let r = c.unchunked.rate_req_per_s;
    let tpot_s = step_time_at(&s, r * 128.0 * 0.02).step_s / (1.0 - r * prefill_s);
    assert_close(tpot_s, 0.02, 1e-6, "whole prompts: TPOT binds at 3.96 req/s");
    assert_eq!(significant(r), "3.96");
    // Chunked: each step of t carries B = rate x 128 x t decodes and rate x 8,192 x t prompt tokens,
    // so t = step(t) is a fixed point; just past the rate none exists for any t up to 2 s (the
    // step grows by at least as much as it lasts): the GPU's capacity, with TTFT and TPOT inside.
    let r = c.chunked.rate_req_per_s;
    let t = c.chunked.tpot_s.expect("a steady step");
    let decodes = r * 128.0 * t;
    assert_close(chunked_step_s(&s, r, t), t, 1e-6, "chunked: t is the step of its own mix");
    let past = r * 1.002;
    let gap_min_s = (1..20_000).map(|k| f64::from(k) * 1e-4).map(|t| chunked_step_s(&s, past, t) - t).fold(f64::INFINITY, f64::min);
    assert!(gap_min_s > 0.0, "0.2% past the rate the step always outgrows t: min gap {gap_min_s} s");
    let service_s = 8192.0 * t / (512.0 - decodes);
    let rho = r * service_s;
    assert!(service_s + rho * service_s / (2.0 * (1.0 - rho)) < 0.5, "TTFT inside 500 ms");
    assert!(t < 0.02, "TPOT inside 20 ms");
    assert_eq!((significant(r), ms(t)), ("5.16".into(), "6.88".into()));
    assert!(decodes < 10.0, "the few decodes: {decodes} running");
}

/// One chunked step of length `t_s` at `rate` (Poisson) on lesson 7's 8,192 / 128 workload with a
/// 512-token budget, priced by the per-operator roofline: B = rate x 128 x t decodes reading the
/// context's KV, rate x 8,192 x t prompt tokens in chunks of 512 - B reading their own earlier KV.
fn chunked_step_s(s: &Scenario, rate: f64, t_s: f64) -> f64 {
    use goodput_lab::core::model::prefill_attention_flop;
    use goodput_lab::core::roofline::{StepMix, StepRoofline};
    let decodes = rate * 128.0 * t_s;
    let chunk = (512.0 - decodes).clamp(1.0, 8192.0);
    let mix = StepMix {
        decode_seqs: decodes,
        decode_kv_tokens: decodes * 8192.0,
        prefill_tokens: rate * 8192.0 * t_s,
        prefill_kv_tokens: rate * t_s * 8192.0 * (8192.0 - chunk) / (2.0 * chunk),
        prefill_attention_flop: rate * t_s * prefill_attention_flop(&s.model, 8192),
        ..StepMix::default()
    };
    StepRoofline::new(s).terms(&mix).step_s
}
