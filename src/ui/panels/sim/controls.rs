//! The simulator's controls: how load is offered and counted, the attainment target, arrivals,
//! lengths, the step budget, the concurrency cap and the sweep's size; each writes one field.

use leptos::prelude::*;

use crate::core::sim::auto_rate_max;
use crate::core::sim::{Counting, LengthDist, LoadMode};
use crate::protocol::panel::ToPage;
use crate::state::fields::NumberField;
use crate::state::log_stops;
use crate::state::sim::{
    choice_id, ArrivalKind, SimInputs, ARRIVALS, ATTAIN_INPUT, BURST_INPUT, CAP, CHUNK, COUNTINGS, LENGTHS,
    LENGTH_CV_INPUT, LOADS, PERCENTILES, POINTS_INPUT, RATE_MAX, REQUESTS_INPUT, SEEDS_INPUT, SEED_INPUT,
};
use crate::state::Inputs;
use crate::ui::context::channel::Changes;
use crate::ui::context::panel::PanelContext;
use crate::ui::widgets::{NumberBox, NumberInput, PresetSelect, StopSlider};

/// Reads and writes the simulator's part of the inputs.
#[derive(Clone, Copy)]
pub struct Sim {
    inputs: ReadSignal<Inputs>,
    changes: Changes,
    /// What "automatic" means now: (cap in sequences, highest rate in requests/s).
    autos: Memo<(f64, f64)>,
}

impl Sim {
    pub(super) fn get(self) -> SimInputs {
        self.inputs.get().sim
    }

    pub(super) fn update(self, f: impl FnOnce(&mut SimInputs)) {
        let mut sim = self.inputs.get_untracked().sim;
        f(&mut sim);
        self.changes.send(ToPage::Sim(sim));
    }

    /// A signal of one field, for a widget.
    fn field<T: Send + Sync + 'static>(
        self,
        f: impl Fn(&SimInputs) -> T + Send + Sync + 'static,
    ) -> Signal<T> {
        Signal::derive(move || f(&self.get()))
    }
}

/// (id, label) menu options.
fn menu<T>(choices: &[(&'static str, T)], labels: &[&str]) -> Vec<(String, String)> {
    choices.iter().zip(labels).map(|((id, _), label)| (id.to_string(), label.to_string())).collect()
}

/// The value among `choices` with URL id `id`.
fn pick<T: Copy>(choices: &[(&'static str, T)], id: &str) -> Option<T> {
    choices.iter().find(|(c, _)| *c == id).map(|(_, v)| *v)
}

impl Sim {
    /// The simulator's part of the panel context's inputs, with its automatic values.
    pub fn from_context() -> Sim {
        let PanelContext { inputs, scenario, analysis, changes, .. } = PanelContext::get();
        // The automatic cap (the analytic knee within the pool) and highest rate, from the app's memos.
        let autos = Memo::new(move |_| {
            let analysis = analysis.get();
            (f64::from(SimInputs::default().cap_for(&analysis)), auto_rate_max(&scenario.get(), &analysis))
        });
        Sim { inputs, changes, autos }
    }
}

/// Every simulator control, with the worked example's two measurement mistakes as explained
/// toggles; `children` (the fleet's controls) close the column.
#[component]
pub fn SimControls(children: Children) -> impl IntoView {
    let sim = Sim::from_context();
    view! {
        <div class="sim-controls">
            <fieldset class="group">
                <legend>"How the benchmark measures"</legend>
                <PresetSelect id="load" label="Load" options=menu(&LOADS, &["Open loop: requests arrive at a rate", "Closed loop: fixed concurrency"])
                    selected=sim.field(|s| choice_id(&LOADS, s.load).to_string())
                    on_pick=move |id: String| sim.update(|s| s.load = pick(&LOADS, &id).unwrap_or(LoadMode::Open))/>
                <p class="hint">{move || load_hint(sim.get().load)}</p>
                <PresetSelect id="count" label="Attainment counts" options=menu(&COUNTINGS, &["Requests meeting both targets", "Tokens produced on time"])
                    selected=sim.field(|s| choice_id(&COUNTINGS, s.counting).to_string())
                    on_pick=move |id: String| sim.update(|s| s.counting = pick(&COUNTINGS, &id).unwrap_or(Counting::Requests))/>
                <p class="hint">{move || count_hint(sim.get().counting)}</p>
                <Target sim=sim/>
            </fieldset>
            <fieldset class="group">
                <legend>"Traffic"</legend>
                <PresetSelect id="arrivals" label="Arrivals" options=menu(&ARRIVALS, &["Poisson", "Constant rate", "Bursty (gamma)"])
                    selected=sim.field(|s| choice_id(&ARRIVALS, s.arrivals).to_string())
                    on_pick=move |id: String| sim.update(|s| s.arrivals = pick(&ARRIVALS, &id).unwrap_or(ArrivalKind::Poisson))/>
                <Show when=move || sim.get().arrivals == ArrivalKind::Bursty>
                    <NumberInput input=BURST_INPUT/>
                </Show>
                <PresetSelect id="lengths" label="Prompt and output lengths" options=menu(&LENGTHS, &["Fixed", "Uniform", "Log-normal"])
                    selected=sim.field(|s| choice_id(&LENGTHS, s.lengths).to_string())
                    on_pick=move |id: String| sim.update(|s| s.lengths = pick(&LENGTHS, &id).unwrap_or(LengthDist::Fixed))/>
                <Show when=move || sim.get().lengths != LengthDist::Fixed>
                    <NumberInput input=LENGTH_CV_INPUT/>
                </Show>
                <p class="hint">"Means follow the context and output sliders: prompt = context − output ÷ 2, so a running sequence holds the context's KV on average."</p>
            </fieldset>
            <Server sim=sim/>
            <fieldset class="group">
                <legend>"Sweep"</legend>
                <AutoNumber field=RATE_MAX sim=sim get=|s| s.rate_max_req_per_s set=|s, v| s.rate_max_req_per_s = v
                    auto_value=Signal::derive(move || sim.autos.get().1)
                    auto_label="Highest rate: twice the analytic rate at the knee"/>
                <NumberInput input=POINTS_INPUT/>
                <NumberInput input=REQUESTS_INPUT/>
                <NumberInput input=SEED_INPUT/>
                <NumberInput input=SEEDS_INPUT/>
            </fieldset>
            {children()}
        </div>
    }
}

fn load_hint(load: LoadMode) -> &'static str {
    match load {
        LoadMode::Open => "Requests arrive whether or not the server keeps up, so past capacity a queue forms and TTFT misses appear.",
        LoadMode::Closed => "Each client waits for its answer before sending the next, so no queue forms and TTFT misses vanish: the worked example's first measurement mistake.",
    }
}

fn count_hint(counting: Counting) -> &'static str {
    match counting {
        Counting::Requests => "A request counts only if it meets both targets (DistServe).",
        Counting::Tokens => "Counting tokens: a request that waited seconds for its first token still contributes hundreds of on-time tokens, so attainment looks healthy while requests miss: the worked example's second mistake.",
    }
}

/// The attainment target: presets (every request, p90, p99) or any percentage.
#[component]
fn Target(sim: Sim) -> impl IntoView {
    let mut options =
        menu(&PERCENTILES, &["Every request (100%)", "p90: 90% of requests", "p99: 99% of requests"]);
    options.push(("custom".to_string(), "Custom share…".to_string()));
    let selected = sim.field(|s| {
        PERCENTILES
            .iter()
            .find(|(_, a)| (a - s.attainment_target).abs() < 1e-9)
            .map_or("custom", |(id, _)| id)
            .to_string()
    });
    view! {
        <PresetSelect id="pct" label="Requests that must meet both targets" options=options selected=selected
            on_pick=move |id: String| if let Some(a) = pick(&PERCENTILES, &id) { sim.update(|s| s.attainment_target = a) }/>
        <NumberInput input=ATTAIN_INPUT/>
    }
}

/// The server's knobs: step token budget, concurrency cap and whether prefill costs anything.
#[component]
fn Server(sim: Sim) -> impl IntoView {
    view! {
        <fieldset class="group">
            <legend>"Server"</legend>
            <StopSlider field=CHUNK label="Step token budget (chunked prefill)"
                stops=log_stops(CHUNK.min as u32, CHUNK.max as u32) value=sim.field(|s| f64::from(s.chunk_tokens))
                on_value=move |v| sim.update(|s| s.chunk_tokens = v as u32)/>
            <p class="hint">"Bigger budgets prefill a prompt in fewer steps (shorter TTFT) but make the steps carrying them longer for every decoding user (longer TPOT)."</p>
            <AutoNumber field=CAP sim=sim get=|s| s.cap.map(f64::from) set=|s, v| s.cap = v.map(|c| c as u32)
                auto_value=Signal::derive(move || sim.autos.get().0)
                auto_label="Cap concurrency at the analytic knee (the worked example's advice)"/>
            <div class="control check">
                <input type="checkbox" id="prefill" prop:checked=move || sim.get().prefill_free
                    on:change=move |ev| sim.update(|s| s.prefill_free = event_target_checked(&ev))/>
                <label for="prefill">"Prefill free (idealized limit)"</label>
                <p class="hint">"With constant arrivals and fixed lengths this reproduces the analytic knee."</p>
            </div>
        </fieldset>
    }
}

/// A number that can be left automatic: a checkbox, and the number box when it is not.
#[component]
pub fn AutoNumber(
    field: NumberField,
    sim: Sim,
    get: fn(&SimInputs) -> Option<f64>,
    set: fn(&mut SimInputs, Option<f64>),
    /// What "automatic" currently means, in base units.
    auto_value: Signal<f64>,
    auto_label: &'static str,
) -> impl IntoView {
    let id = format!("{}-auto", field.key);
    let is_auto = move || get(&sim.get()).is_none();
    let toggle = move |ev| {
        let auto = event_target_checked(&ev);
        let fixed = auto_value.get_untracked().clamp(field.to_base(field.min), field.to_base(field.max));
        sim.update(|s| {
            set(s, if auto { None } else { Some(if field.whole { fixed.round() } else { fixed }) })
        });
    };
    let shown = sim.field(move |s| get(s).unwrap_or(field.min));
    view! {
        <div class="control check">
            <input type="checkbox" id=id.clone() prop:checked=is_auto on:change=toggle/>
            <label for=id>{auto_label}</label>
        </div>
        <Show when=move || !is_auto()>
            <NumberBox field=field value=shown on_value=move |v| sim.update(|s| set(s, Some(v)))/>
        </Show>
        {move || is_auto().then(|| view! {
            <p class="hint" id=format!("{}-auto-value", field.key)>
                {format!("{}: {} (automatic)", field.label, field.with_unit(field.to_display(auto_value.get())))}
            </p>
        })}
    }
}
