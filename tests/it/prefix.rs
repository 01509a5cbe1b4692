//! Prefix caching (issue 15, part 3): a hit prefills only its suffix (attending to the cached
//! prefix), the mean TTFT falls with the hit rate while the target checks the miss, the shared
//! prefix's KV is held once so the pool holds more sequences, the decode step's KV read does not
//! shrink, the simulator draws hits at the rate asked and serves them sooner, and the URL keys
//! round-trip. Each figure is checked against arithmetic written out here.

use crate::common::llama_8b::{
    BANDWIDTH, BF16_PEAK, FLOP_PER_PAIR_LAYER, KV_BYTES_PER_TOKEN, LAYERS, PARAMS,
};
use crate::common::{assert_close, worked_example};
use goodput_lab::core::derivation::derive;
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::prefill::{prefill_time, prefill_time_cached, ttft_split};
use goodput_lab::core::prefix::PrefixCache;
use goodput_lab::core::roofline::{analyze, kv_pool_batch, step_time};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    draw_prefix_hits, kv_pool_tokens, requests, simulate, Arrivals, LengthDist, Lengths, SimConfig,
};
use goodput_lab::state::prefix::prefix_stops;
use goodput_lab::state::sim::SimInputs;
use goodput_lab::state::{from_query, to_query};
use goodput_lab::view::derivation_text::lines;
use goodput_lab::view::format::prefix::{prefix_pool_note, prefix_ttft_note};

/// The worked example with a shared prefix of `prefix_tokens` found cached by `hit_rate` of requests.
fn with_prefix(prefix_tokens: u32, hit_rate: f64) -> Scenario {
    Scenario { prefix: PrefixCache { prefix_tokens, hit_rate }, ..worked_example() }
}

/// Causal query-key pairs of a p-token prompt in one layer: p(p + 1) / 2.
fn pairs(p: f64) -> f64 {
    p * (p + 1.0) / 2.0
}

#[test]
fn a_hit_prefills_only_the_suffix_whose_attention_still_covers_the_whole_prompt() {
    // A 2,048-token prompt: context 2,048 + 256 / 2 (the one rule, `core::scenario::context_for`).
    let s = Scenario { context_tokens: 2048 + 128, ..with_prefix(1024, 0.5) };
    let hit = prefill_time_cached(&s, 1024);
    // 1,024 suffix tokens: the GEMMs are compute-bound (2 x 8.03e9 x 1,024 / 989e12 = 16.6 ms
    // against 16.06 GB / 3.35 TB/s = 4.8 ms); the attention scores the suffix's pairs over the
    // whole prompt, pairs(2,048) - pairs(1,024) per layer, and reads the cached 1,024 tokens' KV.
    let gemm_s = (2.0 * PARAMS * 1024.0 / BF16_PEAK).max(2.0 * PARAMS / BANDWIDTH);
    let attention_s = (LAYERS * (pairs(2048.0) - pairs(1024.0)) * FLOP_PER_PAIR_LAYER / BF16_PEAK)
        .max(1024.0 * KV_BYTES_PER_TOKEN / BANDWIDTH);
    assert_close(hit.prefill_s, gemm_s + attention_s, 1e-9, "hit prefill = suffix GEMMs + suffix attention");
    assert_eq!((hit.prompt_tokens, hit.cached_tokens), (2048, 1024));
    let miss_s = 2.0 * PARAMS * 2048.0 / BF16_PEAK + LAYERS * pairs(2048.0) * FLOP_PER_PAIR_LAYER / BF16_PEAK;
    assert_close(prefill_time(&s).prefill_s, miss_s, 1e-9, "a miss prefills the whole prompt");
    assert!(hit.prefill_s < 0.52 * miss_s, "hit {} s, miss {miss_s} s", hit.prefill_s);
}

#[test]
fn the_mean_ttft_is_the_hit_rate_weighted_mix_and_falls_as_the_hit_rate_rises() {
    let step_s = step_time(&worked_example(), 64).step_s;
    let mut last = f64::INFINITY;
    for h in [0.0, 0.25, 0.5, 0.9, 1.0] {
        let s = with_prefix(1024, h);
        let t = ttft_split(&s, step_s);
        let hit = step_s + prefill_time_cached(&s, 1024).prefill_s;
        let miss = step_s + prefill_time(&worked_example()).prefill_s;
        let mean = if h > 0.0 { h * hit + (1.0 - h) * miss } else { miss };
        assert_close(t.mean_s, mean, 1e-12, "mean = h x hit + (1 - h) x miss");
        assert_close(evaluate(&s, 64).ttft_mean_s, mean, 1e-12, "the table's TTFT is the mean");
        assert!(t.mean_s < last, "h = {h}: mean {} s is not below {last} s", t.mean_s);
        last = t.mean_s;
    }
}

#[test]
fn the_ttft_target_checks_the_miss_while_any_request_misses_and_the_hit_when_all_hit() {
    let step_s = step_time(&worked_example(), 64).step_s;
    let miss = ttft_split(&worked_example(), step_s).miss_s;
    let half = with_prefix(1024, 0.5);
    assert_eq!(evaluate(&half, 64).ttft_s, miss, "h = 50%: the target is checked against the miss");
    assert_eq!(ttft_split(&half, step_s).target_s, miss);
    let all = with_prefix(1024, 1.0);
    let hit = ttft_split(&all, step_s).hit_s;
    assert_eq!(evaluate(&all, 64).ttft_s, hit, "h = 100%: every request hits");
    assert!(hit < miss);
    // A TTFT target between the hit and the miss: met only when every request hits.
    let target = 0.5 * (hit + miss);
    assert!(!evaluate(&Scenario { ttft_target_s: target, ..half }, 64).meets_ttft);
    assert!(evaluate(&Scenario { ttft_target_s: target, ..all }, 64).meets_ttft);
}

#[test]
fn the_pool_holds_the_shared_prefix_once_and_each_hit_only_its_suffix() {
    let free = 80e9 * 0.9 - PARAMS * 2.0;
    let pool =
        |p: f64, h: f64| ((free - p * KV_BYTES_PER_TOKEN) / ((2048.0 - h * p) * KV_BYTES_PER_TOKEN)).floor();
    assert_eq!(f64::from(kv_pool_batch(&worked_example())), (free / (2048.0 * KV_BYTES_PER_TOKEN)).floor());
    assert_eq!(kv_pool_batch(&worked_example()), 208);
    assert_eq!(f64::from(kv_pool_batch(&with_prefix(1024, 0.5))), pool(1024.0, 0.5));
    assert_eq!(f64::from(kv_pool_batch(&with_prefix(1024, 0.9))), pool(1024.0, 0.9));
    assert_eq!(kv_pool_batch(&with_prefix(1024, 0.5)), 277, "(55.94 GB - 134 MB) / 201 MB");
    assert_eq!(kv_pool_batch(&with_prefix(1024, 0.9)), 377, "(55.94 GB - 134 MB) / 148 MB");
    // No hit, no shared copy: the pool is the worked example's.
    assert_eq!(kv_pool_batch(&with_prefix(1024, 0.0)), 208);
    // The simulator's pool, in held tokens: the same free bytes less the one copy.
    assert_close(
        kv_pool_tokens(&with_prefix(1024, 0.5)),
        free / KV_BYTES_PER_TOKEN - 1024.0,
        1e-12,
        "sim pool",
    );
}

#[test]
fn a_decode_step_still_reads_every_sequences_whole_context() {
    let plain = worked_example();
    for b in [1, 64, 200] {
        assert_eq!(step_time(&with_prefix(1024, 0.9), b), step_time(&plain, b), "batch {b}");
        assert_eq!(
            step_time(&with_prefix(1024, 0.9), b).kv_read_bytes,
            f64::from(b) * 2048.0 * KV_BYTES_PER_TOKEN
        );
    }
}

#[test]
fn no_prefix_or_no_hit_changes_nothing() {
    let plain = worked_example();
    for s in [with_prefix(0, 0.9), with_prefix(1024, 0.0)] {
        assert_eq!(analyze(&s), analyze(&plain));
        assert_eq!(evaluate(&s, 64), evaluate(&plain, 64));
        assert_eq!(prefix_ttft_note(&s, &analyze(&s)), None);
        assert_eq!(prefix_pool_note(&s, &analyze(&s)), None);
    }
}

#[test]
fn a_whole_prompt_prefix_still_computes_the_prompts_last_token() {
    let s = Scenario { context_tokens: 2048 + 128, ..with_prefix(2048, 1.0) };
    assert_eq!(s.prefix.cached_tokens(2048), 2047);
    let hit = prefill_time_cached(&s, s.prefix.cached_tokens(2048));
    // One token still reads every weight (16.06 GB / 3.35 TB/s = 4.79 ms) and the cached 2,047
    // tokens' KV (0.08 ms), against 34.4 ms for the whole prompt.
    let read_s = (2.0 * PARAMS + 2047.0 * KV_BYTES_PER_TOKEN) / BANDWIDTH;
    assert_close(hit.prefill_s, read_s, 1e-9, "a one-token prefill is memory-bound");
}

#[test]
fn the_drawn_hit_share_is_the_hit_rate_on_a_long_run() {
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: 0.5 };
    let mut reqs = requests(Arrivals::Poisson, lengths, (1920.0, 256.0), 20_000, 1.0, 7);
    let before = reqs.clone();
    draw_prefix_hits(&mut reqs, PrefixCache { prefix_tokens: 1024, hit_rate: 0.3 }, 7);
    let hits = reqs.iter().filter(|r| r.cached_tokens > 0).count() as f64 / reqs.len() as f64;
    // Binomial standard error at n = 20,000: sqrt(0.3 x 0.7 / 20,000) = 0.0032; 4 of them.
    assert!((hits - 0.3).abs() < 0.013, "hit share {hits}");
    for (r, b) in reqs.iter().zip(&before) {
        assert_eq!(
            (r.arrival_s, r.prompt_tokens, r.output_tokens),
            (b.arrival_s, b.prompt_tokens, b.output_tokens)
        );
        assert!(r.cached_tokens == 0 || r.cached_tokens == 1024.min(r.prompt_tokens - 1), "{r:?}");
    }
}

/// The page's default simulator on `s`.
fn config(s: Scenario) -> SimConfig {
    SimInputs::default().config(&s)
}

#[test]
fn the_simulator_serves_prefix_hits_with_a_shorter_mean_ttft() {
    let mean_ttft = |s: Scenario| {
        let c = SimConfig { requests: 2000, ..config(s) };
        let p = simulate(&c, 20.0);
        assert_eq!(p.rejected, 0);
        p.ttft.p50_s.expect("served")
    };
    let plain = mean_ttft(worked_example());
    let half = mean_ttft(with_prefix(1024, 0.5));
    let most = mean_ttft(with_prefix(1024, 0.9));
    assert!(half < plain && most < half, "median TTFT: none {plain} s, 50% {half} s, 90% {most} s");
    // The idle replica's TTFT for one request is its prefill: a hit's is about half a miss's.
    let one =
        |s: Scenario| simulate(&SimConfig { requests: 1, ..config(s) }, 1.0).ttft.p50_s.expect("served");
    let all = with_prefix(1024, 1.0);
    assert!(one(all) < 0.6 * one(worked_example()), "{} against {}", one(all), one(worked_example()));
}

#[test]
fn the_simulator_holds_more_sequences_with_hits_before_the_pool_fills() {
    // A loose TPOT target and no cap: the pool binds the batch.
    let loose = |s: Scenario| Scenario { tpot_target_s: 0.5, ttft_target_s: 60.0, ..s };
    let peak = |s: Scenario| {
        let c = SimConfig { requests: 3000, max_concurrency: 1 << 20, ..config(loose(s)) };
        simulate(&c, 200.0)
    };
    let plain = peak(worked_example());
    let cached = peak(with_prefix(1024, 0.9));
    assert!(
        cached.batch_mean > 1.3 * plain.batch_mean,
        "mean batch {} against {}",
        cached.batch_mean,
        plain.batch_mean
    );
}

#[test]
fn the_prefix_and_hit_keys_round_trip_and_sit_after_util() {
    let (inputs, notices) = from_query("prefix=1024&hit=50");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.scenario.prefix, PrefixCache { prefix_tokens: 1024, hit_rate: 0.5 });
    let query = to_query(&inputs);
    assert!(query.contains("util=90&prefix=1024&hit=50&rate="), "{query}");
    assert_eq!(from_query(&query).0, inputs);
    assert!(!to_query(&Default::default()).contains("prefix"), "the default writes neither key");
}

#[test]
fn a_prefix_longer_than_the_prompt_or_a_bad_hit_rate_gets_a_notice_and_a_sane_value() {
    // The shared prefix is part of the prompt: 2,048 of context less 256 / 2 = 1,920 tokens.
    let (inputs, notices) = from_query("ctx=2048&prefix=5000&hit=150");
    assert_eq!(inputs.scenario.prefix, PrefixCache { prefix_tokens: 1920, hit_rate: 1.0 });
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["prefix", "hit"]);
    assert!(notices[0].message.contains("the prompt length; using 1920 tokens"), "{}", notices[0].message);
    let (inputs, notices) = from_query("prefix=lots&hit=-3");
    assert_eq!(inputs.scenario.prefix, PrefixCache::NONE);
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(
        notices[0].message.starts_with("prefix=“lots” is not a whole number of tokens"),
        "{}",
        notices[0].message
    );
}

#[test]
fn the_prefix_slider_stops_run_from_none_to_the_context() {
    let stops = prefix_stops(2048);
    assert_eq!(stops.first(), Some(&0));
    assert_eq!(stops.last(), Some(&2048));
    assert!(stops.contains(&1024) && stops.windows(2).all(|w| w[0] < w[1]), "{stops:?}");
    assert_eq!(prefix_stops(128).last(), Some(&128));
}

#[test]
fn the_table_note_and_the_derivation_state_the_split_ttft_and_the_pool_arithmetic() {
    let s = with_prefix(1024, 0.5);
    let a = analyze(&s);
    let ttft = prefix_ttft_note(&s, &a).expect("a note");
    assert!(ttft.contains("1,024 shared tokens, 50% hit") && ttft.contains("not a percentile"), "{ttft}");
    assert!(ttft.contains("checks the miss"), "{ttft}");
    let pool = prefix_pool_note(&s, &a).expect("a note");
    assert!(pool.starts_with("KV pool: 277 sequences"), "{pool}");
    assert!(
        pool.contains("2,048 − 50% × 1,024 = 1,536 tokens") && pool.contains("208 without the cache"),
        "{pool}"
    );
    let line = lines(&s, &derive(&s, &a)).into_iter().find(|l| l.id == "pool").expect("a pool line");
    assert!(line.formula.contains("shared prefix KV, held once"), "{}", line.formula);
    assert!(line.numbers.contains("134 MB") && line.numbers.contains("201 MB"), "{}", line.numbers);
    assert_eq!(line.result, "277 sequences");
}
