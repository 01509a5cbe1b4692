//! Several seeds per rate: one sweep per seed (seeds `seed`, `seed + 1`, ...), combined into the
//! sweep the page shows: each level's numbers as the median over seeds, the band (min and max) of
//! its attainment, and goodput as the median of the per-seed goodputs with their range.
//!
//! Median: the middle value, or for an even count the mean of the middle two. A level is
//! overloaded when at least half its seeds' runs are.

use std::ops::Range;

use super::stats::{Attainment, Percentiles, RatePoint};
use super::sweep_result::{SeedBand, Sweep};

/// The median of `values` (NaN-free; infinite values allowed); 0 for none.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

/// min, median and max of `values` (all 0 for none).
pub fn spread(values: &[f64]) -> (f64, f64, f64) {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if values.is_empty() {
        (0.0, 0.0, 0.0)
    } else {
        (lo, median(values), hi)
    }
}

fn med(points: &[RatePoint], f: impl Fn(&RatePoint) -> f64) -> f64 {
    median(&points.iter().map(f).collect::<Vec<f64>>())
}

fn med_attainment(points: &[RatePoint], f: impl Fn(&RatePoint) -> Attainment) -> Attainment {
    Attainment {
        both: med(points, |p| f(p).both),
        ttft: med(points, |p| f(p).ttft),
        tpot: med(points, |p| f(p).tpot),
    }
}

fn med_percentiles(points: &[RatePoint], f: impl Fn(&RatePoint) -> Percentiles) -> Percentiles {
    let one = |g: fn(&Percentiles) -> Option<f64>| {
        let m = med(points, |p| g(&f(p)).unwrap_or(f64::INFINITY));
        m.is_finite().then_some(m)
    };
    Percentiles { p50_s: one(|p| p.p50_s), p90_s: one(|p| p.p90_s), p99_s: one(|p| p.p99_s) }
}

/// The field-wise median of one level's runs over seeds (`points` not empty); counts rounded.
pub fn median_point(points: &[RatePoint]) -> RatePoint {
    let count = |f: fn(&RatePoint) -> f64| med(points, f).round();
    let overloaded = 2 * points.iter().filter(|p| p.overloaded).count() >= points.len();
    RatePoint {
        rate_req_per_s: med(points, |p| p.rate_req_per_s),
        concurrency: points[0].concurrency,
        requests: med_attainment(points, |p| p.requests),
        tokens: med_attainment(points, |p| p.tokens),
        ttft: med_percentiles(points, |p| p.ttft),
        tpot: med_percentiles(points, |p| p.tpot),
        throughput_tokens_per_s: med(points, |p| p.throughput_tokens_per_s),
        throughput_req_per_s: med(points, |p| p.throughput_req_per_s),
        batch_mean: med(points, |p| p.batch_mean),
        mean_in_system: med(points, |p| p.mean_in_system),
        departure_rate_req_per_s: med(points, |p| p.departure_rate_req_per_s),
        mean_latency_s: med(points, |p| p.mean_latency_s),
        duration_s: med(points, |p| p.duration_s),
        steps: count(|p| p.steps as f64) as u64,
        preemptions: count(|p| f64::from(p.preemptions)) as u32,
        rejected: count(|p| f64::from(p.rejected)) as u32,
        warmup_requests: points[0].warmup_requests,
        overloaded: !points.is_empty() && overloaded,
    }
}

/// The band of one level's runs over seeds.
pub fn band(points: &[RatePoint]) -> SeedBand {
    let lo_hi = |f: fn(&RatePoint) -> Attainment| {
        let fold = |g: fn(&Attainment) -> f64| {
            let (lo, _, hi) = spread(&points.iter().map(|p| g(&f(p))).collect::<Vec<f64>>());
            (lo, hi)
        };
        let (b, t, p) = (fold(|a| a.both), fold(|a| a.ttft), fold(|a| a.tpot));
        (Attainment { both: b.0, ttft: t.0, tpot: p.0 }, Attainment { both: b.1, ttft: t.1, tpot: p.1 })
    };
    SeedBand {
        requests: lo_hi(|p| p.requests),
        tokens: lo_hi(|p| p.tokens),
        overloaded_seeds: points.iter().filter(|p| p.overloaded).count() as u32,
    }
}

/// Combines one sweep per seed (same grid, at least one) into the sweep shown: median points and
/// bands per level, goodput the median of the seeds' goodputs with their min and max, `at_goodput`
/// and `bound` from the seed at the lower middle of the goodputs' order.
pub fn combine(mut sweeps: Vec<Sweep>) -> Sweep {
    let levels = sweeps.iter().map(|s| s.points.len()).min().unwrap_or(0);
    let column = |j: usize| sweeps.iter().map(|s| s.points[j]).collect::<Vec<RatePoint>>();
    let points: Vec<RatePoint> = (0..levels).map(|j| median_point(&column(j))).collect();
    let bands: Vec<SeedBand> = (0..levels).map(|j| band(&column(j))).collect();
    let goodputs: Vec<f64> = sweeps.iter().map(|s| s.goodput_req_per_s).collect();
    let (lo, mid, hi) = spread(&goodputs);
    let simulated = sweeps.iter().map(|s| s.requests_simulated).sum();
    let seeds = sweeps.len() as u32;
    sweeps.sort_by(|a, b| a.goodput_req_per_s.total_cmp(&b.goodput_req_per_s));
    let middle = sweeps.swap_remove((sweeps.len().max(1) - 1) / 2);
    Sweep {
        points,
        goodput_req_per_s: mid,
        goodput_range_req_per_s: (lo, hi),
        seed_goodputs_req_per_s: goodputs,
        bands,
        seeds,
        requests_simulated: simulated,
        ..middle
    }
}

/// The seeds shard `shard` of `shards` sweeps, out of `seeds`: a contiguous block (the first
/// `seeds % shards` shards one seed more), so the shards' seeds in shard order are all of them in
/// order. Empty for a shard past the last (or past `seeds`).
pub fn shard_seeds(seeds: u32, shard: u32, shards: u32) -> Range<usize> {
    let (n, k) = (seeds as usize, shards.max(1) as usize);
    let start = |i: usize| i.min(k) * (n / k) + i.min(k).min(n % k);
    let i = shard as usize;
    start(i)..start(i + 1)
}
