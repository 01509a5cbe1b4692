//! The Custom model's and GPU's number boxes, shown when "Custom" is picked in a menu.

use leptos::prelude::*;

use super::page::PageState;
use super::widgets::NumberBox;
use crate::core::presets::{CustomGpu, CustomModel};
use crate::state::custom::{reconcile_model, CustomField, GPU_FIELDS, MODEL_FIELDS};
use crate::state::Inputs;

/// One number box per custom-model field; editing one rebuilds the model spec.
#[component]
pub fn CustomModelFields() -> impl IntoView {
    let read = |i: &Inputs| CustomModel::from_spec(&i.scenario.model);
    let write = |i: &mut Inputs, mut custom: CustomModel| {
        reconcile_model(&mut custom, &mut Vec::new());
        *i = i.with_model(custom.to_spec());
    };
    field_boxes("Custom model", &MODEL_FIELDS, read, write)
}

/// One number box per custom-GPU field; editing one rebuilds the GPU spec.
#[component]
pub fn CustomGpuFields() -> impl IntoView {
    let read = |i: &Inputs| CustomGpu::from_spec(&i.scenario.gpu);
    let write = |i: &mut Inputs, custom: CustomGpu| i.scenario.gpu = custom.to_spec();
    field_boxes("Custom GPU", &GPU_FIELDS, read, write)
}

/// A group of number boxes over `fields` of the custom spec `read` takes out of the inputs and
/// `write` puts back.
fn field_boxes<T: Copy + 'static>(
    label: &'static str,
    fields: &'static [CustomField<T>],
    read: fn(&Inputs) -> T,
    write: fn(&mut Inputs, T),
) -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    view! {
        <div class="custom-fields" role="group" aria-label=label>
            {fields.iter().map(|f| {
                let (get, set) = (f.get, f.set);
                let value = Signal::derive(move || get(&read(&inputs.get())));
                let on_value = move |v: f64| set_inputs.update(|i| {
                    let mut custom = read(i);
                    set(&mut custom, v);
                    write(i, custom);
                });
                view! { <NumberBox field=f.field value=value on_value=on_value/> }
            }).collect_view()}
        </div>
    }
}
