//! The speculative-decoding what-if: off, a draft model or a draft head, the draft length k, the
//! acceptance rate and a head's cost, with the readout of E, both knees and the crossover batch.

use leptos::prelude::*;

use crate::core::presets::{model_by_id, MODELS};
use crate::core::roofline::spec_summary;
use crate::core::spec::Drafter;
use crate::state::spec::{
    drafter_for_mode, mode_id, ACCEPTANCE_INPUT, DRAFT_TOKENS_INPUT, HEAD_COST_INPUT, MODES,
};
use crate::ui::context::page::{PageMemos, PageState};
use crate::ui::widgets::{FieldSlider, PresetSelect};
use crate::view::format::spec::spec_sentence;

/// The `spec=` choices as the menu names them.
fn mode_options() -> Vec<(String, String)> {
    let names = ["Off", "Draft model", "Draft head (MTP, EAGLE)"];
    MODES.iter().zip(names).map(|(id, name)| (id.to_string(), name.to_string())).collect()
}

/// The speculative-decoding fieldset.
#[component]
pub fn SpecControls() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let memos = PageMemos::get();
    let drafter = move || inputs.get().scenario.speculation.drafter;
    let pick_mode = move |id: String| {
        set_inputs.update(|i| {
            let s = &mut i.scenario.speculation;
            s.drafter = drafter_for_mode(&id, &s.drafter);
        })
    };
    let pick_draft = move |id: String| {
        if let Some(m) = model_by_id(&id) {
            set_inputs.update(|i| i.scenario.speculation.drafter = Drafter::Model(*m));
        }
    };
    let drafts: Vec<(String, String)> =
        MODELS.iter().map(|m| (m.id.to_string(), m.name.to_string())).collect();
    let is_on = move || !matches!(drafter(), Drafter::Off);
    let is_model = move || matches!(drafter(), Drafter::Model(_));
    let is_head = move || matches!(drafter(), Drafter::Head { .. });
    let draft_id = move || match drafter() {
        Drafter::Model(m) => m.id.to_string(),
        _ => String::new(),
    };
    let readout = move || spec_summary(&memos.scenario.get()).map(|s| spec_sentence(&s)).unwrap_or_default();
    view! {
        <fieldset class="group" id="spec-controls">
            <legend>"Speculative decoding"</legend>
            <PresetSelect id="spec" label="Drafter" options=mode_options()
                selected=Signal::derive(move || mode_id(&drafter()).to_string()) on_pick=pick_mode/>
            <Show when=is_model>
                <PresetSelect id="draft" label="Draft model" options=drafts.clone()
                    selected=Signal::derive(draft_id) on_pick=pick_draft/>
            </Show>
            <Show when=is_head>
                <FieldSlider input=HEAD_COST_INPUT step=0.05/>
            </Show>
            <Show when=is_on>
                <FieldSlider input=DRAFT_TOKENS_INPUT step=1.0/>
                <FieldSlider input=ACCEPTANCE_INPUT step=0.01/>
                <p class="hint" id="spec-readout" aria-live="polite">{readout}</p>
            </Show>
            <Show when=move || !is_on()>
                <p class="hint">"Off: one token per sequence per step. A drafter proposes k tokens that the target verifies in one step."</p>
            </Show>
        </fieldset>
    }
}
