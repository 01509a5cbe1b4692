//! Placement: colocated (chunked, unchunked) against disaggregated prefill/decode at p90, each
//! checked against arithmetic written out here, on the worked example and a prefill-heavy workload.

use crate::common::{wait_p90_by_hand, Z90};
use goodput_lab::core::model::prefill_attention_flop;
use goodput_lab::core::placement::colocated::{chunked_at, unchunked_at};
use goodput_lab::core::placement::queue::{md1_rate_max_req_per_s, md1_wait_s};
use goodput_lab::core::placement::{compare, disaggregated, Binds, Percentile, Split};
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::presets::{GPUS, MODELS};
use goodput_lab::core::roofline::{step_terms, step_time_at, StepMix};
use goodput_lab::core::scenario::Scenario;

/// p90 over fixed lengths: the percentile every check here reads at.
const P90: Percentile = Percentile::P90_FIXED;
use goodput_lab::state::from_query;

fn scenario(query: &str) -> Scenario {
    from_query(query).0.scenario
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

/// 8,192 tokens of context (8,128 in) under a 500 ms TTFT, 128-token answers at 20 ms TPOT.
const PREFILL_HEAVY: &str = "ctx=8192&out=128&ttft=500&tpot=20";

#[test]
fn md1_mean_wait_at_the_highest_rate_is_exactly_the_slack() {
    for (service_s, slack_s) in [(0.034, 1.96), (0.15, 0.35), (1e-3, 1e-4)] {
        let rate = md1_rate_max_req_per_s(service_s, slack_s);
        let rho = rate * service_s;
        let wait = rho * service_s / (2.0 * (1.0 - rho));
        assert!(close(wait, slack_s, 1e-9), "{wait} vs {slack_s}");
        assert!(close(md1_wait_s(rate, service_s), slack_s, 1e-9));
    }
    assert_eq!(md1_rate_max_req_per_s(0.1, -0.01), 0.0, "no slack, no rate");
}

#[test]
fn a_decode_instance_runs_the_largest_batch_whose_p90_tpot_meets_the_worked_examples_10_ms() {
    let d = disaggregated(&scenario(""), &Split::default(), &P90);
    // Weights 8.03e9 x 2 B plus b x 2,048 tokens x 131,072 B of KV at 3.35 TB/s; the batch's mean
    // over an answer spreads by sqrt(2b/3) sequences, each one KV read longer.
    let step_s = |b: f64| (8.03e9 * 2.0 + b * 2048.0 * 131_072.0) / 3.35e12;
    let slope_s = 2048.0 * 131_072.0 / 3.35e12;
    let p90 = |b: f64| step_s(b) + Z90 * slope_s * (2.0 * b / 3.0).sqrt();
    let batch = (1..=64).rev().find(|&b| p90(f64::from(b)) <= 0.010).unwrap();
    assert!(batch < 64, "at the mean knee (64) half the answers miss: p90 {} ms", p90(64.0) * 1e3);
    assert_eq!(d.decode_batch, batch);
    let b = f64::from(batch);
    assert!(close(d.decode_rate_req_per_s, b / (256.0 * step_s(b)), 1e-3), "{}", d.decode_rate_req_per_s);
    assert!(close(d.decode_tpot_s.unwrap(), p90(b), 1e-3), "{:?}", d.decode_tpot_s);
}

#[test]
fn a_prefill_instances_rate_puts_its_p90_ttft_on_the_target() {
    let s = scenario(PREFILL_HEAVY);
    let d = disaggregated(&s, &Split::default(), &P90);
    assert!(close(d.prefill_s, prefill_time(&s).prefill_s, 1e-12));
    // The prompt's KV (8,192 - 128 / 2 = 8,128 tokens x 131,072 B) over 450 GB/s of NVLink.
    assert!(close(d.transfer_s, 8128.0 * 131_072.0 / 450e9, 1e-9), "{}", d.transfer_s);
    let ttft_s = wait_p90_by_hand(d.prefill_rate_req_per_s, d.prefill_s, 0.0) + d.prefill_s + d.transfer_s;
    assert!(close(ttft_s, 0.5, 1e-9), "p90 TTFT {ttft_s}");
    assert!(close(d.ttft_s.unwrap(), 0.5, 1e-9));
}

#[test]
fn the_system_serves_the_slower_side_and_names_it_with_the_balancing_ratio() {
    let s = scenario(PREFILL_HEAVY);
    let one = disaggregated(&s, &Split::default(), &P90);
    assert_eq!(one.binds, Binds::PrefillSide, "8k prompts: the prefill side binds");
    assert!(close(one.rate_req_per_s, one.prefill_rate_req_per_s, 1e-12));
    let ratio = one.decode_rate_req_per_s / one.prefill_rate_req_per_s;
    assert!(close(one.balanced_prefill_per_decode, ratio, 1e-12) && ratio > 2.0 && ratio < 8.0, "{ratio}");
    // Fewer prefill instances than the ratio: the prefill side binds; more: the decode side.
    let (under, over) = (ratio.floor() as u32, ratio.ceil() as u32);
    assert_eq!(
        disaggregated(&s, &Split { prefill_instances: under, ..Split::default() }, &P90).binds,
        Binds::PrefillSide
    );
    let split = Split { prefill_instances: over, ..Split::default() };
    let more = disaggregated(&s, &split, &P90);
    let expected = (f64::from(over) * one.prefill_rate_req_per_s).min(one.decode_rate_req_per_s);
    assert!(close(more.rate_req_per_s, expected, 1e-12));
    assert_eq!(more.binds, Binds::DecodeSide);
    assert_eq!(more.gpus, over + 1);
    assert!(close(more.goodput_per_gpu_req_per_s, expected / f64::from(over + 1), 1e-12));
}

#[test]
fn an_unchunked_replica_stretches_every_decode_step_by_the_time_prompts_take() {
    let s = scenario(PREFILL_HEAVY);
    let rate = 2.0;
    let p = unchunked_at(&s, rate, &P90);
    let prefill_s = prefill_time(&s).prefill_s;
    let mean = p.tpot_mean_s.unwrap();
    assert!(close(p.batch, rate * 128.0 * mean, 1e-9), "Little's law");
    let stretched = step_time_at(&s, p.batch).step_s / (1.0 - rate * prefill_s);
    assert!(close(mean, stretched, 1e-9), "{mean} vs {stretched}");
    let ttft = step_time_at(&s, p.batch).step_s + prefill_s + wait_p90_by_hand(rate, prefill_s, 0.0);
    assert!(close(p.ttft_s.unwrap(), ttft, 1e-9));
    assert!(p.tpot_s.unwrap() > mean, "p90 TPOT lies above the mean: prompts land unevenly in answers");
}

#[test]
fn a_chunked_replica_alternates_prompt_steps_and_decode_steps_and_queues_prompts_on_the_budget_left() {
    let s = scenario("");
    let rate = 10.0;
    let p = chunked_at(&s, 512, rate, &P90);
    let t = p.tpot_mean_s.unwrap();
    assert!(close(p.batch, rate * 256.0 * t, 1e-9), "Little's law");
    // A prompt step carries the decodes and s = 512 - B tokens of the 1,920-token prompt, which
    // reads (1,920 - s) / 2 of its own KV on average and does s / 1,920 of its attention.
    let chunk = 512.0 - p.batch;
    let decode = StepMix::decode(p.batch, 2048.0);
    let prompt_mix = StepMix {
        prefill_tokens: chunk,
        prefill_kv_tokens: (1920.0 - chunk) / 2.0,
        prefill_attention_flop: chunk / 1920.0 * prefill_attention_flop(&s.model, 1920),
        ..decode
    };
    let (t_d, t_p) = (step_terms(&s, &decode).step_s, step_terms(&s, &prompt_mix).step_s);
    let k = 1920.0 / chunk;
    assert!(close(t, t_d + rate * k * t * (t_p - t_d), 1e-9), "the mean step mixes both kinds");
    assert!(close(p.ttft_s.unwrap(), k * t_p + wait_p90_by_hand(rate, k * t_p, 0.0), 1e-9));
    assert!(p.tpot_s.unwrap() > t && p.tpot_s.unwrap() < s.tpot_target_s);
    assert_eq!(p.binds, Binds::Nothing);
    // Past its capacity the steady state runs away: no TPOT, no TTFT.
    let over = chunked_at(&s, 512, 40.0, &P90);
    assert_eq!((over.tpot_s, over.binds), (None, Binds::Capacity));
}

#[test]
fn sharing_steps_with_prefill_never_beats_the_prefill_free_knee_rate() {
    let s = scenario("");
    let c = compare(&s, 512, &Split::default(), &P90);
    let free = c.disaggregated.decode_rate_req_per_s; // the knee with no prefill in the steps
    assert!(c.chunked.rate_req_per_s < free && c.unchunked.rate_req_per_s < free);
    assert!(c.unchunked.rate_req_per_s < c.chunked.rate_req_per_s, "whole prompts stall the decodes");
    assert_eq!(c.unchunked.binds, Binds::Tpot);
}

#[test]
fn every_preset_pair_gives_finite_placements() {
    for m in MODELS.iter() {
        for g in GPUS.iter() {
            let s = Scenario { model: *m, gpu: *g, ..scenario("tp=8") };
            let split = Split { prefill_tp: 8, decode_tp: 8, ..Split::default() };
            let c = compare(&s, 2048, &split, &P90);
            for r in [c.chunked.rate_req_per_s, c.unchunked.rate_req_per_s, c.disaggregated.rate_req_per_s] {
                assert!(r.is_finite() && r >= 0.0, "{} on {}: {r}", m.id, g.id);
            }
        }
    }
}

#[test]
fn the_finding_names_the_placement_with_the_most_goodput_per_gpu_and_its_number() {
    use goodput_lab::view::format::placement::{finding, finding_parts, rows};
    for query in ["", PREFILL_HEAVY, "ctx=512&out=1024&tpot=40&ttft=300"] {
        let s = scenario(query);
        let split = Split { prefill_instances: 2, ..Split::default() };
        let c = compare(&s, 512, &split, &P90);
        let table = rows(&c, 512, &split, 100.0);
        let (best_split, best_d) = c.best_split.expect("a split serves");
        let per_gpu = [
            c.per_gpu(&c.chunked),
            c.per_gpu(&c.unchunked),
            c.disaggregated.goodput_per_gpu_req_per_s,
            best_d.goodput_per_gpu_req_per_s,
        ];
        let best = (0..4).fold(0, |b, i| if per_gpu[i] > per_gpu[b] { i } else { b });
        let text = finding(&c, &split);
        let best_name = format!(
            "the split {} × TP{} prefill : {} × TP{} decode",
            best_split.prefill_instances,
            best_split.prefill_tp,
            best_split.decode_instances,
            best_split.decode_tp
        );
        let names = [
            "colocated with chunked prefill",
            "colocated with whole-prompt prefill",
            "the split 2 × TP1 prefill : 1 × TP1 decode",
            &best_name,
        ];
        assert_eq!(table.len(), 4);
        let expected = format!("Per GPU, {} serves the most: {} req/s", names[best], table[best].per_gpu);
        assert!(text.starts_with(&expected), "{text}");
        assert!(text.contains("2 × TP1 prefill : 1 × TP1 decode"), "{text}");
        // A narrow embed shows the first sentence alone: it holds the answer, the second the split's side.
        let [best_part, side] = finding_parts(&c, &split);
        assert!(best_part.starts_with(&expected) && best_part.ends_with("req/s per GPU."), "{best_part}");
        assert!(side.starts_with("In the split 2 × TP1 prefill : 1 × TP1 decode, "), "{side}");
        assert_eq!(text, format!("{best_part} {side}"));
    }
}

#[test]
fn the_best_split_has_the_most_goodput_per_gpu_of_every_split_up_to_8_gpus_a_side() {
    use goodput_lab::core::placement::best_split;
    for query in ["", PREFILL_HEAVY] {
        let s = scenario(query);
        let (split, best) = best_split(&s, None, &P90).expect("a split serves");
        let mut most = 0.0_f64;
        for (x, tpp) in
            [(1, 1), (2, 1), (3, 1), (4, 1), (8, 1), (1, 2), (2, 2), (4, 2), (1, 4), (2, 4), (1, 8)]
        {
            for (y, tpd) in [(1, 1), (2, 1), (3, 1), (5, 1), (8, 1), (1, 2), (3, 2), (1, 4), (2, 4), (1, 8)] {
                let split = Split {
                    prefill_instances: x,
                    prefill_tp: tpp,
                    decode_instances: y,
                    decode_tp: tpd,
                    link_bytes_per_s: None,
                };
                most = most.max(disaggregated(&s, &split, &P90).goodput_per_gpu_req_per_s);
            }
        }
        assert!(best.goodput_per_gpu_req_per_s >= most * (1.0 - 1e-12), "{query}: {best:?} vs {most}");
        assert!(
            split.prefill_instances * split.prefill_tp <= 8 && split.decode_instances * split.decode_tp <= 8
        );
        assert!(close(
            best.goodput_per_gpu_req_per_s,
            disaggregated(&s, &split, &P90).goodput_per_gpu_req_per_s,
            1e-12
        ));
    }
}
