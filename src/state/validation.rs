//! Raw query values -> validated inputs: a malformed or unknown value falls back to its default, an
//! out-of-range number is clamped, and each repair adds a notice.

use super::custom::{read_fields, reconcile_model, GPU_FIELDS, MODEL_FIELDS};
use super::fields::{quoted, CTX, OUT, PRICE, PROMPT, RATE, TPOT, TTFT, UTIL};
use super::{
    calibration, context_tokens_max_for, parallel, placement, prefix, prompt_tokens_max_for, read, search,
    sim, spec, Inputs, Notice, RawQuery,
};
use crate::core::prefix::PrefixCache;
use crate::core::presets::{gpu_by_id, model_by_id, CustomGpu, CustomModel, GpuSpec, ModelSpec, CUSTOM_ID};
use crate::core::presets::{GPUS, MODELS};
use crate::core::roofline::{CostModel, Precision};
use crate::core::scenario::{context_for, Scenario};

/// Validates raw values into [`Inputs`]: a malformed or unknown value falls back to its default, an
/// out-of-range number is clamped, and each such repair adds a [`Notice`].
pub fn validate(raw: &RawQuery) -> (Inputs, Vec<Notice>) {
    let defaults = Inputs::default();
    let mut notices = Vec::new();
    let mut scenario = read_scenario(raw, &defaults.scenario, &mut notices);
    let (calibration_choice, cost_model) = calibration::read(raw, &scenario, &mut notices);
    scenario.calibration = cost_model;
    let rate_req_per_s = read::number(raw, &RATE, defaults.rate_req_per_s, &mut notices);
    let before = notices.len();
    let price_per_gpu_hour = PRICE.read(raw.get("price"), defaults.price_per_gpu_hour, &mut notices);
    // Malformed, it fell back to the default; clamped or taken, it is a price to apply.
    let price_taken = raw.get("price").is_some()
        && (notices.len() == before || price_per_gpu_hour != defaults.price_per_gpu_hour);
    let mut inputs = Inputs {
        scenario,
        calibration_choice,
        rate_req_per_s,
        price_per_gpu_hour,
        energy: super::energy::read(raw, &mut notices),
        sim: sim::read(raw, &mut notices),
        placement: placement::read(raw, &mut notices),
        search: search::read(raw, &mut notices),
        trace: super::trace::url::read(raw, &mut notices),
    };
    // A `price` with a preset GPU (links from before the capacity plan used the search's prices)
    // prices that GPU, unless `prices` names it.
    let named = |id: &str| {
        raw.get("prices").is_some_and(|p| p.split(',').any(|e| e.trim().starts_with(&format!("{id}:"))))
    };
    if let Some(i) = inputs.gpu_price_index().filter(|_| price_taken) {
        if !named(inputs.scenario.gpu.id) {
            inputs.search.usd_per_gpu_hour[i] = inputs.price_per_gpu_hour;
        }
        inputs.price_per_gpu_hour = defaults.price_per_gpu_hour;
    }
    (inputs, notices)
}

/// The scenario's keys validated, in [`KEYS`] order, on the ideal roofline (the calibration is
/// [`calibration::read`]'s).
fn read_scenario(raw: &RawQuery, defaults: &Scenario, notices: &mut Vec<Notice>) -> Scenario {
    let lookup = |key: &str| raw.get(key).map(str::to_string);
    let model = read_model(raw, &lookup, notices);
    let gpu = read_gpu(raw, &lookup, notices);
    let weight_precision = read::choice_in(raw, "w", &Precision::WEIGHTS, defaults.weight_precision, notices);
    let kv_precision = read::choice_in(raw, "kv", &Precision::KV, defaults.kv_precision, notices);
    let (parallel, cluster, expert_load) = parallel::read(raw, (&model, &gpu), notices);
    // The output is read first (the context follows from it), its notice kept in key order.
    let mut out_notices = Vec::new();
    let output_tokens = OUT.read(raw.get("out"), f64::from(defaults.output_tokens), &mut out_notices) as u32;
    let context_tokens = read_context(raw, &model, output_tokens, defaults, notices);
    notices.append(&mut out_notices);
    let scenario = Scenario {
        model,
        gpu,
        weight_precision,
        kv_precision,
        parallel,
        cluster,
        expert_load,
        context_tokens,
        output_tokens,
        tpot_target_s: read::number(raw, &TPOT, defaults.tpot_target_s, notices),
        ttft_target_s: read::number(raw, &TTFT, defaults.ttft_target_s, notices),
        memory_utilization: read::number(raw, &UTIL, defaults.memory_utilization, notices),
        calibration: CostModel::Ideal,
        speculation: spec::read(raw, notices),
        prefix: PrefixCache::NONE,
    };
    // The shared prefix is part of the prompt.
    let prefix = prefix::read(raw, scenario.prompt_tokens(), notices);
    Scenario { prefix, ..scenario }
}

/// The context from `in` (tokens in) and the output by [`context_for`], the prompt capped so the
/// context stays within what the model accepts; a link with `ctx` and no `in` (written before the
/// prompt control) gives the context itself.
fn read_context(
    raw: &RawQuery,
    model: &ModelSpec,
    output_tokens: u32,
    defaults: &Scenario,
    notices: &mut Vec<Notice>,
) -> u32 {
    let max = context_tokens_max_for(model);
    if raw.get("in").is_none() && raw.get("ctx").is_some() {
        let reason = format!("the most {} accepts", model.name);
        let default = f64::from(defaults.context_tokens);
        let context =
            CTX.read_capped(raw.get("ctx"), default, (f64::from(max), reason.as_str()), notices) as u32;
        // The prompt it stands for, within the prompt field (a context shorter than half the
        // output leaves the shortest prompt), so the state writes back as the same `in`.
        let prompt = context.saturating_sub(output_tokens / 2);
        let kept = prompt.clamp(PROMPT.min as u32, prompt_tokens_max_for(max, output_tokens));
        return context_for(kept, output_tokens);
    }
    let reason = format!("the most {} accepts less half the output", model.name);
    let cap = f64::from(prompt_tokens_max_for(max, output_tokens));
    let default = f64::from(defaults.prompt_tokens());
    let prompt = PROMPT.read_capped(raw.get("in"), default, (cap, reason.as_str()), notices) as u32;
    context_for(prompt, output_tokens)
}

/// The model preset named by `model`, or the custom model built from the `m_*` keys.
fn read_model(
    raw: &RawQuery,
    lookup: &impl Fn(&str) -> Option<String>,
    notices: &mut Vec<Notice>,
) -> ModelSpec {
    let default = MODELS[0];
    match raw.get("model").map(str::trim) {
        None => default,
        Some(CUSTOM_ID) => {
            let mut custom = read_fields(&MODEL_FIELDS, &CustomModel::from_spec(&default), lookup, notices);
            reconcile_model(&mut custom, notices);
            custom.to_spec()
        }
        Some(id) => model_by_id(id).copied().unwrap_or_else(|| {
            notices.push(unknown("model", id, default.name));
            default
        }),
    }
}

/// The GPU preset named by `gpu`, or the custom GPU built from the `g_*` keys.
fn read_gpu(raw: &RawQuery, lookup: &impl Fn(&str) -> Option<String>, notices: &mut Vec<Notice>) -> GpuSpec {
    let default = GPUS[0];
    match raw.get("gpu").map(str::trim) {
        None => default,
        Some(CUSTOM_ID) => {
            read_fields(&GPU_FIELDS, &CustomGpu::from_spec(&default), lookup, notices).to_spec()
        }
        Some(id) => gpu_by_id(id).copied().unwrap_or_else(|| {
            notices.push(unknown("gpu", id, default.name));
            default
        }),
    }
}

fn unknown(key: &'static str, value: &str, default_name: &str) -> Notice {
    let message = format!("Unknown {key} {}; showing {default_name}.", quoted(value));
    Notice { key, message }
}
