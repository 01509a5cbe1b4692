//! The placement panel: colocated or disaggregated prefill and decode, the split's controls, and the
//! placements (chunked, whole-prompt, the split, the best split) compared per GPU on the page's
//! targets. The page keeps the heading and the open button; the body loads from the lazy module.
//! Embedded (`view=placement`), the comparison comes first and the controls wait behind a toggle.

use leptos::prelude::*;

use crate::core::placement::{compare, PlacementMode};
use crate::core::roofline::TP_CHOICES;
use crate::protocol::panel::LazyBody;
use crate::state::placement::{DECODE_INSTANCES_INPUT, PREFILL_INSTANCES_INPUT, TRANSFER};
use crate::state::view::{Mode, Panel};
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::ideal_note::IdealFigures;
use crate::ui::panels::section::{Hint, Opener, PlanningSection, Section};
use crate::ui::widgets::{NumberBox, NumberInput, PresetSelect};
use crate::view::format::fixed;
use crate::view::format::placement::{finding_parts, link_text, percentile_label, rows, PlacementRow};

/// A network link's default when one is first chosen: 400 Gb/s, 50 GB/s.
const NETWORK_DEFAULT_BYTES_PER_S: f64 = 50e9;

/// The section: its heading and what it compares, then its body while open ([`crate::state::open::is_open`]: any
/// `place=`, a disaggregated placement as lesson 7 has, or `view=placement` presented or embedded).
pub struct Placement;

impl PlanningSection for Placement {
    const SECTION: Section = Section {
        id: "placement",
        panel: Some(Panel::Placement),
        title: "Prefill and decode: colocated or disaggregated",
        hint: Some(Hint {
            class: "hint",
            text: "Colocated, prompts share the decode steps; disaggregated, x prefill instances hand each prompt's KV \
                to y decode instances. Each placement's highest rate with both targets met at the page's attainment percentile, per GPU (analytic steady state).",
        }),
        figures: Some(IdealFigures::Goodput),
        opener: Opener::Button { button_id: "placement-open", label: "Compare placements" },
        body: LazyBody::Placement,
    };

    fn body() -> AnyView {
        view! { <PlacementBody/> }.into_any()
    }
}

/// The controls, the comparison table, where the transfer's bandwidth comes from, and the finding
/// (embedded: the table and the finding, then the controls behind [`EmbedControls`]'s toggle);
/// a lazily loaded body ([`LazyBody::Placement`]) whose changes go through the
/// [`PanelContext`] in context.
#[component]
pub fn PlacementBody() -> impl IntoView {
    let signals = PanelContext::get();
    let inputs = signals.inputs;
    let comparison = Memo::new(move |_| {
        let i = inputs.get();
        compare(&i.scenario, i.sim.chunk_tokens, &i.placement.split, &i.percentile())
    });
    let pct = move || percentile_label(&inputs.get().percentile());
    let table = move || {
        let i = inputs.get();
        let chosen = if i.placement.mode == PlacementMode::Disaggregated { "disagg" } else { "chunked" };
        rows(&comparison.get(), i.sim.chunk_tokens, &i.placement.split, i.rate_req_per_s)
            .into_iter()
            .map(|r| row_view(r, chosen))
            .collect_view()
    };
    let embedded = move || signals.view.get().mode == Mode::Embed;
    view! {
        <Show when=move || !embedded()><SplitControls/></Show>
        <table id="placement-table" class="placement-table">
            <caption class="visually-hidden">"Placements compared on the page's targets"</caption>
            <thead><tr>
                <th scope="col">"Placement"</th><th scope="col">"Rate (req/s)"</th><th scope="col">"GPUs"</th>
                <th scope="col">"Goodput per GPU (req/s)"</th>
                <th scope="col">{move || format!("GPUs for {} req/s", fixed(inputs.get().rate_req_per_s, 2))}</th>
                <th scope="col">{move || format!("{} TPOT (ms)", pct())}</th>
                <th scope="col">{move || format!("{} TTFT (ms)", pct())}</th><th scope="col">"Binds"</th>
            </tr></thead>
            <tbody>{table}</tbody>
        </table>
        <p id="placement-finding" class="finding">{move || {
            let [best, side] = finding_parts(&comparison.get(), &inputs.get().placement.split);
            let side = (!side.is_empty()).then(|| view! { " " <span class="finding-side">{side}</span> });
            view! { <span class="finding-best">{best}</span> {side} }
        }}</p>
        <Show when=embedded><EmbedControls/></Show>
        <p id="placement-link" class="hint">{move || {
            let i = inputs.get();
            format!("Transfer: {}.", link_text(&i.scenario, &i.placement.split))
        }}</p>
    }
}

fn row_view(r: PlacementRow, chosen: &'static str) -> impl IntoView {
    let class = if r.id == chosen { "chosen" } else { "" };
    view! {
        <tr data-placement=r.id class=class>
            <th scope="row">{r.label}</th><td>{r.rate}</td><td>{r.gpus}</td><td>{r.per_gpu}</td>
            <td data-field="gpus-for-load">{r.gpus_for_load}</td><td>{r.tpot}</td><td>{r.ttft}</td><td>{r.binds}</td>
        </tr>
    }
}

/// Embedded, the split's controls behind a disclosure button, so the frame opens on the comparison.
#[component]
fn EmbedControls() -> impl IntoView {
    let open = RwSignal::new(false);
    view! {
        <button type="button" id="placement-controls-toggle" class="placement-controls-toggle"
            aria-expanded=move || open.get().to_string() aria-controls="placement-controls-box"
            on:click=move |_| open.update(|o| *o = !*o)>
            {move || if open.get() { "Hide the controls" } else { "Change the placement" }}
        </button>
        <div id="placement-controls-box" hidden=move || !open.get()><SplitControls/></div>
    }
}

/// The mode, x and TP_p, y and TP_d, and the link the KV crosses.
#[component]
fn SplitControls() -> impl IntoView {
    let signals = PanelContext::get();
    let inputs = signals.inputs;
    let tps: Vec<(String, String)> = TP_CHOICES.iter().map(|t| (t.to_string(), format!("TP {t}"))).collect();
    let tp_of = |v: String| v.parse().ok().filter(|t| TP_CHOICES.contains(t)).unwrap_or(1);
    let modes = vec![
        ("colo".to_string(), "Colocated".to_string()),
        ("disagg".to_string(), "Disaggregated".to_string()),
    ];
    let links = vec![
        ("auto".to_string(), "GPU interconnect".to_string()),
        ("net".to_string(), "Network link".to_string()),
    ];
    let mode_of =
        |v: &str| if v == "disagg" { PlacementMode::Disaggregated } else { PlacementMode::Colocated };
    let network = move || inputs.get().placement.split.link_bytes_per_s.is_some();
    let link_value = Signal::derive(move || {
        inputs.get().placement.split.link_bytes_per_s.unwrap_or(NETWORK_DEFAULT_BYTES_PER_S)
    });
    view! {
        <div class="placement-controls">
            <PresetSelect id="place" label="Placement" options=modes
                selected=Signal::derive(move || if inputs.get().placement.mode == PlacementMode::Disaggregated { "disagg".into() } else { "colo".into() })
                on_pick=move |v: String| signals.update(|i| i.placement.choose(mode_of(&v)))/>
            <NumberInput input=PREFILL_INSTANCES_INPUT/>
            <PresetSelect id="tpp" label="Prefill TP" options=tps.clone()
                selected=Signal::derive(move || inputs.get().placement.split.prefill_tp.to_string())
                on_pick=move |v: String| signals.update(|i| i.placement.split.prefill_tp = tp_of(v))/>
            <NumberInput input=DECODE_INSTANCES_INPUT/>
            <PresetSelect id="tpd" label="Decode TP" options=tps
                selected=Signal::derive(move || inputs.get().placement.split.decode_tp.to_string())
                on_pick=move |v: String| signals.update(|i| i.placement.split.decode_tp = tp_of(v))/>
            <PresetSelect id="xfer-link" label="KV transfer" options=links
                selected=Signal::derive(move || if network() { "net".into() } else { "auto".into() })
                on_pick=move |v: String| signals.update(|i| i.placement.split.link_bytes_per_s = (v == "net").then_some(NETWORK_DEFAULT_BYTES_PER_S))/>
            <Show when=network>
                <NumberBox field=TRANSFER value=link_value
                    on_value=move |b: f64| signals.update(|i| i.placement.split.link_bytes_per_s = Some(b))/>
            </Show>
        </div>
    }
}
