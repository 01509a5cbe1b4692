//! The capacity plan: target load and GPU price in, replicas, GPUs and cost per million tokens out.
//! The page keeps the heading; the boxes and the result are a lazily loaded body
//! ([`LazyBody::Capacity`]) that loads when the section comes near the viewport.

use leptos::prelude::*;

use crate::core::capacity::{capacity_plan, gpus_for, gpus_range, CapacityPlan};
use crate::core::goodput::evaluate;
use crate::core::placement::PlacementMode;
use crate::core::presets::GPU_PRICES;
use crate::core::roofline::Analysis;
use crate::core::scenario::Scenario;
use crate::protocol::panel::LazyBody;
use crate::state::energy::{HOSTW_INPUT, KWH_INPUT, PUE_INPUT};
use crate::state::fields::{PRICE_INPUT, RATE_INPUT};
use crate::state::Inputs;
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::ideal_note::IdealFigures;
use crate::ui::panels::section::{Opener, PlanningSection, Section};
use crate::ui::widgets::NumberInput;
use crate::view::format::energy::{energy_scope, plan_energy_text, plan_power_text, power_source};
use crate::view::format::placement::{binds_text, ms_text, percentile_label, seconds_text};
use crate::view::format::{fixed, significant, thousands};

/// The section: its heading, then the body once it comes near.
pub struct Capacity;

impl PlanningSection for Capacity {
    const SECTION: Section = Section {
        id: "capacity",
        panel: None,
        title: "Capacity plan",
        hint: None,
        figures: Some(IdealFigures::Gpus),
        opener: Opener::Near,
        body: LazyBody::Capacity,
    };

    fn body() -> AnyView {
        view! { <CapacityBody/> }.into_any()
    }
}

/// Inputs for the plan and its result, or why there is none, from the [`PanelContext`] (the boxes
/// send their changes through it).
#[component]
pub fn CapacityBody() -> impl IntoView {
    let PanelContext { inputs, scenario, analysis, .. } = PanelContext::get();
    let plan = Memo::new(move |_| {
        let now = inputs.get();
        capacity_plan(
            &scenario.get(),
            &now.placing(),
            now.rate_req_per_s,
            now.usd_per_gpu_hour(),
            &now.energy,
        )
    });
    let decode_only = Memo::new(move |_| decode_only_plan(&inputs.get(), &scenario.get(), &analysis.get()));
    let range = Memo::new(move |_| {
        let now = inputs.get();
        gpus_range(&scenario.get(), &now.placing(), now.rate_req_per_s, now.usd_per_gpu_hour())
            .map(|(r, low, high)| gpus_range_text(r.coverage.word(), low, high))
    });
    view! {
        <div class="capacity-inputs">
            <NumberInput input=RATE_INPUT/>
            <NumberInput input=PRICE_INPUT/>
            <NumberInput input=KWH_INPUT/>
            <NumberInput input=PUE_INPUT/>
            <NumberInput input=HOSTW_INPUT/>
        </div>
        <p id="plan-price-source" class="plan-note">{move || price_source(&inputs.get())}</p>
        <p id="plan-energy-source" class="plan-note">{move || inputs.with(|i| power_source(&i.scenario.gpu, &i.energy))}</p>
        <p id="energy-scope" class="plan-note">{move || format!("Energy counts {}. Set $/kWh to 0 where the GPU-hour price already pays for the power.", energy_scope(&inputs.get().energy))}</p>
        {move || match plan.get() {
            Some(p) => plan_view(&inputs.get(), &p, decode_only.get(), range.get()).into_any(),
            None => view! {
                <p id="capacity-none" class="capacity-none">"No rate meets both targets at this percentile with prefill on the GPUs, so no number of replicas serves this load inside them."</p>
            }.into_any(),
        }}
    }
}

/// The batch table's answer, without prefill: replicas at the knee serving decode only.
fn decode_only_plan(i: &Inputs, scenario: &Scenario, analysis: &Analysis) -> Option<(f64, u32)> {
    let rate =
        (analysis.server_batch > 0).then(|| evaluate(scenario, analysis.server_batch).goodput_req_per_s)?;
    let gpus = gpus_for(i.rate_req_per_s, rate, scenario.parallel.gpus());
    (gpus > 0).then_some((rate, gpus))
}

/// Where the price comes from: the search's sourced default for a preset (or that it was edited).
fn price_source(i: &Inputs) -> String {
    match i.gpu_price_index() {
        Some(k) if i.search.usd_per_gpu_hour[k] == GPU_PRICES[k].usd_per_gpu_hour => {
            format!("{} price: {}", i.scenario.gpu.name, GPU_PRICES[k].source)
        }
        Some(_) => format!("{} price: edited here (the search's price list follows).", i.scenario.gpu.name),
        None => "A custom GPU: the price is yours.".to_string(),
    }
}

/// The plan's numbers as a definition list, each with the arithmetic behind it.
fn plan_view(
    i: &Inputs,
    p: &CapacityPlan,
    decode_only: Option<(f64, u32)>,
    range: Option<String>,
) -> impl IntoView {
    let unit = &p.unit;
    let pct = percentile_label(&i.percentile());
    let how = match i.placement.mode {
        PlacementMode::Colocated => {
            format!("chunked prefill, {}-token steps", thousands(f64::from(i.sim.chunk_tokens)))
        }
        PlacementMode::Disaggregated => "the disaggregated split".to_string(),
    };
    let per_replica = format!(
        "{} req/s with {} ({} GPU{}): {} TTFT {}, {} TPOT {}; {} binds",
        significant(unit.rate_req_per_s),
        how,
        unit.gpus,
        if unit.gpus == 1 { "" } else { "s" },
        pct,
        seconds_text(unit.ttft_s),
        pct,
        ms_text(unit.tpot_s),
        binds_text(unit.binds),
    );
    let replicas =
        format!("⌈{} ÷ {}⌉ = {}", fixed(i.rate_req_per_s, 2), significant(unit.rate_req_per_s), p.replicas);
    let decode = decode_only.map_or("no batch meets both targets".to_string(), |(rate, gpus)| {
        format!(
            "{} req/s a replica at the knee, {} GPUs: a lower bound, prompts are not free",
            significant(rate),
            thousands(f64::from(gpus))
        )
    });
    view! {
        <dl class="plan">
            <dt>"Each replica serves"</dt><dd id="plan-replica">{per_replica}</dd>
            <dt>"Replicas"</dt><dd id="plan-replicas">{replicas}</dd>
            <dt>"GPUs"</dt><dd id="plan-gpus">{thousands(f64::from(p.gpus))}{range.map(|r| view! { <span id="plan-gpus-range" class="range">{r}</span> })}</dd>
            <dt>"Power"</dt><dd id="plan-power">{plan_power_text(p.gpus, &p.energy, &i.energy)}</dd>
            <dt>"Energy"</dt><dd id="plan-energy">{plan_energy_text(&p.energy)}</dd>
            <dt>"Cost per hour"</dt><dd id="plan-cost-hour">{cost_hour_text(p)}</dd>
            <dt>"Cost per million output tokens"</dt><dd id="plan-cost-mtok">{cost_mtok_text(p)}</dd>
            <dt>"Decode only"</dt><dd id="plan-decode-only">{decode}</dd>
        </dl>
    }
}

/// "16 × $2.50 = $40.00", or with a price on power "16 × $2.50 + $0.90 energy = $40.90".
fn cost_hour_text(p: &CapacityPlan) -> String {
    let gpus = format!("{} × ${}", p.gpus, fixed(p.usd_per_gpu_hour, 2));
    if p.energy.energy_usd_per_hour > 0.0 {
        format!(
            "{gpus} + ${} energy = ${}",
            fixed(p.energy.energy_usd_per_hour, 2),
            fixed(p.cost_per_hour, 2)
        )
    } else {
        format!("{gpus} = ${}", fixed(p.cost_per_hour, 2))
    }
}

/// "$0.612", or with a price on power "$0.612, of which energy $0.0024".
fn cost_mtok_text(p: &CapacityPlan) -> String {
    let total = format!("${}", fixed(p.cost_per_million_tokens, 3));
    if p.energy.energy_usd_per_million_tokens > 0.0 {
        format!("{total}, of which energy ${}", significant(p.energy.energy_usd_per_million_tokens))
    } else {
        total
    }
}

/// " (likely 38–52 GPUs, fitted)": the plan's GPUs at both ends of the likely range; "none" at an end
/// where no rate meets both targets.
fn gpus_range_text(word: &str, low: Option<u32>, high: Option<u32>) -> String {
    let count = |g: Option<u32>| g.map_or("none".to_string(), |g| thousands(f64::from(g)));
    format!(" (likely {}–{} GPUs, {word})", count(low), count(high))
}
