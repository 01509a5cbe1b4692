//! The control panel: calibration, hardware, parallelism, workload, prefix caching, targets and speculative
//! decoding, each control writing one field of the inputs.

use leptos::prelude::*;

use crate::core::presets::{gpu_by_id, model_by_id, CustomGpu, CustomModel, CUSTOM_ID, GPUS, MODELS};
use crate::core::roofline::Precision;
use crate::state::fields::{OUT, PROMPT, TPOT, TPOT_AIM_MS, TPOT_INPUT, TTFT, TTFT_AIM_MS, UTIL_INPUT};
use crate::state::Inputs;
use crate::state::{aimed_stops, log_stops};
use crate::ui::context::page::PageState;
use crate::ui::controls::calibration::Calibrate;
use crate::ui::controls::custom_fields::{custom_gpu_body, custom_model_body};
use crate::ui::controls::parallel::{ParallelControls, TensorParallel};
use crate::ui::controls::prefix::PrefixControls;
use crate::ui::controls::speculative::SpecControls;
use crate::ui::widgets::{FieldSlider, PrecisionSlider, PresetSelect, StopSlider};
use crate::view::format::context_rule;

/// Every control, grouped in labelled fieldsets.
#[component]
pub fn Controls() -> impl IntoView {
    view! {
        <section class="controls" aria-label="Scenario controls">
            // First, so the cost model sits beside the headline (and the first chart keeps its place).
            <Calibrate/>
            <Hardware/>
            <ParallelControls/>
            <Workload/>
            <PrefixControls/>
            <Targets/>
            <SpecControls/>
        </section>
    }
}

/// Menu options for presets plus the custom entry.
fn options(
    presets: impl Iterator<Item = (&'static str, &'static str)>,
    custom: &str,
) -> Vec<(String, String)> {
    presets
        .map(|(id, name)| (id.to_string(), name.to_string()))
        .chain([(CUSTOM_ID.to_string(), custom.to_string())])
        .collect()
}

/// Model, GPU, precisions, tensor parallelism ([`TensorParallel`]) and memory utilization.
#[component]
fn Hardware() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let pick_model = move |id: String| {
        set_inputs.update(|i| {
            let model = match model_by_id(&id) {
                Some(m) => *m,
                None => CustomModel::from_spec(&i.scenario.model).to_spec(),
            };
            *i = i.with_model(model);
        })
    };
    let pick_gpu = move |id: String| {
        set_inputs.update(|i| {
            let gpu =
                gpu_by_id(&id).copied().unwrap_or_else(|| CustomGpu::from_spec(&i.scenario.gpu).to_spec());
            i.set_gpu(gpu)
        })
    };
    let models = options(MODELS.iter().map(|m| (m.id, m.name)), "Custom model…");
    let gpus = options(GPUS.iter().map(|g| (g.id, g.name)), "Custom GPU…");
    let is_custom_model = move || inputs.get().scenario.model.id == CUSTOM_ID;
    let is_custom_gpu = move || inputs.get().scenario.gpu.id == CUSTOM_ID;
    view! {
        <fieldset class="group">
            <legend>"Model and hardware"</legend>
            <PresetSelect id="model" label="Model" options=models selected=Signal::derive(move || inputs.get().scenario.model.id.to_string()) on_pick=pick_model/>
            <Show when=is_custom_model>{custom_model_body()}</Show>
            <PresetSelect id="gpu" label="GPU" options=gpus selected=Signal::derive(move || inputs.get().scenario.gpu.id.to_string()) on_pick=pick_gpu/>
            <Show when=is_custom_gpu>{custom_gpu_body()}</Show>
            <TensorParallel/>
            <PrecisionSlider id="w" label="Weight precision" choices=&Precision::WEIGHTS
                value=Signal::derive(move || inputs.get().scenario.weight_precision)
                on_value=move |p| set_inputs.update(|i| i.scenario.weight_precision = p)/>
            <PrecisionSlider id="kv" label="KV cache precision" choices=&Precision::KV
                value=Signal::derive(move || inputs.get().scenario.kv_precision)
                on_value=move |p| set_inputs.update(|i| i.scenario.kv_precision = p)/>
            <FieldSlider input=UTIL_INPUT step=1.0/>
        </fieldset>
    }
}

/// Prompt and output lengths, as users state a workload, and the context they give (the one
/// place the rule is shown).
#[component]
fn Workload() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    // The prompt's stops end where the context reaches the model's maximum, so the whole slider
    // moves the value.
    let prompt_stops = Signal::derive(move || inputs.with(Inputs::prompt_stops));
    let prompt_cap = Signal::derive(move || {
        inputs.with(|i| {
            let why = format!("the most {} accepts less half the output", i.scenario.model.name);
            (f64::from(i.prompt_tokens_max()), why)
        })
    });
    let output_stops = log_stops(OUT.min as u32, OUT.max as u32);
    view! {
        <fieldset class="group">
            <legend>"Workload "
                <span id="context-rule" class="context-rule" title="The context the step reads: what a sequence holds on average while it answers.">
                    {move || context_rule(&inputs.get().scenario)}
                </span>
            </legend>
            <StopSlider field=PROMPT stops=prompt_stops cap=prompt_cap
                value=Signal::derive(move || f64::from(inputs.get().scenario.prompt_tokens()))
                on_value=move |v| set_inputs.update(|i| i.set_prompt_tokens(v as u32))/>
            <StopSlider field=OUT stops=Signal::stored(output_stops)
                value=Signal::derive(move || f64::from(inputs.get().scenario.output_tokens))
                on_value=move |v| set_inputs.update(|i| i.set_output_tokens(v as u32))/>
        </fieldset>
    }
}

/// The TPOT and TTFT objectives.
#[component]
fn Targets() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    view! {
        <fieldset class="group">
            <legend>"Latency targets"</legend>
            <StopSlider field=TPOT stops=Signal::stored(aimed_stops(TPOT.min as u32, TPOT.max as u32, TPOT_AIM_MS))
                value=Signal::derive(move || (TPOT_INPUT.get)(&inputs.get()))
                on_value=move |s| set_inputs.update(|i| (TPOT_INPUT.set)(i, s))/>
            <StopSlider field=TTFT stops=Signal::stored(aimed_stops(TTFT.min as u32, TTFT.max as u32, TTFT_AIM_MS))
                value=Signal::derive(move || inputs.get().scenario.ttft_target_s)
                on_value=move |s| set_inputs.update(|i| i.scenario.ttft_target_s = s)/>
        </fieldset>
    }
}
