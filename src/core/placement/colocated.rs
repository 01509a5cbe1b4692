//! A colocated replica serving prefill and decode on the same GPUs, in steady state, two ways:
//! chunked (every step carries the decodes plus prompt chunks up to a step token budget) and
//! unchunked (a whole prompt is one step that every running decode waits for).

use super::queue::{largest_ok, md1_wait_s};
use super::{Binds, Operating};
use crate::core::model::prefill_attention_flop;
use crate::core::prefill::prefill_time;
use crate::core::roofline::{
    draft_s, expected_tokens_per_step, kv_pool_batch, step_time_at, Scenario, StepMix, StepRoofline,
};

/// Fixed-point iterations for a step time; the map is monotone, so it converges or runs away.
const ITERATIONS: usize = 200;
/// A steady step longer than this many TPOT targets has run away (the load exceeds capacity).
const RUNAWAY_TARGETS: f64 = 1e3;

/// How far an evaluation goes: in full, or only far enough to tell whether the rate passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// Every number, out to the runaway limit.
    Full,
    /// Stops once the step passes the TPOT target: the iterates rise to the least fixed point
    /// (the map is monotone), so one past the target means the point misses it. Only its
    /// `binds == Nothing` is meaningful.
    PassOrFail,
}

impl Probe {
    fn limit_s(self, scenario: &Scenario) -> f64 {
        match self {
            Probe::Full => RUNAWAY_TARGETS * scenario.tpot_target_s.max(1e-6),
            Probe::PassOrFail => scenario.tpot_target_s,
        }
    }
}

/// The least fixed point of `t = next(t)` from `start` (= next(0)), or `None` if it runs past
/// `limit_s`. `next` is monotone, so plain iteration rises to it; each step also tries the root of
/// the chord through the last two iterates (a secant step), which for a convex `next` (a sum of
/// roofline maxima) stays at or below the fixed point and reaches it in a few steps where plain
/// iteration crawls (slope near 1, close to capacity). A jump past it is safe: from there
/// iteration falls back to it and never passes `limit_s` again. A chord of slope >= 1 while
/// next(t) > t means no fixed point lies ahead (convexity): the load runs away, as it does when
/// the iterations run out unconverged.
fn fixed_point_s(start_s: f64, limit_s: f64, next: impl Fn(f64) -> f64) -> Option<f64> {
    let mut t = start_s;
    let mut last: Option<(f64, f64)> = None;
    for _ in 0..ITERATIONS {
        let n = next(t);
        if !(n.is_finite() && n <= limit_s) {
            return None;
        }
        if (n - t).abs() <= 1e-10 * n.max(1e-12) {
            return Some(n);
        }
        let slope = last.map(|(t0, n0)| (n - n0) / (t - t0));
        if n > t && slope.is_some_and(|k| k >= 1.0) {
            return None;
        }
        let secant = slope.map(|k| t + (n - t) / (1.0 - k)).filter(|root| root.is_finite() && *root > n);
        last = Some((t, n));
        t = secant.map_or(n, |root| root.min(limit_s));
    }
    None
}

/// Chunked prefill at `rate_req_per_s` (Poisson) with a `chunk_tokens` step budget. In steady
/// state each step of length t carries B = rate x output x t decodes (Little's law: a request
/// decodes for `output` steps) and c = rate x prompt x t prompt tokens (the prompts arriving
/// during it), so t = step(B decodes + c prompt tokens), solved by fixed-point iteration; TPOT = t.
/// A prompt is prefilled with the budget the decodes leave, C - B tokens a step, so it takes
/// D = prompt x t / (C - B) and queues as M/D/1: TTFT = D + W(rate, D) (mean). Assumes every
/// running sequence holds the scenario's context (as the batch table does); each chunk also reads
/// its prompt's earlier KV. With speculative decoding a step also runs the drafter for the B
/// decodes and verifies k + 1 tokens for each (B(k + 1) of the budget), a request decodes for
/// output / E steps (B = rate x output / E x t), and TPOT = t / E.
pub fn chunked_at(scenario: &Scenario, chunk_tokens: u32, rate_req_per_s: f64) -> Operating {
    chunked_probe(scenario, chunk_tokens, rate_req_per_s, Probe::Full)
}

/// [`chunked_at`], evaluated as far as `probe` says.
pub fn chunked_probe(scenario: &Scenario, chunk_tokens: u32, rate_req_per_s: f64, probe: Probe) -> Operating {
    let roofline = StepRoofline::new(scenario);
    let (prompt, output) = (f64::from(scenario.context_tokens), f64::from(scenario.output_tokens));
    let attention_flop_per_prompt = prefill_attention_flop(&scenario.model, scenario.context_tokens);
    let budget = f64::from(chunk_tokens);
    let (e, k) = speculation_factors(scenario);
    let mix = |t: f64| {
        let decodes = rate_req_per_s * output / e * t;
        // A prompt split into chunks of s tokens (the budget the decodes leave) reads
        // 0 + s + 2s + ... of its own earlier KV: prompt x (prompt - s) / (2 s) tokens in all.
        let chunk = (budget - decodes * (1.0 + k)).clamp(1.0, prompt.max(1.0));
        StepMix {
            decode_seqs: decodes,
            decode_kv_tokens: decodes * prompt,
            prefill_tokens: rate_req_per_s * prompt * t,
            prefill_kv_tokens: rate_req_per_s * t * prompt * (prompt - chunk) / (2.0 * chunk),
            prefill_attention_flop: rate_req_per_s * t * attention_flop_per_prompt,
            verify_draft_tokens: k,
        }
    };
    let step_s = |t: f64| {
        let m = mix(t);
        let draft = if m.decode_seqs > 0.0 { draft_s(scenario, m.decode_seqs) } else { 0.0 };
        roofline.terms(&m).step_s + draft
    };
    // The probe's limit is on TPOT = t / E; the step itself may take E times longer.
    let limit_s = probe.limit_s(scenario) * e;
    let Some(t) = fixed_point_s(step_s(0.0), limit_s, step_s) else {
        return Operating::overloaded(Binds::Capacity);
    };
    let batch = rate_req_per_s * output / e * t;
    let left_tokens = f64::from(chunk_tokens) - batch * (1.0 + k);
    let budget_ok = batch * (1.0 + k) + rate_req_per_s * prompt * t <= f64::from(chunk_tokens);
    let prefill_s = if left_tokens > 0.0 { prompt * t / left_tokens } else { f64::INFINITY };
    let ttft_s = prefill_s + md1_wait_s(rate_req_per_s, prefill_s);
    let binds = first_missed(scenario, t / e, ttft_s, batch, budget_ok);
    Operating { rate_req_per_s, batch, tpot_s: Some(t / e), ttft_s: finite(ttft_s), binds }
}

/// (E, k) with speculative decoding on, (1, 0) without: tokens kept per decode per step and the
/// drafts each decode verifies.
fn speculation_factors(scenario: &Scenario) -> (f64, f64) {
    let sp = scenario.speculation;
    if sp.is_on() {
        (expected_tokens_per_step(sp.draft_tokens, sp.acceptance), f64::from(sp.draft_tokens))
    } else {
        (1.0, 0.0)
    }
}

/// Unchunked prefill at `rate_req_per_s`: each prompt is a step of its own, prefill(prompt),
/// that runs before the decodes (prefill first, as vLLM without chunking), so decodes get the
/// share 1 - rate x prefill of the time: TPOT = step(B) / (1 - rate x prefill) with
/// B = rate x output x TPOT (fixed point). A new prompt waits for the step in flight, then for the
/// prompts ahead (M/D/1): TTFT = step(B) + prefill + W(rate, prefill) (mean).
pub fn unchunked_at(scenario: &Scenario, rate_req_per_s: f64) -> Operating {
    unchunked_probe(scenario, rate_req_per_s, Probe::Full)
}

/// [`unchunked_at`], evaluated as far as `probe` says.
pub fn unchunked_probe(scenario: &Scenario, rate_req_per_s: f64, probe: Probe) -> Operating {
    let prefill_s = prefill_time(scenario).prefill_s;
    let decode_share = 1.0 - rate_req_per_s * prefill_s;
    if decode_share <= 0.0 {
        return Operating::overloaded(Binds::Capacity);
    }
    let output = f64::from(scenario.output_tokens);
    let tpot_of =
        |tpot_s: f64| step_time_at(scenario, rate_req_per_s * output * tpot_s).step_s / decode_share;
    let limit_s = probe.limit_s(scenario);
    let Some(tpot_s) = fixed_point_s(tpot_of(0.0), limit_s, tpot_of) else {
        return Operating::overloaded(Binds::Capacity);
    };
    let batch = rate_req_per_s * output * tpot_s;
    let ttft_s = tpot_s * decode_share + prefill_s + md1_wait_s(rate_req_per_s, prefill_s);
    let binds = first_missed(scenario, tpot_s, ttft_s, batch, true);
    Operating { rate_req_per_s, batch, tpot_s: Some(tpot_s), ttft_s: finite(ttft_s), binds }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The first constraint an operating point misses, or [`Binds::Nothing`].
fn first_missed(scenario: &Scenario, tpot_s: f64, ttft_s: f64, batch: f64, budget_ok: bool) -> Binds {
    if !budget_ok {
        Binds::StepBudget
    } else if batch > f64::from(kv_pool_batch(scenario)) {
        Binds::KvPool
    } else if tpot_s > scenario.tpot_target_s {
        Binds::Tpot
    } else if ttft_s > scenario.ttft_target_s {
        Binds::Ttft
    } else {
        Binds::Nothing
    }
}

/// The highest rate at which `at(rate, Full)` misses nothing, and what it misses just past it;
/// the bisection's probes run as [`Probe::PassOrFail`].
pub fn best_rate(scenario: &Scenario, at: impl Fn(f64, Probe) -> Operating) -> Operating {
    let prefill_s = prefill_time(scenario).prefill_s;
    // Prompts alone cap the rate at one per prefill; the decodes alone at pool / (output x floor).
    let hi = if prefill_s > 0.0 { 1.0 / prefill_s } else { 1e9 };
    let rate = largest_ok(hi, |r| at(r, Probe::PassOrFail).binds == Binds::Nothing);
    let past = at((rate * (1.0 + 1e-6)).max(1e-9), Probe::Full);
    let best = at(rate, Probe::Full);
    Operating { binds: if best.binds == Binds::Nothing { past.binds } else { best.binds }, ..best }
}
