//! Speculative decoding's arithmetic: E, the verify step, TPOT and tokens/s, the pool and the
//! crossover batch, each against independent arithmetic.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::model::{decode_attention_flop, params_read};
use goodput_lab::core::prefix::PrefixCache;
use goodput_lab::core::presets::{model_by_id, MODELS};
use goodput_lab::core::roofline::{
    analyze, crossover_batch, draft_memory, effective_bandwidth_bytes_per_s, expected_tokens_per_step,
    kv_bytes_per_seq, kv_pool_batch, kv_pool_held_tokens, kv_pool_sequences, peak_flop_per_s, step_terms,
    step_time, usable_hbm_bytes, weight_bytes, StepMix,
};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::kv_pool_tokens;
use goodput_lab::core::spec::{Drafter, Speculation};

/// Llama 3.1 8B on one H100 SXM drafted by Llama 3.2 1B, k = 4, alpha = 0.7 (the issue's scenario).
fn with_draft(k: u32, alpha: f64) -> Scenario {
    let draft = *model_by_id("llama-3.2-1b").expect("preset");
    let speculation = Speculation { drafter: Drafter::Model(draft), draft_tokens: k, acceptance: alpha };
    Scenario { speculation, ..worked_example() }
}

fn with_head(fraction: f64) -> Scenario {
    let speculation = Speculation {
        drafter: Drafter::Head { layer_cost_fraction: fraction },
        draft_tokens: 3,
        acceptance: 0.8,
    };
    Scenario { speculation, ..worked_example() }
}

#[test]
fn expected_tokens_equal_the_direct_sum_of_the_geometric_series() {
    for k in 1..=8 {
        for alpha in [0.0, 0.1, 0.5, 0.7, 0.9, 0.99] {
            let direct: f64 = (0..=k).map(|i| f64::powi(alpha, i as i32)).sum();
            assert_close(
                expected_tokens_per_step(k, alpha),
                direct,
                1e-12,
                &format!("E at k={k}, alpha={alpha}"),
            );
        }
        assert_eq!(expected_tokens_per_step(k, 1.0), f64::from(k + 1), "alpha 1 keeps every draft");
    }
    assert_eq!(expected_tokens_per_step(4, 0.0), 1.0, "alpha 0 keeps only the target's token");
}

#[test]
fn verify_step_prices_b_times_k_plus_1_gemm_tokens_and_reads_weights_and_kv_once() {
    let s = with_draft(4, 0.7);
    let (b, k) = (32.0, 4.0);
    let terms = step_terms(&s, &StepMix { verify_draft_tokens: k, ..StepMix::decode(b, 2048.0) });
    let bw = effective_bandwidth_bytes_per_s(&s);
    let peak = peak_flop_per_s(&s);
    // Independent arithmetic: weights read once (dense: all params x 2 B), KV once, FLOPs x (k + 1).
    let weights_s = s.model.params * 2.0 / bw;
    let gemm_flop_s = 2.0 * s.model.active_params * b * (k + 1.0) / peak;
    let kv_s = b * kv_bytes_per_seq(&s) / bw;
    let attention_s = b * (k + 1.0) * decode_attention_flop(&s.model, 2048) / peak;
    let expected = weights_s.max(gemm_flop_s) + kv_s.max(attention_s);
    assert_close(terms.step_s, expected, 1e-12, "verify step");
    assert_eq!(terms.gemm.bytes, params_read(&s.model, b * (k + 1.0)) * 2.0, "weights read once");
}

#[test]
fn tpot_is_draft_plus_verify_over_e_and_tokens_per_s_is_b_e_over_the_step() {
    let s = with_draft(4, 0.7);
    let draft_s =
        Scenario { model: *model_by_id("llama-3.2-1b").unwrap(), speculation: Speculation::OFF, ..s };
    for b in [1_u32, 16, 64, 128] {
        let p = evaluate(&s, b);
        let spec = p.step.speculative.expect("speculation is on");
        let bf = f64::from(b);
        let draft = 4.0 * step_terms(&draft_s, &StepMix::decode(bf, 2048.0)).step_s;
        let verify =
            step_terms(&s, &StepMix { verify_draft_tokens: 4.0, ..StepMix::decode(bf, 2048.0) }).step_s;
        let e = (1.0 - 0.7_f64.powi(5)) / 0.3;
        assert_close(spec.draft_s, draft, 1e-12, "draft time");
        assert_close(spec.verify_s, verify, 1e-12, "verify time");
        assert_close(p.step.step_s, (draft + verify) / e, 1e-12, "TPOT");
        assert_close(p.tokens_per_s, bf * e / (draft + verify), 1e-12, "tokens/s");
        assert_close(p.throughput_req_per_s, bf * e / (draft + verify) / 256.0, 1e-12, "requests/s");
    }
}

#[test]
fn a_head_drafts_at_its_fraction_of_one_target_layer() {
    let s = with_head(0.5);
    let p = evaluate(&s, 16);
    let plain = step_time(&worked_example(), 16).step_s;
    let spec = p.step.speculative.expect("on");
    assert_close(spec.draft_s, 3.0 * 0.5 * plain / 32.0, 1e-12, "3 drafts x half of one of 32 layers");
}

#[test]
fn the_pool_shrinks_by_the_drafters_weights_and_kv() {
    let s = with_draft(4, 0.7);
    let plain = worked_example();
    let draft =
        Scenario { model: *model_by_id("llama-3.2-1b").unwrap(), speculation: Speculation::OFF, ..plain };
    let free = usable_hbm_bytes(&s) - weight_bytes(&s) - weight_bytes(&draft);
    let expected = (free / (kv_bytes_per_seq(&s) + kv_bytes_per_seq(&draft))).floor() as u32;
    assert_eq!(kv_pool_batch(&s), expected, "pool with the draft's weights and KV");
    assert!(kv_pool_batch(&s) < kv_pool_batch(&plain), "the draft takes memory from the pool");
    let tokens = (free / (kv_bytes_per_seq(&s) + kv_bytes_per_seq(&draft))) * 2048.0;
    assert_close(kv_pool_tokens(&s), tokens, 1e-12, "the simulator's pool in tokens");
    let head = with_head(1.0);
    let m = draft_memory(&head);
    assert_close(m.weight_bytes_per_gpu, weight_bytes(&plain) / 32.0, 1e-12, "a head of one layer's params");
    assert!(kv_pool_batch(&head) < kv_pool_batch(&plain), "a head's layer takes memory too");
}

#[test]
fn with_a_draft_and_a_shared_prefix_the_analytic_pool_is_the_simulators_held_tokens_per_sequence() {
    // The draft model's KV of the shared prefix is held once too, as in the simulator's unit.
    for (p, h) in [(1024, 0.5), (1024, 0.9), (2047, 1.0), (300, 0.25)] {
        let prefix = PrefixCache { prefix_tokens: p, hit_rate: h };
        let s = Scenario { prefix, ..with_draft(4, 0.7) };
        let held = prefix.private_tokens_mean(s.context_tokens, s.prompt_tokens());
        let sim = kv_pool_tokens(&s) / held;
        assert_close(kv_pool_sequences(&s), sim, 1e-9, "analytic pool = sim's tokens / held tokens");
        assert_eq!(kv_pool_held_tokens(&s), kv_pool_tokens(&s), "one formula for the held tokens");
        assert_eq!(f64::from(kv_pool_batch(&s)), kv_pool_sequences(&s).floor());
        // By hand: the prefix's C tokens of target + draft KV held once, the rest per sequence.
        let draft = Scenario { model: *model_by_id("llama-3.2-1b").expect("preset"), ..worked_example() };
        let per_token = (kv_bytes_per_seq(&s) + kv_bytes_per_seq(&draft)) / 2048.0;
        let free = usable_hbm_bytes(&s) - weight_bytes(&s) - weight_bytes(&draft);
        // The cached tokens are within the 1,920-token prompt (2,048 of context less 256 / 2).
        let cached = f64::from(p.min(1919));
        let by_hand = (free - cached * per_token) / ((2048.0 - h * cached) * per_token);
        assert_close(kv_pool_sequences(&s), by_hand, 1e-9, "pool by hand");
    }
}

/// The smallest batch in 1..=limit where speculation's tokens/s is at most plain decode's.
fn brute_force_crossover(s: &Scenario, limit: u32) -> Option<u32> {
    let plain = Scenario { speculation: Speculation::OFF, ..*s };
    (1..=limit).find(|&b| evaluate(s, b).tokens_per_s <= evaluate(&plain, b).tokens_per_s)
}

#[test]
fn crossover_batch_matches_a_brute_force_scan() {
    let mut scenarios = vec![with_draft(4, 0.7), with_draft(8, 0.5), with_draft(2, 0.9), with_head(0.3)];
    for m in MODELS.iter().filter(|m| m.params < 40e9) {
        scenarios.push(Scenario { model: *m, ..with_draft(4, 0.6) });
    }
    for s in scenarios {
        let found = crossover_batch(&s);
        let scan = brute_force_crossover(&s, 1 << 13);
        match found {
            Some(b) if b <= 1 << 13 => {
                assert_eq!(Some(b), scan, "{} drafted by k={}", s.model.id, s.speculation.draft_tokens)
            }
            _ => assert_eq!(scan, None, "{}: none up to 8192", s.model.id),
        }
    }
}

#[test]
fn issue_15_closing_figures_for_llama_8b_with_a_1b_draft() {
    let s = with_draft(4, 0.7);
    let with = analyze(&s);
    let without = analyze(&worked_example());
    println!(
        "crossover {:?}, knee with {} (exact {:.2}), without {} (exact {:.2}), pool with {} without {}",
        crossover_batch(&s),
        with.knee_batch,
        with.knee_exact,
        without.knee_batch,
        without.knee_exact,
        with.kv_pool_batch,
        without.kv_pool_batch
    );
    assert!(with.knee_batch > without.knee_batch, "speculation moves the knee right");
}

/// The configuration search's colocated row for the worked example's configuration.
fn search_row(s: Scenario) -> goodput_lab::core::search::Row {
    use goodput_lab::core::precision::Precision;
    use goodput_lab::core::presets::GPU_PRICES;
    use goodput_lab::core::search::{row_for, Config, Layout, SearchSpec};
    let spec = SearchSpec {
        scenario: s,
        chunk_tokens: 512,
        load_req_per_s: 100.0,
        usd_per_gpu_hour: GPU_PRICES.map(|p| p.usd_per_gpu_hour),
        link_bytes_per_s: None,
        percentile: goodput_lab::core::placement::Percentile::P90_FIXED,
        energy: goodput_lab::core::energy::EnergyPrice::FREE,
    };
    let config = Config {
        gpu_index: 0,
        weight_precision: Precision::Bf16,
        kv_precision: Precision::Bf16,
        layout: Layout::Colocated { parallel: goodput_lab::core::parallel::Parallelism::tp(1) },
    };
    row_for(&spec, &config).expect("the worked example's configuration runs")
}

#[test]
fn search_rows_price_speculation_a_chunked_step_with_draft_and_verify_over_e() {
    use goodput_lab::core::placement::chunked_best;
    let (s, plain) = (with_draft(4, 0.7), worked_example());
    let (with, without) = (search_row(s), search_row(plain));
    println!(
        "search row: {} req/s ({:?}) with, {} ({:?}) without",
        with.rate_req_per_s, with.binds, without.rate_req_per_s, without.binds
    );
    assert_ne!(with.rate_req_per_s, without.rate_req_per_s, "the row prices speculation");
    assert!(with.tpot_s <= s.tpot_target_s);
    // The chunked operating point at the row's rate: its step is draft + verify of its decodes
    // (k + 1 tokens each) beside the prompts' chunks, and TPOT is that step over E.
    let op = chunked_best(&s, 512, &goodput_lab::core::placement::Percentile::P90_FIXED);
    assert_close(op.rate_req_per_s, with.rate_req_per_s, 1e-12, "the row is the chunked best");
    let e = expected_tokens_per_step(4, 0.7);
    // The mean step (the p90 TPOT lies above it).
    let t = op.tpot_mean_s.unwrap() * e;
    let decodes = op.rate_req_per_s * 256.0 / e * t;
    assert_close(op.batch, decodes, 1e-9, "B = rate x output / E x t");
    let mix = StepMix {
        decode_seqs: decodes,
        decode_kv_tokens: decodes * 2048.0,
        verify_draft_tokens: 4.0,
        ..StepMix::default()
    };
    let verify_gemm_tokens = step_terms(&s, &mix).gemm.flop / (2.0 * s.model.active_params);
    assert_close(verify_gemm_tokens, decodes * 5.0, 1e-12, "verify GEMM tokens B(k + 1) without prefill");
}
