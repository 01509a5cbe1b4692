//! The prefix-cache controls: the shared prefix's length (a slider over stops up to the context, with
//! its exact-value box) and the cache hit rate, beside the other what-if controls.

use leptos::prelude::*;

use crate::ui::context::page::PageState;
use std::rc::Rc;

use crate::state::nearest_stop_index;
use crate::state::prefix::{prefix_stops, HIT_INPUT, PREFIX, PREFIX_INPUT};
use crate::ui::widgets::drag;
use crate::ui::widgets::{exact_box, field_message, ExactBox, FieldSlider};
use crate::view::format::thousands;

/// The "Prefix caching" fieldset: shared prefix (tokens) and hit rate (%), each labelled, with its
/// value read out, moved by the arrow keys.
#[component]
pub fn PrefixControls() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let stops = Memo::new(move |_| prefix_stops(inputs.get().scenario.prompt_tokens()));
    let tokens = move || inputs.with(|i| i.scenario.prefix.prefix_tokens.min(i.scenario.prompt_tokens()));
    let index = move || stops.with(|s| nearest_stop_index(s, tokens()));
    let max_index = move || stops.with(Vec::len).saturating_sub(1);
    let text = move || match tokens() {
        0 => "none".to_string(),
        t => format!("{} tokens", thousands(f64::from(t))),
    };
    let (message, set_message) = signal(String::new());
    let on_input = move |ev| {
        let i = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        if let Some(v) = stops.with_untracked(|s| s.get(i).copied()) {
            set_message.set(String::new());
            drag::apply(move || set_inputs.update(|inputs| inputs.scenario.prefix.prefix_tokens = v));
        }
    };
    // The box's top is the context, as the URL's `prefix` is.
    let cap = Signal::derive(move || {
        (f64::from(inputs.get().scenario.prompt_tokens()), "the prompt length".to_string())
    });
    let boxed = ExactBox {
        field: PREFIX,
        label: PREFIX.label,
        cap: Some(cap),
        value: Signal::derive(move || f64::from(tokens())),
    };
    let on_value = Rc::new(move |v: f64| set_inputs.update(|i| (PREFIX_INPUT.set)(i, v)));
    view! {
        <fieldset class="group" id="prefix-controls">
            <legend>"Prefix caching"</legend>
            <div class="control exact">
                <label for=PREFIX.key>{PREFIX.label}</label>
                <output id="prefix-value" for=PREFIX.key>{text}</output>
                <input type="range" id=PREFIX.key min="0" max=move || max_index().to_string() step="1"
                    prop:value=move || index().to_string() aria-valuetext=text on:input=on_input/>
                {exact_box(boxed, on_value, set_message)}
                {field_message(message)}
            </div>
            <FieldSlider input=HIT_INPUT step=1.0/>
            <p class="hint">"One prompt prefix every request shares (a system prompt). A hit prefills only the rest of its prompt and holds only that part's KV; the prefix's KV is stored once. Each decode step still reads the whole context."</p>
        </fieldset>
    }
}
