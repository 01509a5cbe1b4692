//! The fleet simulator (`core::traffic::run_fleet`): the offload tier's transfer cost written out,
//! the tier against recomputing, multi-turn sessions (arrival after the answer, prompt = context +
//! new tokens, hits on the previous context), agreement with the single-replica engine without
//! reuse, determinism and degenerate configurations.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::roofline::kv_bytes_per_held_token;
use goodput_lab::core::sim::{
    kv_pool_tokens, requests, run, Arrivals, LengthDist, Lengths, Load, ReplicaConfig, StepCost, StepWork,
};
use goodput_lab::core::traffic::{
    run_fleet, run_fleet_requests, FleetConfig, FleetReport, FleetWorkload, OffloadTier, RequestTrace,
    Routing, SessionSpec, TraceFormat, TraceRequest,
};

/// A trace of (arrival s, prompt, output, block hashes), no sessions.
pub fn trace(block_tokens: u32, reqs: &[(f64, u32, u32, Vec<u64>)]) -> RequestTrace {
    let mut blocks = Vec::new();
    let requests = reqs
        .iter()
        .map(|(arrival_s, prompt_tokens, output_tokens, hashes)| {
            let r = TraceRequest {
                arrival_s: *arrival_s,
                prompt_tokens: *prompt_tokens,
                output_tokens: *output_tokens,
                session: None,
                blocks_start: blocks.len() as u32,
                blocks_len: hashes.len() as u32,
            };
            blocks.extend_from_slice(hashes);
            r
        })
        .collect();
    RequestTrace { format: TraceFormat::Plain, block_tokens, requests, blocks }
}

/// One replica of the worked example (Llama 3.1 8B on H100), no tier, a big pool.
pub fn fleet(replicas: u32, routing: Routing) -> FleetConfig {
    FleetConfig {
        replicas,
        routing,
        tier: None,
        chunk_tokens: 512,
        max_concurrency: 64,
        kv_pool_tokens: kv_pool_tokens(&worked_example()),
        block_tokens: 256,
        ttft_target_s: 2.0,
        tpot_target_s: 0.05,
    }
}

pub fn cost() -> StepCost {
    StepCost::new(&worked_example())
}

const LINK_FAST_BYTES_PER_S: f64 = 64e9;

fn tier(link_bytes_per_s: f64) -> Option<OffloadTier> {
    Some(OffloadTier::for_scenario(&worked_example(), 1e7, link_bytes_per_s))
}

/// A's 10 blocks (512 tokens each) are cached, C's admission (pool 11 blocks) evicts 9 of them
/// (tail first; block 1 stays), then B repeats A's prompt: 1 block on the GPU, 9 on the CPU tier.
fn evicted_then_repeated() -> RequestTrace {
    let a: Vec<u64> = (1..=10).collect();
    let c: Vec<u64> = (101..=110).collect();
    trace(512, &[(0.0, 5120, 1, a.clone()), (10.0, 5120, 1, c), (20.0, 5120, 1, a)])
}

fn repeat_config(tier: Option<OffloadTier>) -> FleetConfig {
    FleetConfig { tier, chunk_tokens: 8192, kv_pool_tokens: 11.0 * 512.0, ..fleet(1, Routing::RoundRobin) }
}

#[test]
fn a_cpu_hit_costs_blocks_times_block_tokens_times_bytes_over_the_link_and_beats_recomputing_on_a_fast_link()
{
    let cost = cost();
    let t = evicted_then_repeated();
    let (with, reqs) =
        run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(tier(LINK_FAST_BYTES_PER_S)), &cost);
    let bytes_per_token = kv_bytes_per_held_token(&worked_example());
    assert_eq!(bytes_per_token, 131072.0, "Llama 3.1 8B BF16: 32 layers x 8 KV heads x 128 x 2 x 2 B");
    let transfer_s = 9.0 * 512.0 * 131072.0 / 64e9;
    assert_close(with.transfer_s_total, transfer_s, 1e-12, "9 blocks x 512 tokens x 131,072 B / 64 GB/s");
    assert_eq!(
        (reqs[2].gpu_hit_tokens, reqs[2].cpu_hit_tokens),
        (512, 5119 - 512),
        "hits stop at prompt - 1"
    );
    assert_eq!((with.evicted_blocks, with.offloaded_blocks), (18, 18));
    // B waits for its copy, then prefills its last token over 5,119 tokens of KV.
    let last = StepWork {
        prefill_tokens: 1,
        prefill_attention_flop: cost.chunk_attention_flop(5119, 1),
        prefill_kv_tokens: 5119.0,
        ..StepWork::default()
    };
    assert_close(reqs[2].ttft_s, transfer_s + cost.step_s(&last), 1e-9, "TTFT with the tier");
    let (without, plain) = run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(None), &cost);
    let recompute = StepWork {
        prefill_tokens: 4608,
        prefill_attention_flop: cost.chunk_attention_flop(512, 4608),
        prefill_kv_tokens: 512.0,
        ..StepWork::default()
    };
    assert_eq!((plain[2].gpu_hit_tokens, plain[2].cpu_hit_tokens, without.transfer_s_total), (512, 0, 0.0));
    assert_close(plain[2].ttft_s, cost.step_s(&recompute), 1e-9, "TTFT recomputing 9 blocks");
    assert!(
        reqs[2].ttft_s < plain[2].ttft_s,
        "{} s with the tier, {} s without",
        reqs[2].ttft_s,
        plain[2].ttft_s
    );
}

#[test]
fn a_cpu_hit_over_a_slow_link_takes_longer_than_recomputing() {
    let cost = cost();
    let t = evicted_then_repeated();
    let slow = run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(tier(1e9)), &cost).1;
    let plain = run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(None), &cost).1;
    assert!(
        slow[2].ttft_s > plain[2].ttft_s,
        "{} s over 1 GB/s, {} s recomputing",
        slow[2].ttft_s,
        plain[2].ttft_s
    );
}

/// Chat sessions whose contexts outgrow one replica's GPU cache (a 48k-token pool).
pub fn chat(sessions: u32) -> SessionSpec {
    SessionSpec {
        sessions,
        turns: 4,
        session_rate_per_s: 2.0,
        system_tokens: 512,
        first_tokens: 2048,
        new_tokens: 256,
        output_tokens: 128,
        think_s: 10.0,
        seed: 3,
    }
}

#[test]
fn the_tier_lowers_ttft_on_sessions_whose_contexts_outgrow_the_gpu_cache() {
    let cost = cost();
    let small = FleetConfig { kv_pool_tokens: 48_000.0, ..fleet(1, Routing::RoundRobin) };
    let work = FleetWorkload::Sessions(chat(40));
    let without = run_fleet(work, &small, &cost);
    let with = run_fleet(work, &FleetConfig { tier: tier(LINK_FAST_BYTES_PER_S), ..small }, &cost);
    assert!(without.evicted_blocks > 0, "the contexts must outgrow the GPU cache");
    assert!(with.cpu_hit_tokens > 0 && with.hit_rate() > without.hit_rate());
    let (p50, p50_without) = (with.ttft.p50_s.unwrap(), without.ttft.p50_s.unwrap());
    let (p90, p90_without) = (with.ttft.p90_s.unwrap(), without.ttft.p90_s.unwrap());
    assert!(
        p50 < p50_without && p90 < p90_without,
        "p50 {p50} / {p50_without} s, p90 {p90} / {p90_without} s"
    );
}

#[test]
fn a_tier_of_zero_capacity_gives_the_run_without_a_tier() {
    let cost = cost();
    let small = FleetConfig { kv_pool_tokens: 48_000.0, ..fleet(2, Routing::LeastLoaded) };
    let zero = OffloadTier { capacity_tokens: 0.0, ..tier(LINK_FAST_BYTES_PER_S).unwrap() };
    let work = FleetWorkload::Sessions(chat(20));
    let without = run_fleet(work, &small, &cost);
    assert_eq!(run_fleet(work, &FleetConfig { tier: Some(zero), ..small }, &cost), without);
    assert!(without.evicted_blocks > 0);
}

#[test]
fn each_turn_arrives_a_think_time_after_the_answer_with_the_whole_context_and_hits_its_full_blocks() {
    let spec = chat(6);
    let (report, reqs) =
        run_fleet_requests(FleetWorkload::Sessions(spec), &fleet(1, Routing::RoundRobin), &cost());
    assert_eq!(report.evicted_blocks, 0, "a big pool: nothing is evicted");
    assert_eq!((report.requests, report.served), (24, 24));
    for session in 0..6 {
        let mut turns: Vec<_> = reqs.iter().filter(|r| r.session == Some(session)).collect();
        turns.sort_by_key(|r| r.turn);
        assert_eq!(turns.len(), 4);
        assert_eq!(turns[0].prompt_tokens, 512 + 2048);
        for k in 1..4 {
            let (prev, turn) = (turns[k - 1], turns[k]);
            let think_s = spec.think_before_s(session, k as u32);
            assert_eq!(turn.arrival_s, prev.finish_s + think_s, "arrival = answer + think time");
            assert!(think_s > 0.0 && prev.finish_s > prev.arrival_s);
            assert_eq!(turn.prompt_tokens, prev.prompt_tokens + 128 + 256, "previous context + new tokens");
            // The answer's last token is never fed back: the full blocks of prompt + 127 tokens.
            let full_blocks_tokens = (prev.prompt_tokens + 127) / 256 * 256;
            assert_eq!(
                (turn.gpu_hit_tokens, turn.cpu_hit_tokens),
                (full_blocks_tokens, 0),
                "session {session} turn {k}"
            );
        }
    }
}

#[test]
fn a_first_turn_after_another_sessions_prompt_hits_the_shared_system_prompt() {
    let (_, reqs) =
        run_fleet_requests(FleetWorkload::Sessions(chat(6)), &fleet(1, Routing::RoundRobin), &cost());
    let first_token_s = reqs[0].arrival_s + reqs[0].ttft_s;
    let later: Vec<_> = reqs.iter().filter(|r| r.turn == 0 && r.arrival_s > first_token_s).collect();
    assert!(!later.is_empty());
    for r in later {
        assert_eq!(r.gpu_hit_tokens, 512, "the system prompt's 2 blocks of 256 tokens");
    }
}

/// The same requests as a trace without block hashes (no reuse).
fn as_trace(reqs: &[goodput_lab::core::sim::Request]) -> RequestTrace {
    let rows: Vec<_> =
        reqs.iter().map(|r| (r.arrival_s, r.prompt_tokens, r.output_tokens, Vec::new())).collect();
    trace(16, &rows)
}

#[test]
fn one_replica_without_reuse_gives_the_single_replica_engines_ttft_and_tpot() {
    let cost = cost();
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: 0.5 };
    let reqs = requests(Arrivals::Poisson, lengths, (1000.0, 200.0), 400, 12.0, 5);
    let config = fleet(1, Routing::RoundRobin);
    let server = ReplicaConfig {
        chunk_tokens: config.chunk_tokens,
        max_concurrency: config.max_concurrency,
        kv_pool_tokens: config.kv_pool_tokens,
        prefill_free: false,
        tpot_target_s: config.tpot_target_s,
    };
    let engine = run(&reqs, server, cost, Load::Open);
    assert_eq!((engine.preemptions, engine.rejected), (0, 0), "the pool never binds: both admit alike");
    let t = as_trace(&reqs);
    let (report, fleet_reqs) = run_fleet_requests(FleetWorkload::Trace(&t), &config, &cost);
    assert_eq!((report.served, report.gpu_hit_tokens), (400, 0));
    assert!(engine.ttft_s.iter().sum::<f64>() > 400.0 * 0.02, "a loaded server: queues form");
    for (i, r) in fleet_reqs.iter().enumerate() {
        assert_close(r.ttft_s, engine.ttft_s[i], 1e-9, &format!("TTFT of request {i}"));
        assert_close(r.tpot_s, engine.tpot_s[i], 1e-9, &format!("TPOT of request {i}"));
    }
}

fn same_report_twice(work: FleetWorkload<'_>, config: &FleetConfig) -> FleetReport {
    let first = run_fleet(work, config, &cost());
    assert_eq!(first, run_fleet(work, config, &cost()), "same inputs, same report");
    for x in
        [first.duration_s, first.attainment, first.transfer_s_total, first.offloaded_bytes, first.hit_rate()]
    {
        assert!(x.is_finite() && x >= 0.0, "{first:?}");
    }
    assert!(
        first.served <= first.requests && first.gpu_hit_tokens + first.cpu_hit_tokens <= first.prompt_tokens
    );
    first
}

#[test]
fn the_same_inputs_give_the_same_report_bit_for_bit() {
    let config = FleetConfig {
        tier: tier(LINK_FAST_BYTES_PER_S),
        kv_pool_tokens: 20_000.0,
        ..fleet(3, Routing::Affinity)
    };
    let report = same_report_twice(FleetWorkload::Sessions(chat(30)), &config);
    assert!(report.cpu_hit_tokens > 0 && report.served == 120, "{report:?}");
}

#[test]
fn a_request_whose_context_outgrows_the_pool_is_refused_and_counted() {
    let t = trace(16, &[(0.0, 100, 10, vec![]), (1.0, 1000, 10, vec![]), (2.0, 10, 5, vec![])]);
    let config = FleetConfig { kv_pool_tokens: 200.0, ..fleet(1, Routing::RoundRobin) };
    let (report, reqs) = run_fleet_requests(FleetWorkload::Trace(&t), &config, &cost());
    assert_eq!((report.requests, report.served, report.refused), (3, 2, 1));
    assert!(reqs[1].refused && reqs[1].ttft_s.is_infinite() && !reqs[0].refused && !reqs[2].refused);
    let none = same_report_twice(FleetWorkload::Trace(&t), &FleetConfig { kv_pool_tokens: 0.0, ..config });
    assert_eq!((none.served, none.refused, none.ttft.p50_s, none.attainment), (0, 3, None, 0.0));
}

#[test]
fn one_request_and_sixty_four_replicas_give_finite_numbers() {
    let one = trace(16, &[(0.0, 300, 20, (1..=18).collect())]);
    let report = same_report_twice(FleetWorkload::Trace(&one), &fleet(1, Routing::LeastLoaded));
    assert_eq!((report.served, report.per_replica_requests.clone()), (1, vec![1]));
    let wide = same_report_twice(FleetWorkload::Sessions(chat(30)), &fleet(64, Routing::LeastLoaded));
    assert_eq!((wide.served, wide.per_replica_requests.len()), (120, 64));
    let empty = SessionSpec { sessions: 0, ..chat(0) };
    assert_eq!(same_report_twice(FleetWorkload::Sessions(empty), &fleet(4, Routing::Affinity)).requests, 0);
}

#[test]
fn a_fleet_report_and_its_comparison_cross_a_worker_boundary_as_postcard_bytes_unchanged() {
    let config = FleetConfig {
        tier: tier(LINK_FAST_BYTES_PER_S),
        kv_pool_tokens: 20_000.0,
        ..fleet(2, Routing::Affinity)
    };
    let rows = goodput_lab::core::traffic::compare(FleetWorkload::Sessions(chat(8)), &config, &cost());
    assert_eq!(rows.len(), 6, "3 routings x without and with the tier");
    assert_eq!(rows.iter().filter(|r| r.tier).count(), 3);
    let bytes = postcard::to_allocvec(&rows).unwrap();
    let back: Vec<goodput_lab::core::traffic::FleetRow> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, rows);
    let config_bytes = postcard::to_allocvec(&(config, chat(8))).unwrap();
    assert_eq!(postcard::from_bytes::<(FleetConfig, SessionSpec)>(&config_bytes).unwrap(), (config, chat(8)));
}

#[test]
fn one_replica_with_one_token_blocks_preempts_as_the_engine_does_where_the_pool_binds() {
    let cost = cost();
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: 0.5 };
    let reqs = requests(Arrivals::Poisson, lengths, (1000.0, 200.0), 400, 12.0, 5);
    let config = FleetConfig { kv_pool_tokens: 25_000.0, ..fleet(1, Routing::RoundRobin) };
    let server = ReplicaConfig {
        chunk_tokens: config.chunk_tokens,
        max_concurrency: config.max_concurrency,
        kv_pool_tokens: config.kv_pool_tokens,
        prefill_free: false,
        tpot_target_s: config.tpot_target_s,
    };
    let engine = run(&reqs, server, cost, Load::Open);
    assert!(engine.preemptions > 10, "the pool binds: {} preemptions", engine.preemptions);
    let mut t = as_trace(&reqs);
    t.block_tokens = 1;
    let (report, fleet_reqs) = run_fleet_requests(FleetWorkload::Trace(&t), &config, &cost);
    assert_eq!(report.preemptions, engine.preemptions);
    for (i, r) in fleet_reqs.iter().enumerate() {
        assert_close(r.ttft_s, engine.ttft_s[i], 1e-9, &format!("TTFT of request {i}"));
        assert_close(r.tpot_s, engine.tpot_s[i], 1e-9, &format!("TPOT of request {i}"));
    }
}

#[test]
fn a_tier_whose_block_copy_would_outlast_any_run_is_no_tier_and_the_copy_time_stays_finite() {
    // 512 tokens x 131,072 B over 1e-300 B/s: 6.7e307 s a block, finite but never ending; a few such
    // copies summed overflowed to infinity (a fleet fuzz case).
    let cost = cost();
    let t = evicted_then_repeated();
    let (slow, reqs) = run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(tier(1e-300)), &cost);
    let (none, plain) = run_fleet_requests(FleetWorkload::Trace(&t), &repeat_config(None), &cost);
    assert_eq!((slow.transfer_s_total, reqs[2].cpu_hit_tokens), (0.0, 0), "no usable tier");
    assert_eq!(reqs[2].ttft_s, plain[2].ttft_s, "the same as without one");
    assert_eq!(slow.transfer_s_total, none.transfer_s_total);
}
