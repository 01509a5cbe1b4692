//! The search's price editor: one $/GPU-hour box per GPU preset (defaults from
//! [`GPU_PRICES`], each with its source as the box's description and in a list below), writing
//! the `prices` key through [`ToPage::Search`]; a changed price re-prices by searching again.

use leptos::prelude::*;

use crate::core::presets::{GPUS, GPU_PRICES};
use crate::core::search::GPU_COUNT;
use crate::protocol::panel::ToPage;
use crate::state::search::GPU_PRICE;
use crate::ui::context::panel::PanelContext;

/// One box per GPU preset ([`GPU_COUNT`]) and the sources, in a collapsible block.
#[component]
pub fn PriceEditor() -> impl IntoView {
    let signals = PanelContext::get();
    let inputs = signals.inputs;
    let boxes = (0..GPU_COUNT)
        .map(|i| {
            let gpu = GPUS[i];
            let id = format!("price-{}", gpu.id);
            let source_id = format!("price-source-{}", gpu.id);
            let value = move || inputs.get().search.usd_per_gpu_hour[i];
            let on_change = move |ev| {
                let mut search = inputs.get_untracked().search;
                let mut notices = Vec::new();
                search.usd_per_gpu_hour[i] =
                    GPU_PRICE.read(Some(&event_target_value(&ev)), search.usd_per_gpu_hour[i], &mut notices);
                signals.changes.send(ToPage::Search(search));
            };
            view! {
                <div class="control number price">
                    <label for=id.clone()>{gpu.name}<span class="unit">" ($/GPU-hour)"</span></label>
                    <input type="number" id=id min=GPU_PRICE.min max=GPU_PRICE.max step="any" inputmode="decimal"
                        title=GPU_PRICES[i].source aria-describedby=source_id
                        prop:value=move || format!("{}", value()) on:change=on_change/>
                </div>
            }
        })
        .collect_view();
    let sources = (0..GPU_COUNT)
        .map(|i| {
            let p = GPU_PRICES[i];
            view! { <li id=format!("price-source-{}", GPUS[i].id)>{format!("{}: ${} — {}", GPUS[i].name, p.usd_per_gpu_hour, p.source)}</li> }
        })
        .collect_view();
    view! {
        <details id="search-prices" class="search-prices">
            <summary>"Prices ($ per GPU-hour), editable"</summary>
            <div class="price-grid">{boxes}</div>
            <ul class="price-sources hint">{sources}</ul>
        </details>
    }
}
