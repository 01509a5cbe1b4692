//! The capacity plan: target load and GPU price in, replicas, GPUs and cost per million tokens out.
//! The page keeps the heading; the boxes and the result are a lazily loaded body
//! ([`PanelKind::Capacity`]) that loads when the section comes near the viewport.

use leptos::prelude::*;

use super::channel::panel_body_near;
use super::ideal_note::{IdealNote, NotePanel};
use super::page::{PageMemos, PageState};
use super::widgets::NumberInput;
use crate::core::capacity::{capacity_plan, CapacityPlan};
use crate::core::roofline::{Analysis, Scenario};
use crate::format::{fixed, significant, thousands};
use crate::panel_protocol::{PanelKind, PanelState};
use crate::state::fields::{PRICE_INPUT, RATE_INPUT};
use crate::state::Inputs;

/// The section: its heading, then the body once it comes near.
#[component]
pub fn CapacityPanel() -> impl IntoView {
    let inputs = PageState::get().inputs;
    let PageMemos { scenario, analysis, .. } = PageMemos::get();
    let state = expect_context::<Memo<PanelState>>();
    view! {
        <section id="capacity" class="panel capacity" aria-labelledby="capacity-title">
            <h2 id="capacity-title">"Capacity plan"</h2>
            <IdealNote panel=NotePanel::Capacity/>
            {panel_body_near(PanelKind::Capacity, state, Signal::derive(|| false), move || view! {
                <CapacityBody inputs=inputs scenario=scenario analysis=analysis/>
            }.into_any())}
        </section>
    }
}

/// Inputs for the plan and its result, or why there is none. The boxes send their changes through
/// the [`super::page::InputsSignals`] in context.
#[component]
pub fn CapacityBody(
    inputs: ReadSignal<Inputs>,
    scenario: Memo<Scenario>,
    analysis: Memo<Analysis>,
) -> impl IntoView {
    let plan = Memo::new(move |_| {
        let now = inputs.get();
        capacity_plan(&scenario.get(), &analysis.get(), now.rate_req_per_s, now.price_per_gpu_hour)
    });
    view! {
        <div class="capacity-inputs">
            <NumberInput input=RATE_INPUT/>
            <NumberInput input=PRICE_INPUT/>
        </div>
        {move || match plan.get() {
            Some(p) => plan_view(&inputs.get(), &analysis.get(), &p).into_any(),
            None => view! {
                <p id="capacity-none" class="capacity-none">"No batch meets both targets here, so no number of replicas serves this load inside them."</p>
            }.into_any(),
        }}
    }
}
/// The plan's numbers as a definition list, each with the arithmetic behind it.
fn plan_view(i: &Inputs, analysis: &Analysis, p: &CapacityPlan) -> impl IntoView {
    let per_replica = format!(
        "{} req/s at batch {} ({} GPU{} per replica)",
        significant(p.replica_goodput_req_per_s),
        thousands(f64::from(analysis.server_batch)),
        i.scenario.tp,
        if i.scenario.tp == 1 { "" } else { "s" }
    );
    let replicas = format!(
        "⌈{} ÷ {}⌉ = {}",
        fixed(i.rate_req_per_s, 2),
        significant(p.replica_goodput_req_per_s),
        p.replicas
    );
    view! {
        <dl class="plan">
            <dt>"Each replica serves"</dt><dd id="plan-replica">{per_replica}</dd>
            <dt>"Replicas"</dt><dd id="plan-replicas">{replicas}</dd>
            <dt>"GPUs"</dt><dd id="plan-gpus">{thousands(f64::from(p.gpus))}</dd>
            <dt>"Cost per hour"</dt><dd id="plan-cost-hour">{format!("${}", fixed(p.cost_per_hour, 2))}</dd>
            <dt>"Cost per million output tokens"</dt><dd id="plan-cost-mtok">{format!("${}", fixed(p.cost_per_million_tokens, 3))}</dd>
        </dl>
    }
}
