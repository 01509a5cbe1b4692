//! Reusable controls: preset menus, sliders over stops and over a bound [`InputField`] (each with
//! its exact-value number box), number boxes over a bound field (or a bare [`NumberField`]), and a
//! slider over a list of precisions.

pub(crate) mod drag;
pub(crate) mod file_drop;
pub(crate) mod theme_picker;

use std::rc::Rc;

use leptos::prelude::*;

use crate::core::roofline::Precision;
use crate::state::fields::{trim_decimal, InputField, NumberField};
use crate::state::nearest_stop_index;
use crate::ui::context::panel::PanelContext;
use crate::view::format::thousands;

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

/// A range input over stops (log-spaced, in display units; they may follow the state, as the
/// context's follow the model's maximum), showing the exact value with its unit, and beside it the
/// field's exact-value box ([`exact_box`]): the slider shows the nearest stop, the state keeps the
/// value. `value` and `on_value` are in base units; `cap` lowers the box's top (see [`exact_box`]).
#[component]
pub fn StopSlider(
    field: NumberField,
    /// The visible label, when it says more than the field's.
    #[prop(optional)]
    label: Option<&'static str>,
    #[prop(into)] stops: Signal<Vec<u32>>,
    value: Signal<f64>,
    #[prop(optional)] cap: Option<Signal<(f64, String)>>,
    on_value: impl Fn(f64) + 'static,
) -> impl IntoView {
    let id = field.key;
    let label = label.unwrap_or(field.label);
    let (message, set_message) = signal(String::new());
    let on_value = Rc::new(on_value);
    let display = move || field.to_display(value.get());
    let max_index = move || stops.with(|s| s.len().saturating_sub(1));
    let index = move || stops.with(|s| nearest_stop_index(s, display().round() as u32));
    let text = move || format!("{} {}", readable(display()), field.unit);
    let slide = on_value.clone();
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0).min(max_index());
        if let Some(v) = stops.with_untracked(|s| s.get(i).copied()) {
            set_message.set(String::new());
            let slide = slide.clone();
            drag::apply(move || slide(field.to_base(f64::from(v))));
        }
    };
    view! {
        <div class="control exact">
            <label for=id>{label}</label>
            <output id=format!("{id}-value") for=id>{text}</output>
            <input type="range" id=id min="0" max=max_index step="1"
                prop:value=move || index().to_string() aria-valuetext=text on:input=on_input/>
            {exact_box(ExactBox { field, label, cap, value }, on_value, set_message)}
            {field_message(message)}
        </div>
    }
}

/// A number as a slider's read-out shows it (at most three decimals, so 1.5 s reads 1,500 ms):
/// whole numbers with thousands separators, others with their decimals.
fn readable(x: f64) -> String {
    let x = (x * 1e3).round() / 1e3;
    if x.fract() == 0.0 {
        thousands(x)
    } else {
        trim_decimal(x)
    }
}

/// A linear range input over a bound field's display range, reading and writing its value in the
/// inputs (kept in base units), with the field's exact-value box beside it.
#[component]
pub fn FieldSlider(input: InputField, step: f64) -> impl IntoView {
    let signals = PanelContext::get();
    let inputs = signals.inputs;
    let field = input.field;
    let (message, set_message) = signal(String::new());
    let value = move || (input.get)(&inputs.get());
    let text = move || field.with_unit(field.to_display(value()));
    let on_input = move |ev| {
        if let Ok(x) = event_target_value(&ev).parse::<f64>() {
            set_message.set(String::new());
            let v = field.to_base(x.clamp(field.min, field.max));
            drag::apply(move || signals.update(|i| (input.set)(i, v)));
        }
    };
    let boxed = ExactBox { field, label: field.label, cap: None, value: Signal::derive(value) };
    let on_value = Rc::new(move |v: f64| signals.update(|i| (input.set)(i, v)));
    view! {
        <div class="control exact">
            <label for=field.key>{field.label}</label>
            <output id=format!("{}-value", field.key) for=field.key>{text}</output>
            <input type="range" id=field.key min=field.min max=field.max step=step
                prop:value=move || trim_decimal(field.to_display(value())) aria-valuetext=text on:input=on_input/>
            {exact_box(boxed, on_value, set_message)}
            {field_message(message)}
        </div>
    }
}

/// What a slider's exact-value box reads and shows: its field, the slider's label, the value (base
/// units) and, when the top is lower than the field's, that top (display units) and why it is there.
pub(crate) struct ExactBox {
    pub field: NumberField,
    pub label: &'static str,
    pub cap: Option<Signal<(f64, String)>>,
    pub value: Signal<f64>,
}

/// The number box beside a slider (id `<key>-exact`, labelled "<label> (exact value)"): it shows the
/// value and, on commit (change or Enter), reads the typed text through the field's validation (the
/// URL's), clamping or rejecting it with the field's notice in `message`, sets what it used with
/// `on_value` (the slider's own setter) and then shows the value the state holds.
pub(crate) fn exact_box(
    b: ExactBox,
    on_value: Rc<dyn Fn(f64)>,
    message: WriteSignal<String>,
) -> impl IntoView {
    let ExactBox { field, label, cap, value } = b;
    let shown = move |base: f64| trim_decimal(field.to_display(base));
    let on_change = move |ev: leptos::ev::Event| {
        let mut notices = Vec::new();
        let (text, now) = (event_target_value(&ev), value.get_untracked());
        let used = match cap.map(|c| c.get_untracked()) {
            Some((top, why)) => field.read_capped(Some(&text), now, (top, &why), &mut notices),
            None => field.read(Some(&text), now, &mut notices),
        };
        message.set(notices.into_iter().map(|n| n.message).collect::<Vec<_>>().join(" "));
        on_value(used);
        // The state may hold the value already (nothing to re-render): show it all the same.
        let input: web_sys::HtmlInputElement = event_target(&ev);
        input.set_value(&shown(value.get_untracked()));
    };
    let (min, max) = (trim_decimal(field.min), move || trim_decimal(cap.map_or(field.max, |c| c.get().0)));
    let step = if field.whole { "1" } else { "any" };
    view! {
        <input type="number" class="exact" id=format!("{}-exact", field.key) aria-label=format!("{label} (exact value)")
            min=min max=max step=step inputmode="decimal"
            prop:value=move || shown(value.get()) on:change=on_change/>
    }
}

/// A slider's notice for a value its box could not use as typed, while there is one.
pub(crate) fn field_message(message: ReadSignal<String>) -> impl IntoView {
    view! {
        <Show when=move || !message.get().is_empty()>
            <p class="field-message" role="alert">{move || message.get()}</p>
        </Show>
    }
}

/// A number box over a bound field, reading and writing its value in the inputs.
#[component]
pub fn NumberInput(input: InputField) -> impl IntoView {
    let signals = PanelContext::get();
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
    let on_value = Rc::new(on_value);
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        if let Some(p) = choices.get(i).copied() {
            let on_value = on_value.clone();
            drag::apply(move || on_value(p));
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
