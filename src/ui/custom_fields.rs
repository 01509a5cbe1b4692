//! The Custom model's and GPU's number boxes, shown when "Custom" is picked in a menu.

use leptos::prelude::*;

use super::widgets::NumberInput;
use crate::core::presets::{CustomGpu, CustomModel};
use crate::state::custom::{reconcile_model, GPU_FIELDS, MODEL_FIELDS};
use crate::state::Inputs;

/// One number box per custom-model field; editing one rebuilds the model spec.
#[component]
pub fn CustomModelFields(inputs: ReadSignal<Inputs>, set_inputs: WriteSignal<Inputs>) -> impl IntoView {
    view! {
        <div class="custom-fields" role="group" aria-label="Custom model">
            {MODEL_FIELDS.iter().map(|f| {
                let (get, set) = (f.get, f.set);
                let value = Signal::derive(move || get(&CustomModel::from_spec(&inputs.get().model)));
                let on_value = move |v: f64| set_inputs.update(|i| {
                    let mut custom = CustomModel::from_spec(&i.model);
                    set(&mut custom, v);
                    reconcile_model(&mut custom, &mut Vec::new());
                    *i = i.with_model(custom.to_spec());
                });
                view! { <NumberInput field=f.field value=value on_value=on_value/> }
            }).collect_view()}
        </div>
    }
}

/// One number box per custom-GPU field; editing one rebuilds the GPU spec.
#[component]
pub fn CustomGpuFields(inputs: ReadSignal<Inputs>, set_inputs: WriteSignal<Inputs>) -> impl IntoView {
    view! {
        <div class="custom-fields" role="group" aria-label="Custom GPU">
            {GPU_FIELDS.iter().map(|f| {
                let (get, set) = (f.get, f.set);
                let value = Signal::derive(move || get(&CustomGpu::from_spec(&inputs.get().gpu)));
                let on_value = move |v: f64| set_inputs.update(|i| {
                    let mut custom = CustomGpu::from_spec(&i.gpu);
                    set(&mut custom, v);
                    i.gpu = custom.to_spec();
                });
                view! { <NumberInput field=f.field value=value on_value=on_value/> }
            }).collect_view()}
        </div>
    }
}
