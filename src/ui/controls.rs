//! The control panel: model and GPU menus and the four sliders, each writing one field of the inputs.

use leptos::prelude::*;

use crate::core::presets::{gpu_by_id, model_by_id, GPUS, MODELS};
use crate::core::roofline::Precision;
use crate::core::units::{ms_to_s, s_to_ms};
use crate::format::{target_ms, thousands};
use crate::state::fields::{CTX, OUT, TPOT};
use crate::state::{log_stops, nearest_stop_index, Inputs};

/// Every control, grouped in a labelled panel.
#[component]
pub fn Controls(inputs: ReadSignal<Inputs>, set_inputs: WriteSignal<Inputs>) -> impl IntoView {
    let context_stops = log_stops(CTX.min as u32, CTX.max as u32);
    let output_stops = log_stops(OUT.min as u32, OUT.max as u32);
    let pick_model = move |id: String| {
        if let Some(m) = model_by_id(&id) {
            set_inputs.update(|i| *i = i.with_model(*m));
        }
    };
    let pick_gpu = move |id: String| {
        if let Some(g) = gpu_by_id(&id) {
            set_inputs.update(|i| i.gpu = *g);
        }
    };
    let models: Vec<_> = MODELS.iter().map(|m| (m.id, m.name)).collect();
    let gpus: Vec<_> = GPUS.iter().map(|g| (g.id, g.name)).collect();
    view! {
        <section class="controls" aria-label="Scenario controls">
            <PresetSelect id="model" label="Model" options=models selected=Signal::derive(move || inputs.get().model.id) on_pick=pick_model/>
            <PresetSelect id="gpu" label="GPU" options=gpus selected=Signal::derive(move || inputs.get().gpu.id) on_pick=pick_gpu/>
            <StopSlider id="ctx" label="Context length" unit="tokens" stops=context_stops
                value=Signal::derive(move || inputs.get().context_tokens)
                on_value=move |v| set_inputs.update(|i| i.context_tokens = v.min(i.max_context_tokens()))/>
            <KvSlider value=Signal::derive(move || inputs.get().kv_precision)
                on_value=move |p| set_inputs.update(|i| i.kv_precision = p)/>
            <TpotSlider value_ms=Signal::derive(move || s_to_ms(inputs.get().tpot_target_s))
                on_value=move |ms| set_inputs.update(|i| i.tpot_target_s = ms_to_s(ms))/>
            <StopSlider id="out" label="Output length" unit="tokens" stops=output_stops
                value=Signal::derive(move || inputs.get().output_tokens)
                on_value=move |v| set_inputs.update(|i| i.output_tokens = v)/>
        </section>
    }
}

/// A labelled `<select>` over presets, identified by their URL ids.
#[component]
fn PresetSelect(
    id: &'static str,
    label: &'static str,
    options: Vec<(&'static str, &'static str)>,
    selected: Signal<&'static str>,
    on_pick: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <select id=id on:change=move |ev| on_pick(event_target_value(&ev))>
                {options.into_iter().map(|(value, name)| view! {
                    <option value=value selected=move || selected.get() == value>{name}</option>
                }).collect_view()}
            </select>
        </div>
    }
}

/// A range input over fixed stops (log-spaced), showing the exact value with its unit.
#[component]
fn StopSlider(
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    stops: Vec<u32>,
    value: Signal<u32>,
    on_value: impl Fn(u32) + 'static,
) -> impl IntoView {
    let max_index = stops.len().saturating_sub(1);
    let stops = StoredValue::new(stops);
    let index = move || stops.with_value(|s| nearest_stop_index(s, value.get()));
    let text = move || format!("{} {unit}", thousands(f64::from(value.get())));
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0).min(max_index);
        if let Some(v) = stops.with_value(|s| s.get(i).copied()) {
            on_value(v);
        }
    };
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <output id=format!("{id}-value") for=id>{text}</output>
            <input type="range" id=id min="0" max=max_index step="1"
                prop:value=move || index().to_string() aria-valuetext=text on:input=on_input/>
        </div>
    }
}

/// The TPOT target in whole milliseconds.
#[component]
fn TpotSlider(value_ms: Signal<f64>, on_value: impl Fn(f64) + 'static) -> impl IntoView {
    let text = move || format!("{} ms", target_ms(ms_to_s(value_ms.get())));
    let on_input = move |ev| {
        if let Ok(ms) = event_target_value(&ev).parse::<f64>() {
            on_value(ms.clamp(TPOT.min, TPOT.max));
        }
    };
    view! {
        <div class="control">
            <label for="tpot">"TPOT target"</label>
            <output id="tpot-value" for="tpot">{text}</output>
            <input type="range" id="tpot" min=TPOT.min max=TPOT.max step="1"
                prop:value=move || value_ms.get().to_string() aria-valuetext=text on:input=on_input/>
        </div>
    }
}

/// KV-cache precision as a slider with one stop per precision.
#[component]
fn KvSlider(value: Signal<Precision>, on_value: impl Fn(Precision) + 'static) -> impl IntoView {
    let index = move || Precision::KV.iter().position(|p| *p == value.get()).unwrap_or(0);
    let text = move || value.get().label();
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        if let Some(p) = Precision::KV.get(i) {
            on_value(*p);
        }
    };
    view! {
        <div class="control">
            <label for="kv">"KV cache precision"</label>
            <output id="kv-value" for="kv">{text}</output>
            <input type="range" id="kv" min="0" max=Precision::KV.len() - 1 step="1"
                prop:value=move || index().to_string() aria-valuetext=text on:input=on_input/>
            <div class="ticks" aria-hidden="true">
                {Precision::KV.iter().map(|p| view! { <span>{p.label()}</span> }).collect_view()}
            </div>
        </div>
    }
}
