//! The fleet's part of the simulator panel: its controls (run it, replicas, the offload tier's host
//! memory, the synthetic sessions' turns, think time and new tokens) and its comparison table with
//! the finding, every routing policy without and with the tier.

use leptos::prelude::*;

use crate::core::plan::SimResult;
use crate::state::fleet::{NEW_TOKENS_INPUT, REPLICAS, THINK_INPUT, TIER_INPUT, TURNS_INPUT};
use crate::ui::context::panel::PanelContext;
use crate::ui::panels::sim::controls::{AutoNumber, Sim};
use crate::ui::widgets::NumberInput;
use crate::view::format::fleet::{fleet_finding, fleet_row_cells, FLEET_COLUMNS};

/// The fleet's controls, inside the simulator's controls.
#[component]
pub fn FleetControls() -> impl IntoView {
    let PanelContext { inputs, .. } = PanelContext::get();
    let sim = Sim::from_context();
    let open = move || sim.get().fleet.open;
    let planned = Signal::derive(move || f64::from(inputs.get().planned_replicas()));
    view! {
        <fieldset class="group" id="fleet-controls">
            <legend>"Fleet: sessions, prefix cache, offload, routing"</legend>
            <div class="control check">
                <input type="checkbox" id="fleet" prop:checked=open
                    on:change=move |ev| sim.update(|s| s.fleet.open = event_target_checked(&ev))/>
                <label for="fleet">"Run a fleet of replicas under each routing policy"</label>
            </div>
            <Show when=open>
                <AutoNumber field=REPLICAS sim=sim get=|s| s.fleet.replicas.map(f64::from)
                    set=|s, v| s.fleet.replicas = v.map(|n| n as u32)
                    auto_value=planned auto_label="Replicas: the capacity plan's for the load"/>
                <NumberInput input=TIER_INPUT/>
                <p class="hint">"Host memory per GPU that evicted KV blocks move to; a hit there is copied back over the GPU's host link (PCIe, or Grace's C2C) instead of recomputed. 0 runs without the tier."</p>
                <NumberInput input=TURNS_INPUT/>
                <NumberInput input=THINK_INPUT/>
                <NumberInput input=NEW_TOKENS_INPUT/>
                <p class="hint">"Without a trace the fleet replays synthetic sessions: the page's load as session starts, each turn sending the whole context so far plus new tokens a think time after its answer. A loaded trace replays at its recorded times instead."</p>
            </Show>
        </fieldset>
    }
}

/// Every routing policy without and with the tier, and the finding that reads them.
#[component]
pub fn FleetTable(result: Signal<Option<SimResult>>) -> impl IntoView {
    let rows = move || result.get().and_then(|r| r.fleet);
    view! {
        {move || rows().map(|rows| view! {
            <section id="fleet" class="fleet">
                <h3>"Fleet: hit rates and tail TTFT by routing policy"</h3>
                <p id="fleet-finding">{fleet_finding(&rows)}</p>
                <div class="table-scroll" tabindex="0" role="region" aria-label="Fleet comparison">
                    <table id="fleet-table">
                        <caption>"Each row one finite run of the same requests through the fleet"</caption>
                        <thead><tr>{FLEET_COLUMNS.iter().map(|c| view! { <th scope="col">{*c}</th> }).collect_view()}</tr></thead>
                        <tbody>{rows.iter().map(|row| {
                            let mut cells = fleet_row_cells(row).into_iter();
                            let head = cells.next().unwrap_or_default();
                            view! { <tr><th scope="row">{head}</th>{cells.map(|c| view! { <td>{c}</td> }).collect_view()}</tr> }
                        }).collect_view()}</tbody>
                    </table>
                </div>
            </section>
        })}
    }
}
