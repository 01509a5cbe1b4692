//! Sweeps: the simulator run at a grid of request rates (or client counts), goodput read off as the
//! highest rate whose attainment stays at or above the target without the run being overloaded,
//! refined by bisection; one sweep per seed ([`sweep_each_seed`]), combined by [`super::seeds::combine`].

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::cost::StepCost;
use super::seeds::combine;
use super::stats::{summarize_after, RatePoint};
use super::steady::{overloaded, warmup_requests};
use super::stepper::{run, Load, ReplicaConfig};
use super::sweep_result::{GoodputBound, Sweep};
use super::workload::{draw_prefix_hits, requests, trace_requests, Arrivals, LengthDist, Request};
use super::{Counting, LoadMode, SimConfig};
use crate::goodput::evaluate;
use crate::roofline::{kv_pool_held_tokens, Analysis};
use crate::scenario::Scenario;

/// Bisection steps refining goodput between the last passing and the first failing grid rate.
pub(super) const REFINE_STEPS: u32 = 6;

/// The KV pool in held tokens: [`kv_pool_held_tokens`], the analytic pool's one formula (usable per
/// GPU less the weights and the drafter's, over target + drafter KV per token, less the shared
/// prefix's one copy), in tokens.
pub fn kv_pool_tokens(scenario: &Scenario) -> f64 {
    kv_pool_held_tokens(scenario)
}

/// Twice the analytic request rate at the batch a server can run (min(knee, pool), at least 1):
/// the sweep then shows the rise, the knee and the fall. In requests/s, never 0.
pub fn auto_rate_max(scenario: &Scenario, analysis: &Analysis) -> f64 {
    let batch = analysis.server_batch.max(1);
    let rate = 2.0 * evaluate(scenario, batch).throughput_req_per_s;
    if rate.is_finite() && rate > 0.0 {
        rate
    } else {
        1.0
    }
}

/// The sweep's unit-rate workload: arrivals at 1 request/s, lengths around the scenario's means,
/// or a trace's requests with its arrivals scaled to a mean rate of 1 ([`trace_requests`]).
pub(super) fn unit_workload(config: &SimConfig) -> Vec<Request> {
    let scenario = &config.scenario;
    let mut reqs = match &config.trace {
        Some(trace) => trace_requests(trace, trace.recorded_rate_req_per_s().map_or(1.0, |rate| 1.0 / rate)),
        None => {
            let means = (f64::from(scenario.prompt_tokens()), f64::from(scenario.output_tokens));
            requests(config.arrivals, config.lengths, means, config.requests.max(1), 1.0, config.seed)
        }
    };
    draw_prefix_hits(&mut reqs, scenario.prefix, config.seed);
    reqs
}

/// The seeds a sweep runs: `seed`, `seed + 1`, ... (`seeds` of them, at least 1), as configs;
/// only `seed` when nothing is drawn (constant arrivals and lengths without spread), since every
/// seed would run the same requests.
pub(super) fn seed_configs(config: &SimConfig) -> Vec<SimConfig> {
    let fixed = config.lengths.dist == LengthDist::Fixed || config.lengths.length_cv == 0.0;
    let drawn = config.trace.is_none() && !(config.arrivals == Arrivals::Constant && fixed);
    let seeds = if drawn { config.seeds.max(1) } else { 1 };
    let seeded = |k: u64| SimConfig { seed: config.seed.wrapping_add(k), seeds: 1, ..config.clone() };
    (0..u64::from(seeds)).map(seeded).collect()
}

fn server(config: &SimConfig) -> ReplicaConfig {
    ReplicaConfig {
        chunk_tokens: config.chunk_tokens.max(1),
        max_concurrency: config.max_concurrency.max(1),
        kv_pool_tokens: kv_pool_tokens(&config.scenario),
        prefill_free: config.prefill_free,
        tpot_target_s: config.scenario.tpot_target_s,
    }
}

/// One load level: open load at `level` requests/s, or closed load with `level` clients.
fn level(config: &SimConfig, unit: &[Request], cost: StepCost, level: f64) -> RatePoint {
    let targets = (config.scenario.ttft_target_s, config.scenario.tpot_target_s);
    match config.load {
        LoadMode::Open => {
            let rate = if level.is_finite() && level > 0.0 { level } else { f64::MIN_POSITIVE };
            let reqs: Vec<Request> =
                unit.iter().map(|r| Request { arrival_s: r.arrival_s / rate, ..*r }).collect();
            let trace = run(&reqs, server(config), cost, Load::Open);
            let warmup = warmup_requests(config.max_concurrency.max(1), reqs.len());
            let point = summarize_after(&reqs, &trace, targets, rate, warmup);
            RatePoint { overloaded: overloaded(&trace, warmup, targets.0), ..point }
        }
        LoadMode::Closed => {
            let clients = level.max(1.0) as u32;
            let trace = run(unit, server(config), cost, Load::Closed { concurrency: clients });
            let warmup = warmup_requests(clients.min(config.max_concurrency.max(1)), unit.len());
            let point = summarize_after(unit, &trace, targets, 0.0, warmup);
            RatePoint { rate_req_per_s: point.throughput_req_per_s, concurrency: clients, ..point }
        }
    }
}

/// One run of the simulator at `rate_req_per_s` (open) or with that many clients (closed).
pub fn simulate(config: &SimConfig, rate_or_clients: f64) -> RatePoint {
    let cost = StepCost::new(&config.scenario).seeded(config.seed);
    level(config, &unit_workload(config), cost, rate_or_clients)
}

/// Whether a level counts toward goodput: the attainment the config counts at or above the target
/// and, counting requests, the run not overloaded. Counting tokens is the benchmark mistake the
/// page shows, made whole: like the tools that count tokens, it does not check for a steady queue.
fn attained(config: &SimConfig, point: &RatePoint) -> bool {
    let (share, steady) = match config.counting {
        Counting::Requests => (point.requests.both, !point.overloaded),
        Counting::Tokens => (point.tokens.both, true),
    };
    share >= config.attainment_target - 1e-12 && steady
}

/// The grid: open load at rate_max x j / K; closed load at cap x j / K clients (distinct).
pub(super) fn grid(config: &SimConfig) -> Vec<f64> {
    let level_count = config.rate_points.max(2);
    let top = match config.load {
        LoadMode::Open => config.rate_max_req_per_s,
        LoadMode::Closed => f64::from(config.max_concurrency.max(1)),
    };
    let mut levels: Vec<f64> =
        (1..=level_count).map(|j| top * f64::from(j) / f64::from(level_count)).collect();
    if config.load == LoadMode::Closed {
        levels.iter_mut().for_each(|x| *x = x.round().max(1.0));
        levels.dedup();
    }
    levels
}

/// Runs the grid and reads goodput: the highest rate before attainment first drops below the
/// target, refined by bisection between that rate and the next (open load only).
pub fn sweep(config: &SimConfig) -> Sweep {
    sweep_with_progress(config, |_, _| {})
}

/// Load levels a sweep runs at most: the grid plus the refinement, for every seed.
pub fn sweep_levels(config: &SimConfig) -> u32 {
    (grid(config).len() as u32 + if config.load == LoadMode::Open { REFINE_STEPS } else { 0 })
        * seed_configs(config).len() as u32
}

/// [`sweep`], calling `progress(done, total)` after each level it runs.
pub fn sweep_with_progress(config: &SimConfig, progress: impl FnMut(u32, u32)) -> Sweep {
    combine_seed_sweeps(config, seed_sweeps(config, 0..usize::MAX, progress))
}

/// One [`sweep_grid`] per seed of `config` on `levels` (`run_level(seed's config, its unit workload,
/// level)`), combined; progress counts every seed's levels.
pub(super) fn sweep_seeds(
    config: &SimConfig,
    levels: Vec<f64>,
    run_level: impl Fn(&SimConfig, &[Request], f64) -> RatePoint,
    progress: impl FnMut(u32, u32),
) -> Sweep {
    combine(sweep_each_seed(&seed_configs(config), levels, run_level, progress))
}

/// The seeds a sweep of `config` runs (1 when every seed would draw the same requests).
pub fn seed_count(config: &SimConfig) -> u32 {
    seed_configs(config).len() as u32
}

/// The uncombined sweeps of the seeds at `seeds` (indices below [`seed_count`], clamped), in seed
/// order; progress counts their levels. [`combine_seed_sweeps`] of all of them is [`sweep`]'s.
pub fn seed_sweeps(config: &SimConfig, seeds: Range<usize>, progress: impl FnMut(u32, u32)) -> Vec<Sweep> {
    let cost = StepCost::new(&config.scenario);
    let configs = seed_configs(config);
    let end = seeds.end.min(configs.len());
    let run_level = |cs: &SimConfig, unit: &[Request], x| level(cs, unit, cost.seeded(cs.seed), x);
    sweep_each_seed(&configs[seeds.start.min(end)..end], grid(config), run_level, progress)
}

/// Every seed's sweep of `config` (in seed order) combined into the sweep the page shows.
pub fn combine_seed_sweeps(config: &SimConfig, sweeps: Vec<Sweep>) -> Sweep {
    let mut sweep = combine(sweeps);
    sweep.kv_pool_tokens = kv_pool_tokens(&config.scenario);
    sweep
}

/// One [`sweep_grid`] per config of `configs` (one seed each) on `levels` (`run_level(seed's config,
/// its unit workload, level)`), uncombined, in order; progress counts every seed's levels.
pub(super) fn sweep_each_seed(
    configs: &[SimConfig],
    levels: Vec<f64>,
    run_level: impl Fn(&SimConfig, &[Request], f64) -> RatePoint,
    mut progress: impl FnMut(u32, u32),
) -> Vec<Sweep> {
    let refine = configs.first().map_or(0, |c| if c.load == LoadMode::Open { REFINE_STEPS } else { 0 });
    let total = (levels.len() as u32 + refine) * configs.len() as u32;
    let mut done = 0;
    configs
        .iter()
        .map(|cs| {
            let unit = unit_workload(cs);
            let tick = |_, _| {
                done += 1;
                progress(done, total);
            };
            sweep_grid(cs, levels.clone(), unit.len(), |x| run_level(cs, &unit, x), tick)
        })
        .collect()
}

/// Runs `run_level` at each of `levels` and reads goodput: the highest level before attainment first
/// drops below the target, refined by bisection between it and the next (open load only). Progress
/// counts `levels` plus the refinement; `per_level` requests are simulated at each level. The
/// sweep's `kv_pool_tokens` is left 0 for the caller.
pub(super) fn sweep_grid(
    config: &SimConfig,
    levels: Vec<f64>,
    per_level: usize,
    mut run_level: impl FnMut(f64) -> RatePoint,
    mut progress: impl FnMut(u32, u32),
) -> Sweep {
    let total = levels.len() as u32 + if config.load == LoadMode::Open { REFINE_STEPS } else { 0 };
    let mut done = 0;
    let mut tick = move || {
        done += 1;
        progress(done, total);
    };
    let points: Vec<RatePoint> = levels
        .into_iter()
        .map(|x| {
            let p = run_level(x);
            tick();
            p
        })
        .collect();
    let mut simulated = points.len() as u64 * per_level as u64;
    let first_miss = points.iter().position(|p| !attained(config, p));
    let (mut at_goodput, bound) = match first_miss {
        Some(0) => (None, GoodputBound::BelowLowest),
        Some(j) => (Some(points[j - 1]), GoodputBound::Exact),
        None => (points.last().copied(), GoodputBound::AtLeast),
    };
    if let (Some(j), LoadMode::Open, Some(pass)) = (first_miss, config.load, at_goodput) {
        let (mut lo, mut hi) = (pass, points[j].rate_req_per_s);
        for _ in 0..REFINE_STEPS {
            let mid = run_level(0.5 * (lo.rate_req_per_s + hi));
            tick();
            simulated += per_level as u64;
            if attained(config, &mid) {
                lo = mid;
            } else {
                hi = mid.rate_req_per_s;
            }
        }
        at_goodput = Some(lo);
    }
    let goodput_req_per_s = at_goodput.map_or(0.0, |p| p.rate_req_per_s);
    Sweep {
        bands: points.iter().map(|p| super::seeds::band(std::slice::from_ref(p))).collect(),
        points,
        goodput_req_per_s,
        goodput_range_req_per_s: (goodput_req_per_s, goodput_req_per_s),
        seed_goodputs_req_per_s: vec![goodput_req_per_s],
        seeds: 1,
        at_goodput,
        bound,
        requests_simulated: simulated,
        kv_pool_tokens: 0.0,
    }
}

/// One chunk budget's outcome at a fixed load.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChunkPoint {
    pub chunk_tokens: u32,
    pub point: RatePoint,
}

/// The chunked-prefill trade-off: the same load run at each budget in `chunks`.
pub fn chunk_tradeoff(config: &SimConfig, rate_or_clients: f64, chunks: &[u32]) -> Vec<ChunkPoint> {
    let unit = unit_workload(config);
    let cost = StepCost::new(&config.scenario).seeded(config.seed);
    chunks
        .iter()
        .map(|&chunk_tokens| {
            let cc = SimConfig { chunk_tokens, ..config.clone() };
            ChunkPoint { chunk_tokens, point: level(&cc, &unit, cost, rate_or_clients) }
        })
        .collect()
}
