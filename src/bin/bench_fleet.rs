//! `cargo run --release --bin bench_fleet`: the fleet simulator's native speed and its comparison
//! table. A Mooncake-like synthetic trace (100,000 requests, Poisson arrivals, log-normal prompts of
//! mean 8,000 tokens in 512-token blocks, outputs of mean 350, about half of each prompt a prefix
//! shared with others of its group) through 4 replicas of the worked example (Llama 3.1 8B BF16 on
//! H100); prints the wall time of one run (the budget: <= 1 s), then every routing policy with and
//! without a CPU tier on that trace and on multi-turn chat sessions (`--time-only`: the timings
//! alone). Not a test: a measurement.

use std::time::Instant;

use goodput_lab::core::roofline::kv_bytes_per_held_token;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    kv_pool_tokens, percentiles, requests, run, Arrivals, LengthDist, Lengths, Load, ReplicaConfig, Rng,
    StepCost,
};
use goodput_lab::core::traffic::{
    compare, run_fleet, FleetConfig, FleetWorkload, OffloadTier, RequestTrace, Routing, SessionSpec,
    TraceFormat, TraceRequest,
};
use goodput_lab::state::Inputs;

const BLOCK_TOKENS: u32 = 512;

/// A log-normal draw of mean `mean` and coefficient of variation `cv`, at least 1.
fn lognormal(rng: &mut Rng, mean: f64, cv: f64) -> u32 {
    let var = (1.0 + cv * cv).ln();
    (mean * (var.sqrt() * rng.normal() - var / 2.0).exp()).round().clamp(1.0, 131_072.0) as u32
}

/// `count` Mooncake-like requests at `rate_per_s`: each picks one of 200 prefix groups (a few
/// popular: group = 200 u^3), shares the group's leading blocks for half of its prompt's blocks,
/// and hashes the rest as its own.
fn mooncake_like(count: u32, rate_per_s: f64, seed: u64) -> RequestTrace {
    let mut rng = Rng::new(seed);
    let (mut requests, mut blocks) = (Vec::new(), Vec::new());
    let mut t_s = 0.0;
    for i in 0..count {
        if i > 0 {
            t_s += rng.exponential() / rate_per_s;
        }
        let prompt_tokens = lognormal(&mut rng, 8000.0, 0.8);
        let output_tokens = lognormal(&mut rng, 350.0, 0.8);
        let group = (200.0 * rng.unit().powi(3)) as u64;
        let n = prompt_tokens.div_ceil(BLOCK_TOKENS);
        let start = blocks.len() as u32;
        for b in 0..n {
            blocks.push(if b < n / 2 {
                (group << 32) | u64::from(b)
            } else {
                (1 << 63) | (u64::from(i) << 20) | u64::from(b)
            });
        }
        let session = None;
        requests.push(TraceRequest {
            arrival_s: t_s,
            prompt_tokens,
            output_tokens,
            session,
            blocks_start: start,
            blocks_len: n,
        });
    }
    RequestTrace { format: TraceFormat::Mooncake, block_tokens: BLOCK_TOKENS, requests, blocks }
}

fn config(scenario: &Scenario) -> FleetConfig {
    FleetConfig {
        replicas: 4,
        routing: Routing::LeastLoaded,
        tier: Some(OffloadTier {
            capacity_tokens: 2e6,
            link_bytes_per_s: 64e9,
            kv_bytes_per_token: kv_bytes_per_held_token(scenario),
        }),
        chunk_tokens: 2048,
        max_concurrency: 64,
        kv_pool_tokens: kv_pool_tokens(scenario),
        block_tokens: BLOCK_TOKENS,
        ttft_target_s: 2.0,
        tpot_target_s: 0.05,
    }
}

fn ms(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |s| format!("{:.0}", s * 1e3))
}

fn table(name: &str, workload: FleetWorkload<'_>, base: &FleetConfig, cost: &StepCost) {
    println!(
        "{name}: routing tier | hit (gpu+cpu) | TTFT p50 p90 p99 ms | TPOT p50 p90 ms | attain | per replica"
    );
    for row in compare(workload, base, cost) {
        let r = &row.report;
        println!(
            "  {:?} {} | {:.3} ({:.3}+{:.3}) | {} {} {} | {} {} | {:.3} | {:?}",
            row.routing,
            if row.tier { "cpu" } else { "none" },
            r.hit_rate(),
            r.gpu_hit_rate(),
            r.cpu_hit_rate(),
            ms(r.ttft.p50_s),
            ms(r.ttft.p90_s),
            ms(r.ttft.p99_s),
            ms(r.tpot.p50_s),
            ms(r.tpot.p90_s),
            r.attainment,
            r.per_replica_requests
        );
    }
}

/// The single-replica engine and a 1-replica fleet without reuse on the same requests, as the pool
/// shrinks, with 16-token blocks (the engine's pool is in tokens): both admit on the prompt, grow
/// and preempt the latest started decode; the fleet's blocks round each context up.
fn against_engine(scenario: &Scenario, cost: &StepCost) {
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: 0.5 };
    let reqs = requests(Arrivals::Poisson, lengths, (1000.0, 200.0), 2000, 12.0, 5);
    let rows = reqs.iter().map(|r| TraceRequest::unhashed(r.arrival_s, r.prompt_tokens, r.output_tokens));
    let trace = RequestTrace::unhashed(rows.collect());
    println!("engine vs 1-replica fleet (16-token blocks), 2,000 requests at 12 req/s: pool tokens | TTFT p50 p90 ms engine / fleet | preemptions engine / fleet");
    for pool in [kv_pool_tokens(scenario), 50_000.0, 25_000.0, 15_000.0] {
        let server = ReplicaConfig {
            chunk_tokens: 512,
            max_concurrency: 64,
            kv_pool_tokens: pool,
            prefill_free: false,
            tpot_target_s: 0.05,
        };
        let engine = run(&reqs, server, *cost, Load::Open);
        let e = percentiles(&engine.ttft_s);
        let config = FleetConfig {
            replicas: 1,
            tier: None,
            chunk_tokens: 512,
            kv_pool_tokens: pool,
            ..config(scenario)
        };
        let fleet = run_fleet(FleetWorkload::Trace(&trace), &config, cost);
        let f = fleet.ttft;
        println!(
            "  {pool:.0} | {} {} / {} {} | {} / {}",
            ms(e.p50_s),
            ms(e.p90_s),
            ms(f.p50_s),
            ms(f.p90_s),
            engine.preemptions,
            fleet.preemptions
        );
    }
}

fn main() {
    let scenario = Inputs::default().scenario;
    let cost = StepCost::new(&scenario);
    let base = config(&scenario);
    let trace = mooncake_like(100_000, 12.0, 1);
    for routing in [Routing::RoundRobin, Routing::LeastLoaded, Routing::Affinity] {
        let start = Instant::now();
        let report = run_fleet(FleetWorkload::Trace(&trace), &FleetConfig { routing, ..base }, &cost);
        let wall_s = start.elapsed().as_secs_f64();
        println!(
            "fleet_100k_{:?}_s {wall_s:.3} (budget 1 s) steps {} served {} simulated {:.0} s hit {:.3}",
            routing,
            report.steps,
            report.served,
            report.duration_s,
            report.hit_rate()
        );
    }
    if std::env::args().any(|a| a == "--time-only") {
        return;
    }
    against_engine(&scenario, &cost);
    table("mooncake-like 100k", FleetWorkload::Trace(&trace), &base, &cost);
    let chat = SessionSpec {
        sessions: 2000,
        turns: 6,
        session_rate_per_s: 4.0,
        system_tokens: 2048,
        first_tokens: 1024,
        new_tokens: 512,
        output_tokens: 300,
        think_s: 30.0,
        seed: 1,
    };
    let small = FleetConfig { kv_pool_tokens: 100_000.0, block_tokens: 256, ..base };
    table("chat sessions, 100k-token pools", FleetWorkload::Sessions(chat), &small, &cost);
}
