//! The parallelism controls beside tensor parallelism: EP, DP and PP (menus of the degrees the model
//! and system allow), the nodes, the NIC per GPU, the expert imbalance (empty: uniform routing) and
//! two-batch overlap, with the system and the replica in one line each; and the TP menu, whose
//! degrees follow the GPU's domain. Every change goes through
//! the state's transitions ([`Inputs::set_parallel`] and the others), which keep it valid.

use leptos::prelude::*;

use crate::core::parallel::Parallelism;
use crate::state::fields::trim_decimal;
use crate::state::parallel::{
    dp_choices, ep_choices, nodes_choices, pp_choices, routed_experts, tp_choices, IMB, NIC,
};
use crate::state::Inputs;
use crate::ui::context::page::PageState;
use crate::ui::widgets::NumberBox;
use crate::view::format::parallel::{replica_line, system_line};

/// A labelled `<select>` of degrees whose options follow the state.
#[component]
fn DegreeSelect(
    id: &'static str,
    label: &'static str,
    options: Signal<Vec<u32>>,
    selected: Signal<u32>,
    #[prop(optional)] disabled: Option<Signal<bool>>,
    on_pick: impl Fn(u32) + 'static,
) -> impl IntoView {
    let disabled = disabled.unwrap_or(Signal::stored(false));
    view! {
        <div class="control">
            <label for=id>{label}</label>
            <select id=id disabled=move || disabled.get()
                on:change=move |ev| if let Ok(v) = event_target_value(&ev).parse() { on_pick(v) }>
                {move || options.get().into_iter().map(|v| {
                    view! { <option value=v.to_string() selected=move || selected.get() == v>{v.to_string()}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// The "Parallelism" fieldset.
#[component]
pub fn ParallelControls() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let parallel = move || inputs.with(|i| i.scenario.parallel);
    let pick = move |f: fn(&mut Parallelism, u32)| {
        move |v: u32| {
            set_inputs.update(|i| {
                let mut p = i.scenario.parallel;
                f(&mut p, v);
                i.set_parallel(p);
            })
        }
    };
    let dense = Signal::derive(move || inputs.with(|i| routed_experts(&i.scenario.model).is_none()));
    let eps = Signal::derive(move || inputs.with(|i| ep_choices(&i.scenario.model, &i.scenario.parallel)));
    let dps = Signal::derive(move || inputs.with(|i| dp_choices(&i.scenario.gpu, &i.scenario.parallel)));
    let pps = Signal::derive(move || {
        inputs.with(|i| pp_choices(&i.scenario.model, &i.scenario.gpu, &i.scenario.parallel))
    });
    let nodes = Signal::derive(move || {
        inputs.with(|i| nodes_choices(&i.scenario.gpu, &i.scenario.parallel, i.scenario.cluster.nodes))
    });
    let nic = Signal::derive(move || inputs.with(|i| i.scenario.cluster.nic_bytes_per_s));
    let on_nic = move |v: f64| set_inputs.update(|i| i.set_nic_gbps(NIC.to_display(v)));
    view! {
        <fieldset class="group" id="parallel-controls">
            <legend>"Parallelism"</legend>
            <p class="hint" id="system-line">{move || inputs.with(|i| system_line(&i.scenario))}</p>
            <DegreeSelect id="ep" label="Expert parallelism (EP)" options=eps disabled=dense
                selected=Signal::derive(move || parallel().ep) on_pick=pick(|p, v| p.ep = v)/>
            <Show when=move || dense.get()>
                <p class="hint" id="ep-reason">"EP 1: a dense model has no routed experts to split."</p>
            </Show>
            <DegreeSelect id="dp" label="Data parallelism (DP)" options=dps
                selected=Signal::derive(move || parallel().dp) on_pick=pick(|p, v| p.dp = v)/>
            <DegreeSelect id="pp" label="Pipeline parallelism (PP)" options=pps
                selected=Signal::derive(move || parallel().pp) on_pick=pick(|p, v| p.pp = v)/>
            <DegreeSelect id="nodes" label="Nodes" options=nodes
                selected=Signal::derive(move || inputs.with(|i| i.scenario.cluster.nodes))
                on_pick=move |v| set_inputs.update(|i| i.set_nodes(v))/>
            <NumberBox field=NIC value=nic on_value=on_nic/>
            <ImbalanceBox/>
            <div class="control check">
                <input type="checkbox" id="tbo" prop:checked=move || inputs.with(|i| i.scenario.expert_load.two_batch_overlap)
                    on:change=move |ev| set_inputs.update(|i| i.set_two_batch_overlap(event_target_checked(&ev)))/>
                <label for="tbo">"Two-batch overlap"</label>
            </div>
            <p class="hint" id="replica-line" aria-live="polite">{move || inputs.with(|i| replica_line(&i.scenario))}</p>
        </fieldset>
    }
}

/// The busiest EP rank over the mean: a number box that is empty for uniform routing's factor.
#[component]
fn ImbalanceBox() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let (message, set_message) = signal(String::new());
    let shown =
        move || inputs.with(|i| i.scenario.expert_load.imbalance.map(trim_decimal).unwrap_or_default());
    let on_change = move |ev| {
        let text = event_target_value(&ev);
        let mut notices = Vec::new();
        let imbalance = (!text.trim().is_empty()).then(|| IMB.read(Some(&text), 1.0, &mut notices));
        set_message.set(notices.into_iter().map(|n| n.message).collect::<Vec<_>>().join(" "));
        set_inputs.update(|i: &mut Inputs| i.set_imbalance(imbalance));
    };
    view! {
        <div class="control number">
            <label for=IMB.key>"Expert imbalance (busiest rank ÷ mean)"</label>
            <input type="number" id=IMB.key min=IMB.min max=IMB.max step="any" inputmode="decimal"
                placeholder="uniform" prop:value=shown on:change=on_change/>
            <Show when=move || !message.get().is_empty()>
                <p class="field-message" role="alert">{move || message.get()}</p>
            </Show>
        </div>
    }
}

/// Tensor parallelism: the degrees the GPU's scale-up domain offers (up to 72 on NVL72), each named
/// by its GPUs; a pick keeps the other degrees valid.
#[component]
pub fn TensorParallel() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let choices = move || inputs.with(|i| tp_choices(&i.scenario.gpu));
    let selected = move || inputs.with(|i| i.scenario.parallel.tp);
    let on_pick = move |ev| {
        if let Ok(tp) = event_target_value(&ev).parse::<u32>() {
            set_inputs.update(|i| i.set_parallel(Parallelism { tp, ..i.scenario.parallel }));
        }
    };
    view! {
        <div class="control">
            <label for="tp">"Tensor parallelism"</label>
            <select id="tp" on:change=on_pick>
                {move || choices().into_iter().map(|t| {
                    let name = if t == 1 { "1 GPU".to_string() } else { format!("{t} GPUs") };
                    view! { <option value=t.to_string() selected=move || selected() == t>{name}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}
