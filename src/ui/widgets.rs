//! Reusable controls: preset menus, sliders over stops, sliders and number boxes over a bound
//! [`InputField`] (or a bare [`NumberField`]), and a slider over a list of precisions.

use leptos::prelude::*;

use super::page::InputsSignals;
use crate::core::roofline::Precision;
use crate::format::thousands;
use crate::state::fields::{trim_decimal, InputField, NumberField};
use crate::state::nearest_stop_index;

/// A labelled `<select>` over (value, name) options.
#[component]
pub fn PresetSelect(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    selected: Signal<String>,
    on_pick: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <select id=id on:change=move |ev| on_pick(event_target_value(&ev))>
                {options.into_iter().map(|(value, name)| {
                    let v = value.clone();
                    view! { <option value=value selected=move || selected.get() == v>{name}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// A range input over stops (log-spaced; they may follow the state, as the context's follow the
/// model's maximum), showing the exact value with its unit.
#[component]
pub fn StopSlider(
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    #[prop(into)] stops: Signal<Vec<u32>>,
    value: Signal<u32>,
    on_value: impl Fn(u32) + 'static,
) -> impl IntoView {
    let max_index = move || stops.with(|s| s.len().saturating_sub(1));
    let index = move || stops.with(|s| nearest_stop_index(s, value.get()));
    let text = move || format!("{} {unit}", thousands(f64::from(value.get())));
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0).min(max_index());
        if let Some(v) = stops.with_untracked(|s| s.get(i).copied()) {
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

/// A linear range input over a bound field's display range, reading and writing its value in the
/// inputs (kept in base units).
#[component]
pub fn FieldSlider(input: InputField, step: f64) -> impl IntoView {
    let signals = InputsSignals::get();
    let inputs = signals.inputs;
    let field = input.field;
    let value = move || (input.get)(&inputs.get());
    let text = move || field.with_unit(field.to_display(value()));
    let on_input = move |ev| {
        if let Ok(x) = event_target_value(&ev).parse::<f64>() {
            signals.update(|i| (input.set)(i, field.to_base(x.clamp(field.min, field.max))));
        }
    };
    view! {
        <div class="control">
            <label for=field.key>{field.label}</label>
            <output id=format!("{}-value", field.key) for=field.key>{text}</output>
            <input type="range" id=field.key min=field.min max=field.max step=step
                prop:value=move || trim_decimal(field.to_display(value())) aria-valuetext=text on:input=on_input/>
        </div>
    }
}

/// A number box over a bound field, reading and writing its value in the inputs.
#[component]
pub fn NumberInput(input: InputField) -> impl IntoView {
    let signals = InputsSignals::get();
    let inputs = signals.inputs;
    let value = Signal::derive(move || (input.get)(&inputs.get()));
    let on_value = move |v: f64| signals.update(|i| (input.set)(i, v));
    view! { <NumberBox field=input.field value=value on_value=on_value/> }
}

/// A number box over a field whose value lives elsewhere (a custom spec, an optional number): typed
/// text is validated by the field itself; a rejected or clamped value shows the field's message under
/// the box and the value actually used.
#[component]
pub fn NumberBox(field: NumberField, value: Signal<f64>, on_value: impl Fn(f64) + 'static) -> impl IntoView {
    let (message, set_message) = signal(String::new());
    let on_change = move |ev| {
        let mut notices = Vec::new();
        let used = field.read(Some(&event_target_value(&ev)), value.get_untracked(), &mut notices);
        set_message.set(notices.into_iter().map(|notice| notice.message).collect::<Vec<_>>().join(" "));
        on_value(used);
    };
    let step = if field.whole { "1" } else { "any" };
    view! {
        <div class="control number">
            <label for=field.key>{field.label}
                {(!field.unit.is_empty()).then(|| view! { <span class="unit">{format!(" ({})", field.unit)}</span> })}
            </label>
            <input type="number" id=field.key min=field.min max=field.max step=step inputmode="decimal"
                prop:value=move || trim_decimal(field.to_display(value.get())) on:change=on_change/>
            <Show when=move || !message.get().is_empty()>
                <p class="field-message" role="alert">{move || message.get()}</p>
            </Show>
        </div>
    }
}

/// A precision chosen with a slider that has one stop per offered format.
#[component]
pub fn PrecisionSlider(
    id: &'static str,
    label: &'static str,
    choices: &'static [Precision],
    value: Signal<Precision>,
    on_value: impl Fn(Precision) + 'static,
) -> impl IntoView {
    let index = move || choices.iter().position(|p| *p == value.get()).unwrap_or(0);
    let text = move || value.get().label();
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        if let Some(p) = choices.get(i) {
            on_value(*p);
        }
    };
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <output id=format!("{id}-value") for=id>{text}</output>
            <input type="range" id=id min="0" max=choices.len() - 1 step="1"
                prop:value=move || index().to_string() aria-valuetext=text on:input=on_input/>
            <div class="ticks" aria-hidden="true">
                {choices.iter().map(|p| view! { <span>{p.label()}</span> }).collect_view()}
            </div>
        </div>
    }
}
