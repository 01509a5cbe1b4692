//! The requests a run replays: arrival times (Poisson, constant or bursty), prompt and output
//! lengths (fixed, uniform or log-normal) and prefix-cache hits, drawn from a seed so the same seed
//! gives the same run.

use serde::{Deserialize, Serialize};

use super::rng::Rng;
use crate::prefix::PrefixCache;
use crate::traffic::trace::{RequestTrace, TraceRequest};
use crate::url_id::UrlId;

/// How requests arrive, open loop.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Arrivals {
    /// Exponential gaps (coefficient of variation 1).
    Poisson,
    /// Equal gaps of 1 / rate.
    Constant,
    /// Gamma gaps with coefficient of variation `cv` > 1: bursts and lulls at the same mean rate.
    Bursty { cv: f64 },
}

/// The family prompt and output lengths are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LengthDist {
    Fixed,
    /// Uniform on mean x (1 - w, 1 + w), w = sqrt(3) x length_cv (capped at 1).
    Uniform,
    /// Log-normal with the given mean and coefficient of variation `length_cv`.
    LogNormal,
}

impl UrlId for LengthDist {
    const VARIANTS: &'static [LengthDist] = &[LengthDist::Fixed, LengthDist::Uniform, LengthDist::LogNormal];

    fn url_id(self) -> &'static str {
        match self {
            LengthDist::Fixed => "fixed",
            LengthDist::Uniform => "uniform",
            LengthDist::LogNormal => "lognormal",
        }
    }
}

/// Lengths: a family and its spread (coefficient of variation, 0.5 = 50%), applied to prompts and
/// outputs alike around their means.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    pub dist: LengthDist,
    pub length_cv: f64,
}

impl Lengths {
    /// The CV the drawn lengths have: 0 when fixed, the uniform's half-width (capped at the mean)
    /// over sqrt(3), the log-normal's own.
    pub fn cv(&self) -> f64 {
        match self.dist {
            LengthDist::Fixed => 0.0,
            LengthDist::Uniform => (3.0_f64.sqrt() * self.length_cv).min(1.0) / 3.0_f64.sqrt(),
            LengthDist::LogNormal => self.length_cv,
        }
    }
}

/// One request as the load generator sends it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// Arrival time from the start of the run, in s.
    pub arrival_s: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// Tokens at the start of its prompt found in the shared prefix cache (0 for a miss): not
    /// prefilled, and held once by the replica rather than by this request.
    pub cached_tokens: u32,
}

/// `count` requests at `rate_req_per_s` with prompt and output lengths around their means. Gaps are
/// drawn at unit rate and scaled, so one seed gives the same lengths and the same arrival pattern,
/// compressed or stretched, at every rate (common random numbers: sweep curves are smooth).
pub fn requests(
    arrivals: Arrivals,
    lengths: Lengths,
    means: (f64, f64),
    count: u32,
    rate_req_per_s: f64,
    seed: u64,
) -> Vec<Request> {
    let mut gaps = Rng::new(seed);
    let mut sizes = Rng::new(seed ^ 0x5DEE_CE66_D1CE_4E5B);
    // Fixed lengths draw nothing: round them once rather than per request.
    let fixed = (lengths.dist == LengthDist::Fixed)
        .then(|| (draw_length(lengths, means.0, &mut sizes), draw_length(lengths, means.1, &mut sizes)));
    let mut t_s = 0.0;
    (0..count)
        .map(|i| {
            if i > 0 {
                t_s += unit_gap(arrivals, &mut gaps) / rate_req_per_s;
            }
            let (prompt_tokens, output_tokens) = fixed.unwrap_or_else(|| {
                (draw_length(lengths, means.0, &mut sizes), draw_length(lengths, means.1, &mut sizes))
            });
            Request { arrival_s: t_s, prompt_tokens, output_tokens, cached_tokens: 0 }
        })
        .collect()
}

/// A trace's requests as the load generator sends them, each arrival divided by `gap_mean_s` (its
/// mean inter-arrival gap, so the result arrives at a mean rate of 1 request/s and a sweep's level
/// scales it as it scales drawn arrivals), its recorded lengths kept. Its block hashes are the
/// fleet run's ([`crate::traffic`]); this replay reuses only the page's shared prefix.
pub fn trace_requests(trace: &RequestTrace, gap_mean_s: f64) -> Vec<Request> {
    let scale = if gap_mean_s.is_finite() && gap_mean_s > 0.0 { 1.0 / gap_mean_s } else { 0.0 };
    let request = |t: &TraceRequest| Request {
        arrival_s: t.arrival_s * scale,
        prompt_tokens: t.prompt_tokens.max(1),
        output_tokens: t.output_tokens.max(1),
        cached_tokens: 0,
    };
    trace.requests.iter().map(request).collect()
}

/// Draws each request's prefix-cache hit with probability h from its own seeded stream (so lengths
/// and arrivals stay those of the same seed without a prefix): a hit caches min(P, prompt) tokens,
/// a miss none. Without a prefix cache every request misses and nothing is drawn.
pub fn draw_prefix_hits(reqs: &mut [Request], prefix: PrefixCache, seed: u64) {
    if !prefix.active() {
        return;
    }
    let mut hits = Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    for r in reqs.iter_mut() {
        let hit = hits.unit() < prefix.hit_rate;
        r.cached_tokens = if hit { prefix.cached_tokens(r.prompt_tokens) } else { 0 };
    }
}

/// One inter-arrival gap at rate 1 (mean 1).
fn unit_gap(arrivals: Arrivals, rng: &mut Rng) -> f64 {
    match arrivals {
        Arrivals::Poisson => rng.exponential(),
        Arrivals::Constant => 1.0,
        Arrivals::Bursty { cv } => {
            // Gamma with shape k has CV 1/sqrt(k); scale 1/k keeps the mean at 1.
            let shape = 1.0 / (cv * cv).max(1e-6);
            rng.gamma(shape) / shape
        }
    }
}

/// One length around `mean` tokens, rounded, at least 1 and at most 2^24.
fn draw_length(lengths: Lengths, mean: f64, rng: &mut Rng) -> u32 {
    let x = match lengths.dist {
        LengthDist::Fixed => mean,
        LengthDist::Uniform => {
            let w = (3.0_f64.sqrt() * lengths.length_cv).min(1.0);
            mean * (1.0 - w + 2.0 * w * rng.unit())
        }
        LengthDist::LogNormal => {
            // sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2: the mean stays `mean`.
            let var = (1.0 + lengths.length_cv * lengths.length_cv).ln();
            mean * (var.sqrt() * rng.normal() - var / 2.0).exp()
        }
    };
    // A NaN casts to 0, which max(1) repairs.
    (x.round().clamp(1.0, (1u32 << 24) as f64) as u32).max(1)
}
