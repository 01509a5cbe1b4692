//! A run's trace summarised: attainment (by requests and by tokens), latency percentiles,
//! throughput and the time averages Little's law relates.

use serde::{Deserialize, Serialize};

use super::stepper::Trace;
use super::workload::Request;

/// Shares in [0, 1] meeting both targets, the TTFT target alone and the TPOT target alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Attainment {
    pub both: f64,
    pub ttft: f64,
    pub tpot: f64,
}

/// Latency percentiles over every request, in s; `None` where the percentile falls on a request
/// that was never served (its latency is unbounded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    pub p50_s: Option<f64>,
    pub p90_s: Option<f64>,
    pub p99_s: Option<f64>,
}

/// One simulated load level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RatePoint {
    /// Offered rate (open load) or the rate achieved (closed load), in requests/s.
    pub rate_req_per_s: f64,
    /// Closed load's client count; 0 for open load.
    pub concurrency: u32,
    /// Shares of requests meeting the targets (DistServe's attainment).
    pub requests: Attainment,
    /// Shares of tokens meeting them: first tokens against TTFT, the others against TPOT by the
    /// step that produced them; `both` counts all tokens together.
    pub tokens: Attainment,
    pub ttft: Percentiles,
    pub tpot: Percentiles,
    /// Output tokens of served requests / duration, in tokens/s.
    pub throughput_tokens_per_s: f64,
    /// Served requests / duration, in requests/s.
    pub throughput_req_per_s: f64,
    /// Time-averaged decode batch, in sequences.
    pub batch_mean: f64,
    /// Time-averaged requests in the system (queued or running): Little's L.
    pub mean_in_system: f64,
    /// Requests that left / duration: Little's lambda, in requests/s.
    pub departure_rate_req_per_s: f64,
    /// Mean arrival-to-departure time: Little's W, in s.
    pub mean_latency_s: f64,
    pub duration_s: f64,
    pub steps: u64,
    pub preemptions: u32,
    pub rejected: u32,
    /// Requests at the start of the run left out of attainment and percentiles (the warm-up,
    /// [`super::steady::warmup_requests`]).
    pub warmup_requests: u32,
    /// The queue still grows at the end of the arrivals ([`super::steady::overloaded`]): the
    /// level never counts toward goodput. Always false under closed load.
    pub overloaded: bool,
}

/// Summarises a whole trace against the targets (no warm-up left out).
pub fn summarize(reqs: &[Request], trace: &Trace, targets: (f64, f64), rate_req_per_s: f64) -> RatePoint {
    summarize_after(reqs, trace, targets, rate_req_per_s, 0)
}

/// Summarises a trace against the targets, leaving the first `warmup` requests (clamped to leave
/// one) out of request attainment and the latency percentiles; throughput, Little's averages and
/// token counting cover the whole run (the stepper counts on-time decode tokens in aggregate).
pub fn summarize_after(
    reqs: &[Request],
    trace: &Trace,
    targets: (f64, f64),
    rate_req_per_s: f64,
    warmup: usize,
) -> RatePoint {
    let (ttft_target_s, tpot_target_s) = targets;
    let warmup_skipped = warmup.min(reqs.len().saturating_sub(1));
    let request_count = reqs.len().max(1) as f64;
    let measured = (reqs.len() - warmup_skipped).max(1) as f64;
    let (mut ok_ttft, mut ok_tpot, mut ok_both, mut served, mut out_served) = (0u32, 0u32, 0u32, 0u32, 0.0);
    let (mut all_tokens, mut ttft_all) = (0.0, 0u32);
    for (i, request) in reqs.iter().enumerate() {
        let (ttft_met, tpot_met) = (trace.ttft_s[i] <= ttft_target_s, trace.tpot_s[i] <= tpot_target_s);
        ttft_all += u32::from(ttft_met);
        if i >= warmup_skipped {
            ok_ttft += u32::from(ttft_met);
            ok_tpot += u32::from(tpot_met);
            ok_both += u32::from(ttft_met && tpot_met);
        }
        all_tokens += f64::from(request.output_tokens);
        if trace.ttft_s[i].is_finite() {
            served += 1;
            out_served += f64::from(request.output_tokens);
        }
    }
    let decode_all = (all_tokens - request_count).max(1.0);
    let tokens = Attainment {
        both: (f64::from(ttft_all) + trace.decode_tokens_on_time as f64) / all_tokens.max(1.0),
        ttft: f64::from(ttft_all) / request_count,
        tpot: trace.decode_tokens_on_time as f64 / decode_all,
    };
    let per_s = |amount: f64| per_second(amount, trace.duration_s);
    let latency_sum_s: f64 = trace.latency_s.iter().filter(|l| l.is_finite()).sum();
    RatePoint {
        rate_req_per_s,
        concurrency: 0,
        requests: Attainment {
            both: f64::from(ok_both) / measured,
            ttft: f64::from(ok_ttft) / measured,
            tpot: f64::from(ok_tpot) / measured,
        },
        tokens,
        ttft: percentiles(&trace.ttft_s[warmup_skipped.min(trace.ttft_s.len())..]),
        tpot: percentiles(&trace.tpot_s[warmup_skipped.min(trace.tpot_s.len())..]),
        throughput_tokens_per_s: per_s(out_served),
        throughput_req_per_s: per_s(f64::from(served)),
        batch_mean: per_s(trace.batch_integral_s),
        mean_in_system: per_s(trace.in_system_integral_s),
        departure_rate_req_per_s: per_s(request_count),
        mean_latency_s: latency_sum_s / request_count,
        duration_s: trace.duration_s,
        steps: trace.steps,
        preemptions: trace.preemptions,
        rejected: trace.rejected,
        warmup_requests: warmup_skipped as u32,
        overloaded: false,
    }
}

/// amount / duration (a rate, or a time average of an integral); 0 over a run that took no time
/// (every request refused at once), where the quotient would be infinite.
fn per_second(amount: f64, duration_s: f64) -> f64 {
    if duration_s > 0.0 {
        amount / duration_s
    } else {
        0.0
    }
}

/// The nearest rank of the `q` quantile among `n` values (`n` ≥ 1): ⌈q · n⌉, kept to 1..=n
/// (1-based). The one rank every nearest-rank percentile of the model takes (the simulator's
/// latencies here, a trace's lengths in `traffic::stats`).
pub fn nearest_rank(q: f64, n: usize) -> usize {
    ((q * n as f64).ceil() as usize).clamp(1, n)
}

/// p50, p90 and p99 (nearest rank) of `values`; an infinite percentile is reported as `None`.
/// Each rank is selected among the values above the previous one (the ranks ascend), so the three
/// selections together cost about one pass over `values` and a half. The values are selected as
/// integer keys that order as [`f64::total_cmp`] orders them (its own transform of the bits), so
/// each comparison is one integer compare.
pub fn percentiles(values: &[f64]) -> Percentiles {
    let mut v: Vec<i64> =
        values.iter().map(|x| total_order_key(if x.is_nan() { f64::INFINITY } else { *x })).collect();
    let mut from = 0;
    let mut at = |q: f64| -> Option<f64> {
        if v.is_empty() {
            return None;
        }
        let rank = (nearest_rank(q, v.len()) - 1).max(from);
        let (_, key, _) = v[from..].select_nth_unstable(rank - from);
        let x = from_total_order_key(*key);
        from = rank;
        x.is_finite().then_some(x)
    };
    Percentiles { p50_s: at(0.5), p90_s: at(0.9), p99_s: at(0.99) }
}

/// The integer [`f64::total_cmp`] compares for `x`: its bits, with the magnitude bits flipped for
/// negative values (a bijection).
fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

fn from_total_order_key(key: i64) -> f64 {
    f64::from_bits((key ^ ((((key >> 63) as u64) >> 1) as i64)) as u64)
}
