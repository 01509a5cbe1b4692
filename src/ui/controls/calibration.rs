//! The calibration control, first in the control panel beside the headline: ideal roofline, measured engines (with the engine),
//! custom (MBU and overhead) or the user's own measurements' fit, with the measured profile's accuracy
//! and, for a GPU or slot the data do not cover, where its terms come from.

use leptos::prelude::*;

use crate::core::calibration::Engine;
use crate::core::fit::fit;
use crate::core::roofline::CustomCalibration;
use crate::state::calibration::{clamped, DEFAULT_ENGINE};
use crate::state::fields::{MBU_INPUT, OVERHEAD_INPUT};
use crate::state::{CalibrationChoice, Inputs};
use crate::ui::context::page::PageState;
use crate::ui::widgets::{FieldSlider, PresetSelect};
use crate::view::format::calibration::{accuracy_line, provenance_line};

/// Sets the choice, with the engine for measured and the measured-data fit for "your measurements".
fn choose(i: &mut Inputs, choice: CalibrationChoice, fitted: Option<CustomCalibration>) {
    let custom = i.realistic().unwrap_or(CustomCalibration::REALISTIC_DEFAULT);
    match choice {
        CalibrationChoice::Ideal => i.set_realistic(None),
        CalibrationChoice::Measured => i.set_measured(i.engine().unwrap_or(DEFAULT_ENGINE)),
        CalibrationChoice::Custom => i.set_custom(custom),
        CalibrationChoice::Fit => i.set_fit(fitted.unwrap_or(custom)),
    }
}

#[component]
pub fn Calibrate() -> impl IntoView {
    let PageState { inputs, set_inputs, your_points, .. } = PageState::get();
    let choice = move || inputs.get().calibration_choice;
    let options =
        CalibrationChoice::ALL.iter().map(|c| (c.id().to_string(), c.label().to_string())).collect();
    let on_pick = move |id: String| {
        let Some(c) = CalibrationChoice::from_id(&id) else { return };
        let fitted = fit(&inputs.get_untracked().scenario.ideal(), &your_points.get_untracked())
            .ok()
            .map(|f| clamped(&f).0);
        set_inputs.update(|i| choose(i, c, fitted));
    };
    let engines: Vec<(String, String)> =
        Engine::ALL.iter().map(|e| (e.id().to_string(), e.name().to_string())).collect();
    let on_engine = move |id: String| {
        if let Some(e) = Engine::from_id(&id) {
            set_inputs.update(|i| i.set_measured(e));
        }
    };
    let has_sliders = move || matches!(choice(), CalibrationChoice::Custom | CalibrationChoice::Fit);
    let explained = move || choice() != CalibrationChoice::Ideal;
    let provenance = move || {
        (choice() == CalibrationChoice::Measured).then(|| provenance_line(&inputs.get().scenario)).flatten()
    };
    // What the accuracy line reads (the model, GPU, weight precision and engine): a slider that moves
    // none of them does not price the engine's published runs again.
    let accuracy_of = Memo::new(move |_| {
        inputs.with(|i| {
            let s = &i.scenario;
            (s.model, s.gpu, s.weight_precision, i.engine().unwrap_or(DEFAULT_ENGINE))
        })
    });
    let accuracy = Memo::new(move |_| {
        let (model, gpu, weight_precision, engine) = accuracy_of.get();
        let scenario = crate::core::scenario::Scenario {
            model,
            gpu,
            weight_precision,
            ..inputs.get_untracked().scenario
        };
        accuracy_line(&scenario, engine)
    });
    view! {
        <fieldset class="group" id="calibration">
            <legend>"Calibration"</legend>
            <PresetSelect id="calib" label="Cost model" options=options
                selected=Signal::derive(move || choice().id().to_string()) on_pick=on_pick/>
            <Show when=move || choice() == CalibrationChoice::Measured>
                <PresetSelect id="engine" label="Engine" options=engines.clone()
                    selected=Signal::derive(move || inputs.get().engine().unwrap_or(DEFAULT_ENGINE).id().to_string())
                    on_pick=on_engine/>
            </Show>
            <p class="hint" id="calib-accuracy">{accuracy}</p>
            <Show when=explained>
                <p class="hint" id="calib-hint">{move || hint(choice())}</p>
            </Show>
            {move || provenance().map(|line| view! { <p class="hint" id="calib-provenance">{line}</p> })}
            <Show when=has_sliders>
                <FieldSlider input=MBU_INPUT step=1.0/>
                <FieldSlider input=OVERHEAD_INPUT step=0.1/>
            </Show>
        </fieldset>
    }
}

fn hint(choice: CalibrationChoice) -> &'static str {
    match choice {
        CalibrationChoice::Ideal => "The ideal roofline: full bandwidth and peak, no fixed costs. The worked example's \
            model, and a lower bound on any engine's TPOT.",
        CalibrationChoice::Measured => "Fitted to published measurements (GPUStack, InferenceX) within published \
            hardware ceilings: per-step, per-layer and quantization overheads, achieved bandwidth and compute per \
            kernel group; all-reduce latency from the link. Each calibrated number carries its likely range. The \
            ideal curves stay drawn.",
        CalibrationChoice::Custom => "Your own achieved bandwidth (MBU) and per-step overhead. The ideal curves stay drawn.",
        CalibrationChoice::Fit => "MBU and overhead from the fit of your step times (the Your step times panel).",
    }
}
