//! Lesson 8 (speculative decoding): every number in its sentences holds for the state it loads, and
//! the derivation prints the same arithmetic.

use crate::common;

use goodput_lab::core::derivation::derive_scenario;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::roofline::{analyze, crossover_batch, kv_bytes_per_seq, Bound};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::spec::{Drafter, Speculation};
use goodput_lab::state::lessons::lesson;
use goodput_lab::state::{from_page_query, page_query};
use goodput_lab::view::derivation_text::lines;
use goodput_lab::view::format::{fixed, ms, req_per_s, size};

fn says(text: &str) {
    let l = lesson(8).expect("lesson 8");
    assert!(l.text.contains(text), "lesson 8 should say {text:?}: {}", l.text);
}

#[test]
fn lesson_8_loads_a_llama_1b_draft_with_k_4_and_alpha_0_7_on_the_worked_example() {
    let s = lesson(8).unwrap().inputs().scenario;
    match s.speculation.drafter {
        Drafter::Model(m) => assert_eq!(m.id, "llama-3.2-1b"),
        other => panic!("a draft model, got {other:?}"),
    }
    assert_eq!((s.speculation.draft_tokens, s.speculation.acceptance), (4, 0.7));
    assert_eq!(Scenario { speculation: Speculation::OFF, ..s }, common::worked_example());
    says("A Llama 3.2 1B draft proposing 4 tokens, each accepted with probability 0.7");
}

#[test]
fn lesson_8_knee_goodput_and_pool_are_the_cores() {
    let s = lesson(8).unwrap().inputs().scenario;
    let plain = Scenario { speculation: Speculation::OFF, ..s };
    let (with, without) = (analyze(&s), analyze(&plain));
    let p = evaluate(&s, with.knee_batch);
    let spec = p.step.speculative.unwrap();
    says(&format!("yields {} tokens per sequence per step", fixed(spec.tokens_per_step, 2)));
    says(&format!("a {} ms draft-and-verify step at batch {}", ms(spec.step_s()), with.knee_batch));
    says(&format!("is {} ms per token", ms(p.step.step_s)));
    says(&format!("the knee moves from {} to {}", without.knee_batch, with.knee_batch));
    let goodput_without = evaluate(&plain, without.knee_batch).goodput_req_per_s;
    says(&format!("goodput from {} to {} req/s", req_per_s(goodput_without), req_per_s(p.goodput_req_per_s)));
    says(&format!("KV pool from {} to {} sequences", without.kv_pool_batch, with.kv_pool_batch));
    assert!(!evaluate(&s, with.knee_batch + 1).meets_tpot, "the knee is the last batch meeting 10 ms");
}

#[test]
fn lesson_8_crossover_none_at_2048_tokens_and_batch_141_at_256_where_the_verify_gemms_compute() {
    let s = lesson(8).unwrap().inputs().scenario;
    assert_eq!(crossover_batch(&s), None);
    says("At 2,048 tokens of context speculation pays at every batch");
    says("reads each KV cache once for 2.77 tokens");
    let short = Scenario { context_tokens: 256, ..s };
    let c = crossover_batch(&short).expect("a crossover at 256 tokens");
    assert_eq!(c, 141);
    says("at 256 tokens it stops paying at batch 141");
    says("verifying 5 tokens per sequence makes the GEMMs compute-bound");
    assert_eq!(evaluate(&short, c).step.terms.gemm.bound(), Bound::Compute);
}

#[test]
fn lesson_8_round_trips_through_its_link_and_the_derivation_prints_its_numbers() {
    let (inputs, view, notices) = from_page_query("lesson=8");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs, lesson(8).unwrap().inputs());
    let q = page_query(&inputs, &view);
    assert!(q.contains("spec=draft&draft=llama-3.2-1b&k=4&accept=0.7") && q.ends_with("lesson=8"), "{q}");
    let s = inputs.scenario;
    let d = derive_scenario(&s);
    let printed = lines(&s, &d);
    let find = |id: &str| printed.iter().find(|l| l.id == id).unwrap_or_else(|| panic!("line {id}"));
    assert_eq!(find("spec-e").result, "2.77 tokens");
    assert_eq!(find("spec-tpot").result, format!("{} ms", ms(evaluate(&s, 102).step.step_s)));
    assert_eq!(find("spec-pool").result, "159 sequences");
    assert_eq!(find("spec-goodput").result, "40.1 req/s");
    assert_eq!(find("spec-crossover").result, "none");
    assert_eq!(find("knee").id, "knee", "the plain lines stay");
}

#[test]
fn with_a_prefix_cache_the_drafter_pool_line_holds_the_prefix_once_for_target_and_draft() {
    let (inputs, notices) =
        goodput_lab::state::from_query("spec=draft&draft=llama-3.2-1b&k=4&accept=0.7&prefix=1024&hit=50");
    assert!(notices.is_empty(), "{notices:?}");
    let s = inputs.scenario;
    let d = derive_scenario(&s);
    let spec = d.speculation.expect("speculation's lines");
    // By hand: 1,024 cached tokens of target + draft KV held once; each sequence holds 2,048 - 0.5 x
    // 1,024 = 1,536 tokens of both.
    let draft =
        Scenario { model: *goodput_lab::core::presets::model_by_id("llama-3.2-1b").expect("preset"), ..s };
    let per_token = (kv_bytes_per_seq(&s) + kv_bytes_per_seq(&draft)) / 2048.0;
    common::assert_close(spec.prefix_shared_bytes, 1024.0 * per_token, 1e-12, "the shared copy");
    common::assert_close(
        spec.kv_bytes_per_seq_per_gpu + spec.draft_kv_bytes_per_seq_per_gpu,
        1536.0 * per_token,
        1e-12,
        "what a sequence holds",
    );
    let free = spec.usable_bytes
        - spec.weight_bytes_per_gpu
        - spec.prefix_shared_bytes
        - spec.draft_weight_bytes_per_gpu;
    let pool = (free / (spec.kv_bytes_per_seq_per_gpu + spec.draft_kv_bytes_per_seq_per_gpu)).floor();
    assert_eq!(f64::from(spec.summary.pool_with), pool, "the printed numbers give the printed pool");
    let printed = lines(&s, &d);
    let line = printed.iter().find(|l| l.id == "spec-pool").expect("the pool line");
    assert!(line.numbers.contains(&size(spec.prefix_shared_bytes)), "{}", line.numbers);
    assert_eq!(line.result, format!("{} sequences", goodput_lab::view::format::thousands(pool)));
    // The note under the table states the same arithmetic: the drafter's weights out of the free
    // bytes, its KV in what a sequence holds.
    let note = goodput_lab::view::format::prefix::prefix_pool_note(&s, &analyze(&s)).expect("the note");
    let note_free = spec.usable_bytes - spec.weight_bytes_per_gpu - spec.draft_weight_bytes_per_gpu;
    let held = spec.kv_bytes_per_seq_per_gpu + spec.draft_kv_bytes_per_seq_per_gpu;
    let want = format!(
        "KV pool: {} sequences = ({} free − {} shared prefix, held once) / {} a sequence holds",
        goodput_lab::view::format::thousands(pool),
        size(note_free),
        size(spec.prefix_shared_bytes),
        size(held)
    );
    assert!(note.starts_with(&want), "{note}\nwant {want}");
}

#[test]
fn without_a_crossover_the_readout_and_the_derivation_never_print_the_models_batch_bound() {
    let s = lesson(8).unwrap().inputs().scenario;
    assert_eq!(crossover_batch(&s), None);
    let summary = goodput_lab::core::roofline::spec_summary(&s).expect("speculation is on");
    let sentence = goodput_lab::view::format::spec::spec_sentence(&summary);
    assert!(sentence.ends_with("It pays at every batch: no crossover."), "{sentence}");
    let bound = goodput_lab::view::format::thousands(f64::from(goodput_lab::core::roofline::MAX_BATCH));
    let d = derive_scenario(&s);
    let text = format!("{sentence} {:?}", lines(&s, &d));
    assert!(!text.contains(&bound), "{bound} printed: {text}");
}

#[test]
fn lesson_8s_table_shows_the_draft_and_verify_step_its_caption_names_beside_the_time_per_token() {
    use goodput_lab::view::export::table_csv;
    let csv = table_csv(&lesson(8).unwrap().inputs());
    let mut lines = csv.lines();
    let headers: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&headers[..3], ["Batch (sequences)", "Time per token (ms)", "Draft + verify step (ms)"]);
    let knee: Vec<&str> = lines.find(|l| l.starts_with("102,")).expect("the knee's row").split(',').collect();
    // The caption's numbers: a 27.58 ms step at batch 102 is 9.95 ms per token (E = 2.77 tokens).
    says(&format!("a {} ms draft-and-verify step at batch 102 is {} ms", knee[2], knee[1]));
    let (per_token_ms, step_ms): (f64, f64) = (knee[1].parse().unwrap(), knee[2].parse().unwrap());
    let e = (1.0 - 0.7_f64.powi(5)) / (1.0 - 0.7);
    assert!((step_ms / e - per_token_ms).abs() < 0.01, "{step_ms} / {e} vs {per_token_ms}");
}
