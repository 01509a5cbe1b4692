//! A colocated replica serving prefill and decode on the same GPUs, in steady state, two ways:
//! chunked (every step carries the decodes plus prompt chunks up to a step token budget) and
//! unchunked (a whole prompt is one step that every running decode waits for).

use super::percentile::{wait_quantile_s, Percentile, TpotSpread};
pub use super::probe::Probe;
use super::queue::{largest_ok, md1_wait_s};
use super::{Binds, Operating};
use crate::model::prefill_attention_flop;
use crate::prefill::prefill_time;
use crate::roofline::{
    draft_s, expected_tokens_per_step, kv_pool_batch, step_time_at, StepMix, StepRoofline,
};
use crate::scenario::Scenario;

/// Chunked prefill at `rate_req_per_s` (Poisson) with a `chunk_tokens` step budget C, read at
/// `percentile`. Steps are of two kinds: while a prompt waits, a *prompt step* carries the B decodes and
/// s = min(C - B, P x max(1, rate x t)) prompt tokens (t_p): the head prompt's next chunk, or, where
/// the budget holds more than one prompt, every prompt that arrived during the mean step t (as the
/// simulator's steps take whatever waits); otherwise a *decode step* carries the decodes alone (t_d).
/// A prompt of P tokens takes k = P / s prompt steps (k < 1: several prompts share a step), so prompt
/// steps come at rate x k a second and the mean step is t = t_d + rate x k x t x (t_p - t_d), with
/// B = rate x output x t (Little's law), solved as a fixed point. Mean TPOT = t. The prompt server
/// is M/G/1 (CV: the prompt lengths') whose service per prompt is P / (C - B) x t_p: a step takes every
/// waiting prompt the budget holds, so a queue clears C - B tokens a step (with C - B <= P, k x t_p as
/// one prompt's chunks): TTFT = max(k, 1) x t_p + W, W's p-quantile as [`wait_quantile_s`]. TPOT's p-quantile counts the prompt steps inside an answer and the batch's
/// spread ([`chunked_spread`]). Every running sequence holds the scenario's context (as the batch
/// table); a chunk reads its prompt's earlier KV, (P - s) / 2 tokens on average. With speculative
/// decoding a step also runs the drafter and verifies k_d + 1 tokens per decode (B(k_d + 1) of
/// the budget), a request decodes for output / E steps and TPOT = t / E.
pub fn chunked_at(
    scenario: &Scenario,
    chunk_tokens: u32,
    rate_req_per_s: f64,
    percentile: &Percentile,
) -> Operating {
    chunked_probe(scenario, chunk_tokens, rate_req_per_s, Probe::Full, percentile)
}

/// The two step kinds of a chunked replica at a mean step of t s.
struct ChunkedSteps {
    batch: f64,
    /// Prompt tokens a prompt step carries (s); 0 when the decodes fill the budget.
    chunk: f64,
    /// Prompt tokens the budget leaves beside the decodes (C - B): what a step could carry.
    room: f64,
    decode_s: f64,
    prompt_s: f64,
}

/// A chunked replica's steps as functions of the mean step.
struct Chunked<'a> {
    scenario: &'a Scenario,
    roofline: StepRoofline,
    rate_req_per_s: f64,
    /// The step token budget (C), in tokens.
    budget_tokens: f64,
    /// The prompt (P), in tokens.
    prompt_tokens: f64,
    /// Output tokens per step a decode keeps (E).
    tokens_per_step: f64,
    /// Draft tokens each decode verifies per step (k_d).
    draft_tokens: f64,
    /// The prompt lengths' CV.
    prompt_cv: f64,
}

impl Chunked<'_> {
    /// The steps at a mean step of `mean_step_s` (t).
    fn steps(&self, mean_step_s: f64) -> ChunkedSteps {
        let scenario = self.scenario;
        let output_tokens = f64::from(scenario.output_tokens);
        let batch = self.rate_req_per_s * output_tokens / self.tokens_per_step * mean_step_s;
        // A prompt step carries the prompts waiting, up to the budget the decodes leave: at least the
        // head prompt (or its next chunk), and every prompt that arrived during the mean step.
        let room = (self.budget_tokens - batch * (1.0 + self.draft_tokens)).max(0.0);
        let waiting = self.prompt_tokens * (self.rate_req_per_s * mean_step_s).max(1.0);
        let chunk = room.min(waiting);
        let decode = StepMix {
            verify_draft_tokens: self.draft_tokens,
            ..StepMix::decode(batch, f64::from(scenario.context_tokens))
        };
        let share = if chunk > 0.0 { chunk / self.prompt_tokens } else { 0.0 };
        let prompt_mix = StepMix {
            prefill_tokens: chunk,
            prefill_kv_tokens: ((self.prompt_tokens - chunk) / 2.0).max(0.0),
            prefill_attention_flop: share * prefill_attention_flop(&scenario.model, scenario.prompt_tokens()),
            ..decode
        };
        let drafting_s = if batch > 0.0 { draft_s(scenario, batch) } else { 0.0 };
        let decode_s = self.roofline.terms(&decode).step_s + drafting_s;
        let prompt_s = self.roofline.terms(&prompt_mix).step_s + drafting_s;
        ChunkedSteps { batch, chunk, room, decode_s, prompt_s }
    }

    /// The next mean step from `mean_step_s` (t): t_d + rate x k x t x (t_p - t_d); infinite when
    /// the decodes leave no budget for prompts.
    fn next_s(&self, mean_step_s: f64) -> f64 {
        let steps = self.steps(mean_step_s);
        if steps.chunk <= 0.0 {
            return f64::INFINITY;
        }
        let prompt_steps_per_s = self.rate_req_per_s * self.prompt_tokens / steps.chunk;
        steps.decode_s + prompt_steps_per_s * mean_step_s * (steps.prompt_s - steps.decode_s)
    }
}

/// [`chunked_at`], evaluated as far as `probe` says.
pub fn chunked_probe(
    scenario: &Scenario,
    chunk_tokens: u32,
    rate_req_per_s: f64,
    probe: Probe,
    percentile: &Percentile,
) -> Operating {
    let (tokens_per_step, draft_tokens) = speculation_factors(scenario);
    let model = Chunked {
        scenario,
        roofline: StepRoofline::new(scenario),
        rate_req_per_s,
        budget_tokens: f64::from(chunk_tokens),
        prompt_tokens: f64::from(scenario.prompt_tokens()),
        tokens_per_step,
        draft_tokens,
        prompt_cv: percentile.cv(),
    };
    // The probe's limit is on TPOT = t / E; the step itself may take E times longer.
    let Some(mean_step_s) = probe.fixed_point_s(scenario, tokens_per_step, |t| model.next_s(t)) else {
        let binds = if model.steps(0.0).chunk <= 0.0 { Binds::StepBudget } else { Binds::Capacity };
        return Operating::overloaded(binds);
    };
    let steps = model.steps(mean_step_s);
    // A prompt's own steps (at least one); the prompt server, which takes every waiting prompt the
    // budget holds into its next step, clears a prompt's tokens at room / t_p tokens a second.
    let service_s = (model.prompt_tokens / steps.chunk).max(1.0) * steps.prompt_s;
    let share_s = model.prompt_tokens / steps.room.max(steps.chunk) * steps.prompt_s;
    let prompt_cv = percentile.cv();
    let ttft_s = service_s + wait_quantile_s(rate_req_per_s, share_s, prompt_cv, percentile);
    let ttft_mean_s = service_s + md1_wait_s(rate_req_per_s, share_s) * (1.0 + prompt_cv.powi(2));
    let spread = chunked_spread(&model, &steps, mean_step_s);
    let tpot_s = probe.tpot_s(&spread, percentile, scenario.tpot_target_s);
    let budget_ok = steps.chunk >= 1.0 || model.prompt_tokens < 1.0;
    let binds = first_missed(scenario, tpot_s, ttft_s, steps.batch, budget_ok);
    Operating {
        rate_req_per_s,
        batch: steps.batch,
        tpot_s: finite(tpot_s),
        ttft_s: finite(ttft_s),
        tpot_mean_s: finite(mean_step_s / tokens_per_step),
        ttft_mean_s: finite(ttft_mean_s),
        binds,
    }
}

/// What spreads a chunked replica's TPOT (module [`super::percentile`]): an answer of `output / E`
/// steps sees Poisson(rate x output / E x t) prompts of k = P / s prompt steps each (k's CV is the
/// prompts'), each step t_p - t_d longer; its batch's mean over its life has variance 2/3 x B, each
/// sequence adding the decode step's slope; and the two move together, as the prompts that land in
/// an answer then decode beside it for half its life on average (covariance rate x output / E x t / 2
/// between the count and the batch).
fn chunked_spread(model: &Chunked, steps: &ChunkedSteps, mean_step_s: f64) -> TpotSpread {
    let tokens_per_step = model.tokens_per_step;
    let output_tokens = f64::from(model.scenario.output_tokens).max(1.0);
    let rate_req_per_s = model.rate_req_per_s;
    let steps_per_prompt = model.prompt_tokens / steps.chunk;
    let prompt_factor = 1.0 + model.prompt_cv * model.prompt_cv;
    let delta_s = steps.prompt_s - steps.decode_s;
    let prefill_var_s2 =
        delta_s * delta_s * rate_req_per_s * mean_step_s * steps_per_prompt.powi(2) * prompt_factor
            / (tokens_per_step * output_tokens);
    let slope_s = decode_slope_s(model.scenario, &model.roofline, steps.batch, model.draft_tokens);
    let tpot_slope_s = slope_s / tokens_per_step;
    let cross_s2 = delta_s * steps_per_prompt * tpot_slope_s * rate_req_per_s * mean_step_s / tokens_per_step;
    TpotSpread {
        mean_s: mean_step_s / tokens_per_step,
        batch_var_s2: tpot_slope_s.powi(2) * 2.0 / 3.0 * steps.batch + cross_s2,
        prefill_var_s2,
    }
}

/// How much one more decoding sequence lengthens a decode step at `batch`, in s.
fn decode_slope_s(scenario: &Scenario, roofline: &StepRoofline, batch: f64, draft_tokens: f64) -> f64 {
    let context_tokens = f64::from(scenario.context_tokens);
    let step_at_s = |b: f64| {
        let mix = StepMix { verify_draft_tokens: draft_tokens, ..StepMix::decode(b, context_tokens) };
        roofline.terms(&mix).step_s
    };
    (step_at_s(batch + 1.0) - step_at_s(batch)).max(0.0)
}

/// (E, k) with speculative decoding on, (1, 0) without: tokens kept per decode per step and the
/// drafts each decode verifies.
fn speculation_factors(scenario: &Scenario) -> (f64, f64) {
    let speculation = scenario.speculation;
    if speculation.is_on() {
        let tokens_per_step = expected_tokens_per_step(speculation.draft_tokens, speculation.acceptance);
        (tokens_per_step, f64::from(speculation.draft_tokens))
    } else {
        (1.0, 0.0)
    }
}

/// Unchunked prefill at `rate_req_per_s`: each prompt is a step of its own, prefill(prompt),
/// that runs before the decodes (prefill first, as vLLM without chunking), so decodes get the
/// share 1 - rate x prefill of the time: mean TPOT = step(B) / (1 - rate x prefill) with
/// B = rate x output x TPOT (fixed point). A new prompt waits for the step in flight, then for the
/// prompts ahead (M/G/1): TTFT = step(B) + prefill + W, W's p-quantile as [`wait_quantile_s`]; an
/// answer's TPOT spreads with the prompts that land inside it (each adds its prefill) and its batch.
pub fn unchunked_at(scenario: &Scenario, rate_req_per_s: f64, percentile: &Percentile) -> Operating {
    unchunked_probe(scenario, rate_req_per_s, Probe::Full, percentile)
}

/// [`unchunked_at`], evaluated as far as `probe` says.
pub fn unchunked_probe(
    scenario: &Scenario,
    rate_req_per_s: f64,
    probe: Probe,
    percentile: &Percentile,
) -> Operating {
    let prefill_s = prefill_time(scenario).prefill_s;
    let decode_share = 1.0 - rate_req_per_s * prefill_s;
    if decode_share <= 0.0 {
        return Operating::overloaded(Binds::Capacity);
    }
    let output_tokens = f64::from(scenario.output_tokens);
    let tpot_of =
        |tpot_s: f64| step_time_at(scenario, rate_req_per_s * output_tokens * tpot_s).step_s / decode_share;
    let Some(tpot_mean_s) = probe.fixed_point_s(scenario, 1.0, tpot_of) else {
        return Operating::overloaded(Binds::Capacity);
    };
    let batch = rate_req_per_s * output_tokens * tpot_mean_s;
    let step_s = tpot_mean_s * decode_share;
    let prompt_cv = percentile.cv();
    let ttft_s = step_s + prefill_s + wait_quantile_s(rate_req_per_s, prefill_s, prompt_cv, percentile);
    let ttft_mean_s =
        step_s + prefill_s + md1_wait_s(rate_req_per_s, prefill_s) * (1.0 + prompt_cv * prompt_cv);
    let slope_s = decode_slope_s(scenario, &StepRoofline::new(scenario), batch, 0.0) / decode_share;
    let spread = TpotSpread {
        mean_s: tpot_mean_s,
        batch_var_s2: slope_s * slope_s * 2.0 / 3.0 * batch,
        prefill_var_s2: prefill_s * prefill_s * (1.0 + prompt_cv * prompt_cv) * rate_req_per_s * tpot_mean_s
            / output_tokens.max(1.0),
    };
    let tpot_s = probe.tpot_s(&spread, percentile, scenario.tpot_target_s);
    let binds = first_missed(scenario, tpot_s, ttft_s, batch, true);
    Operating {
        rate_req_per_s,
        batch,
        tpot_s: finite(tpot_s),
        ttft_s: finite(ttft_s),
        tpot_mean_s: Some(tpot_mean_s),
        ttft_mean_s: finite(ttft_mean_s),
        binds,
    }
}

fn finite(value: f64) -> Option<f64> {
    value.is_finite().then_some(value)
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

/// The highest rate at which `operating_at(rate, Full)` misses nothing, and what it misses just past
/// it; the bisection's probes run as [`Probe::PassOrFail`].
pub fn best_rate(scenario: &Scenario, operating_at: impl Fn(f64, Probe) -> Operating) -> Operating {
    let prefill_s = prefill_time(scenario).prefill_s;
    // Prompts alone cap the rate at one per prefill; the decodes alone at pool / (output x floor).
    let rate_req_per_s_hi = if prefill_s > 0.0 { 1.0 / prefill_s } else { 1e9 };
    let passes = |rate: f64| operating_at(rate, Probe::PassOrFail).binds == Binds::Nothing;
    let rate_req_per_s = largest_ok(rate_req_per_s_hi, passes);
    let past = operating_at((rate_req_per_s * (1.0 + 1e-6)).max(1e-9), Probe::Full);
    let best = operating_at(rate_req_per_s, Probe::Full);
    Operating { binds: if best.binds == Binds::Nothing { past.binds } else { best.binds }, ..best }
}

/// The colocated replica with chunked prefill at `chunk_tokens` a step, at its highest rate
/// inside both targets ([`best_rate`] over [`chunked_at`]).
pub fn chunked_best(scenario: &Scenario, chunk_tokens: u32, percentile: &Percentile) -> Operating {
    best_rate(scenario, |r, probe| chunked_probe(scenario, chunk_tokens, r, probe, percentile))
}
