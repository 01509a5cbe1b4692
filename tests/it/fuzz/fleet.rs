//! Fuzz property of the fleet simulator (`core::traffic::run_fleet`): random small fleets (1 to 6
//! replicas, any routing, a tier or none, pools from nothing to a few requests' worth, tiny blocks
//! and budgets) on random small traces (shared and repeated block hashes, sessions, chains longer
//! than the prompt) and multi-turn sessions give finite numbers, no panic, hit tokens within the
//! prompt tokens, every request served or refused (none left behind), every arrival routed. And any
//! sequence of admissions, growths and finishes keeps a block cache within its pool and CPU tier.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use goodput_lab::core::scenario::WORKED_EXAMPLE;
use goodput_lab::core::sim::StepCost;
use goodput_lab::core::traffic::{
    run_fleet, BlockCache, FleetConfig, FleetReport, FleetWorkload, OffloadTier, RequestTrace, Routing,
    SessionSpec, TraceFormat, TraceRequest,
};
use goodput_lab::core::url_id::UrlId;

use super::{all_finite, check};

fn tier() -> impl Strategy<Value = Option<OffloadTier>> {
    let link =
        prop_oneof![Just(0.0), Just(-1.0), Just(f64::NAN), Just(1e-300), Just(f64::INFINITY), 1e6..1e12];
    let bytes = prop_oneof![Just(f64::MAX), Just(f64::NAN), 0.0..300_000.0];
    let t =
        (0.0..50_000.0, link, bytes).prop_map(|(capacity_tokens, link_bytes_per_s, kv_bytes_per_token)| {
            OffloadTier { capacity_tokens, link_bytes_per_s, kv_bytes_per_token }
        });
    prop_oneof![Just(None), t.prop_map(Some)]
}

fn config() -> impl Strategy<Value = FleetConfig> {
    let routing = select(Routing::VARIANTS.to_vec());
    let pool = prop_oneof![Just(0.0), 0.0..40_000.0, Just(1e7)];
    (1..=6u32, routing, tier(), 1..=1024u32, 1..=16u32, pool, 1..=64u32, 0.0..3.0, 0.0..0.1).prop_map(
        |(
            replicas,
            routing,
            tier,
            chunk_tokens,
            max_concurrency,
            kv_pool_tokens,
            block_tokens,
            ttft,
            tpot,
        )| {
            FleetConfig {
                replicas,
                routing,
                tier,
                chunk_tokens,
                max_concurrency,
                kv_pool_tokens,
                block_tokens,
                ttft_target_s: ttft,
                tpot_target_s: tpot,
            }
        },
    )
}

/// Up to 20 requests: gaps, lengths, an optional session, and a chain over a small alphabet (so
/// prefixes are shared and hashes repeat), up to two blocks longer than the prompt needs.
fn trace() -> impl Strategy<Value = RequestTrace> {
    let request = (0.0..2.0, 1..=2000u32, 1..=200u32, prop::option::of(0..4u32), vec(0..8u64, 0..40));
    (1..=64u32, vec(request, 1..=20)).prop_map(|(block_tokens, rows)| {
        let (mut t_s, mut requests, mut blocks) = (0.0, Vec::new(), Vec::new());
        for (i, (gap_s, prompt_tokens, output_tokens, session, hashes)) in rows.into_iter().enumerate() {
            t_s += if i == 0 { 0.0 } else { gap_s };
            let len = hashes.len().min(prompt_tokens.div_ceil(block_tokens) as usize + 2);
            let blocks_start = blocks.len() as u32;
            blocks.extend_from_slice(&hashes[..len]);
            let blocks_len = len as u32;
            requests.push(TraceRequest {
                arrival_s: t_s,
                prompt_tokens,
                output_tokens,
                session,
                blocks_start,
                blocks_len,
            });
        }
        RequestTrace { format: TraceFormat::Plain, block_tokens, requests, blocks }
    })
}

fn sessions() -> impl Strategy<Value = SessionSpec> {
    let lengths = (0..=1000u32, 0..=500u32, 0..=300u32, 0..=100u32);
    (0..=5u32, 1..=4u32, 0.0..10.0, lengths, 0.0..5.0, any::<u64>()).prop_map(
        |(
            sessions,
            turns,
            session_rate_per_s,
            (system_tokens, first_tokens, new_tokens, output_tokens),
            think_s,
            seed,
        )| {
            SessionSpec {
                sessions,
                turns,
                session_rate_per_s,
                system_tokens,
                first_tokens,
                new_tokens,
                output_tokens,
                think_s,
                seed,
            }
        },
    )
}

fn sound(report: &FleetReport, replicas: u32) -> Result<(), TestCaseError> {
    all_finite("fleet report", report)?;
    let hits = report.gpu_hit_tokens + report.cpu_hit_tokens;
    prop_assert!(hits <= report.prompt_tokens, "{report:?}");
    prop_assert!(report.served + report.refused == report.requests, "every request leaves: {report:?}");
    prop_assert_eq!(report.per_replica_requests.len(), replicas.max(1) as usize);
    prop_assert_eq!(report.per_replica_requests.iter().sum::<u32>(), report.requests);
    for rate in [report.hit_rate(), report.gpu_hit_rate(), report.cpu_hit_rate(), report.attainment] {
        prop_assert!((0.0..=1.0).contains(&rate), "{report:?}");
    }
    prop_assert!(report.duration_s >= 0.0 && report.transfer_s_total >= 0.0);
    Ok(())
}

#[test]
fn the_fleet_on_any_small_workload_gives_finite_numbers_hits_within_prompts_and_every_arrival_routed() {
    let cost = StepCost::new(&WORKED_EXAMPLE);
    let name =
        "the_fleet_on_any_small_workload_gives_finite_numbers_hits_within_prompts_and_every_arrival_routed";
    let workload = prop_oneof![trace().prop_map(Ok), sessions().prop_map(Err)];
    check(name, (config(), workload), |(config, workload)| {
        let report = match &workload {
            Ok(t) => run_fleet(FleetWorkload::Trace(t), &config, &cost),
            Err(spec) => run_fleet(FleetWorkload::Sessions(*spec), &config, &cost),
        };
        sound(&report, config.replicas)
    });
}

/// One step of a cache's life: admit a chain (with `extra` private blocks beyond it), grow the
/// running sequence at an index by a block, or finish it.
#[derive(Clone, Debug)]
enum CacheOp {
    Admit { chain: Vec<u64>, extra: u64 },
    Grow(usize),
    Finish(usize),
}

fn cache_ops() -> impl Strategy<Value = (u64, u64, Vec<CacheOp>)> {
    let admit = (vec(0..12u64, 0..8), 0..4u64).prop_map(|(chain, extra)| CacheOp::Admit { chain, extra });
    let op = prop_oneof![
        2 => admit,
        1 => (0..8usize).prop_map(CacheOp::Grow),
        1 => (0..8usize).prop_map(CacheOp::Finish),
    ];
    (0..16u64, 0..6u64, vec(op, 1..60))
}

/// The pool's blocks held (cached on the GPU or private) never exceed it, nor the CPU tier's its
/// capacity; pinned blocks are never evicted; when every sequence has finished nothing is private
/// and every cached block is evictable.
fn cache_sound(cache: &BlockCache, cpu_capacity_blocks: u64) -> Result<(), TestCaseError> {
    prop_assert!(cache.gpu_blocks() + cache.private_blocks() <= cache.pool_blocks(), "{cache:?}");
    prop_assert!(cache.cpu_blocks() <= cpu_capacity_blocks, "{cache:?}");
    prop_assert!(cache.gpu_evictable_blocks() <= cache.gpu_blocks());
    Ok(())
}

#[test]
fn any_sequence_of_admissions_and_finishes_keeps_the_cache_within_its_capacities() {
    let name = "any_sequence_of_admissions_and_finishes_keeps_the_cache_within_its_capacities";
    check(name, cache_ops(), |(pool_blocks, cpu_capacity_blocks, ops)| {
        let mut cache = BlockCache::new(pool_blocks, cpu_capacity_blocks);
        let mut running: Vec<(Vec<u64>, u64)> = Vec::new();
        for op in ops {
            match op {
                CacheOp::Admit { chain, extra } => {
                    let hit = cache.lookup(&chain);
                    let new_blocks = chain.len() as u64 - u64::from(hit.gpu_blocks) + extra;
                    if cache.admit(&chain, hit, new_blocks) {
                        for &hash in &chain[hit.gpu_blocks as usize..] {
                            cache.register(hash);
                        }
                        for &hash in &chain {
                            prop_assert!(cache.gpu_refs(hash).is_some_and(|r| r > 0), "{hash} pinned");
                        }
                        running.push((chain, extra));
                    }
                }
                CacheOp::Grow(i) if i < running.len() => {
                    if cache.grow() {
                        running[i].1 += 1;
                    }
                }
                CacheOp::Finish(i) if i < running.len() => {
                    let (chain, extra) = running.remove(i);
                    cache.unpin(&chain);
                    cache.release(extra);
                }
                CacheOp::Grow(_) | CacheOp::Finish(_) => {}
            }
            cache_sound(&cache, cpu_capacity_blocks)?;
        }
        for (chain, extra) in running.drain(..) {
            cache.unpin(&chain);
            cache.release(extra);
        }
        prop_assert_eq!(cache.private_blocks(), 0);
        prop_assert_eq!(cache.gpu_evictable_blocks(), cache.gpu_blocks());
        Ok(())
    });
}

/// The page's fleet (`fleet=1`) on any validated state, with a few sessions of a few turns:
/// every row finite, hits within prompts, every turn sent served or refused, the tier's rows only
/// with host memory.
#[test]
fn the_pages_fleet_on_any_validated_state_gives_finite_rows() {
    let input = (super::strategies::valid_query(), 2u32..=12, 1u32..=4, 1u32..=6, 0.0..50.0);
    check(
        "the_pages_fleet_on_any_validated_state_gives_finite_rows",
        input,
        |(q, requests, turns, replicas, think_s)| {
            let (mut inputs, _, _) = goodput_lab::state::from_page_query(&q);
            let fleet = goodput_lab::state::fleet::FleetInputs {
                open: true,
                replicas: Some(replicas),
                turns,
                think_s,
                ..inputs.sim.fleet
            };
            inputs.sim = goodput_lab::state::sim::SimInputs { requests, fleet, ..inputs.sim };
            let plan = inputs.sim_plan();
            let rows = plan.fleet_rows().expect("asked for");
            let tiers = if plan.fleet.expect("asked for").config.tier.is_some() { 6 } else { 3 };
            prop_assert_eq!(rows.len(), tiers);
            for row in &rows {
                let r = &row.report;
                all_finite(&q, &(r.duration_s, r.attainment, r.transfer_s_total, r.offloaded_bytes))?;
                prop_assert!(r.gpu_hit_tokens + r.cpu_hit_tokens <= r.prompt_tokens, "{q}");
                prop_assert!(r.served + r.refused == r.requests, "{q}: {r:?}");
                prop_assert_eq!(r.per_replica_requests.len(), replicas as usize);
            }
            Ok(())
        },
    );
}
