//! The Custom model's and GPU's number boxes, shown when "Custom" is picked in a menu. With the
//! `lazy_panels` feature they are lazily loaded bodies ([`LazyBody::CustomModel`],
//! [`LazyBody::CustomGpu`]) that load when picked; each box sends the whole custom spec with its
//! number changed as one [`ToPage`] message through the [`PanelContext`].

use leptos::prelude::*;

use crate::core::presets::{CustomGpu, CustomModel};
use crate::protocol::panel::{LazyBody, ToPage};
use crate::state::custom::{CustomField, GPU_FIELDS, MODEL_FIELDS};
use crate::state::Inputs;
use crate::ui::context::panel::PanelContext;
use crate::ui::lazy::body::lazy_body;
use crate::ui::widgets::NumberBox;

/// The custom model's boxes, loaded where the page draws them.
pub fn custom_model_body() -> AnyView {
    lazy_body(LazyBody::CustomModel, || view! { <CustomModelFields/> }.into_any())
}

/// The custom GPU's boxes, loaded where the page draws them.
pub fn custom_gpu_body() -> AnyView {
    lazy_body(LazyBody::CustomGpu, || view! { <CustomGpuFields/> }.into_any())
}

/// One number box per custom-model field; editing one sends the model's numbers.
#[component]
pub fn CustomModelFields() -> impl IntoView {
    let read = |i: &Inputs| CustomModel::from_spec(&i.scenario.model);
    field_boxes("Custom model", &MODEL_FIELDS, read, ToPage::CustomModel)
}

/// One number box per custom-GPU field; editing one sends the GPU's numbers.
#[component]
pub fn CustomGpuFields() -> impl IntoView {
    let read = |i: &Inputs| CustomGpu::from_spec(&i.scenario.gpu);
    field_boxes("Custom GPU", &GPU_FIELDS, read, ToPage::CustomGpu)
}

/// A group of number boxes over `fields` of the custom spec `read` takes out of the inputs; a
/// changed box sends the spec with its number changed, wrapped by `message`.
fn field_boxes<T: Copy + 'static>(
    label: &'static str,
    fields: &'static [CustomField<T>],
    read: fn(&Inputs) -> T,
    message: fn(T) -> ToPage,
) -> impl IntoView {
    let PanelContext { inputs, changes, .. } = PanelContext::get();
    view! {
        <div class="custom-fields" role="group" aria-label=label>
            {fields.iter().map(|f| {
                let (get, set) = (f.get, f.set);
                let value = Signal::derive(move || get(&read(&inputs.get())));
                let on_value = move |v: f64| {
                    let mut custom = read(&inputs.get_untracked());
                    set(&mut custom, v);
                    changes.send(message(custom));
                };
                view! { <NumberBox field=f.field value=value on_value=on_value/> }
            }).collect_view()}
        </div>
    }
}
