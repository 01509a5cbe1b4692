//! The channel between the page and its lazily loaded panels (`goodput_lazy`): the closed message
//! sets each side sends, postcard-encoded. Pure and native-testable; both modules import this file.
//!
//! The page owns the state. It mounts a panel with [`Mount`], then sends [`ToPanel::State`] after
//! every change of its state; a panel draws from the last state it was sent and keeps none of its
//! own. A panel asks for a change with a [`ToPage`] message, sent only from a person's action in
//! its controls, never in answer to a state: so a change travels page -> panel once, and a panel's
//! change panel -> page -> panel once, with nothing to stop a loop. The page applies it with
//! [`apply`], the same function the one-file build (no second module) calls directly.

use serde::{Deserialize, Serialize};

pub use crate::protocol::codec::{from_bytes, to_bytes};

use crate::core::energy::EnergyPrice;
use crate::core::fit::YourPoint;
use crate::core::presets::{CustomGpu, CustomModel};
use crate::core::roofline::CustomCalibration;
use crate::core::search::Config;
use crate::state::custom::reconcile_model;
use crate::state::energy::{HOSTW_INPUT, KWH_INPUT, PUE_INPUT};
use crate::state::fields::{InputField, PRICE_INPUT, RATE_INPUT};
use crate::state::fleet::{NEW_TOKENS_INPUT, THINK_INPUT, TIER_INPUT, TURNS_INPUT};
use crate::state::placement::PlacementInputs;
use crate::state::placement::{DECODE_INSTANCES_INPUT, PREFILL_INSTANCES_INPUT};
use crate::state::published::{loadable, marked_batch, published_point};
use crate::state::search::SearchInputs;
use crate::state::sim::SimInputs;
use crate::state::sim::{
    ATTAIN_INPUT, BURST_INPUT, LENGTH_CV_INPUT, POINTS_INPUT, REQUESTS_INPUT, SEEDS_INPUT, SEED_INPUT,
};
use crate::state::trace::url::TraceKey;
use crate::state::view::Look;
use crate::state::view::{Panel, View};
use crate::state::Inputs;

/// Everything of the page's state a panel reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PanelState {
    pub inputs: Inputs,
    pub view: View,
    pub your_points: Vec<YourPoint>,
}

/// The bodies the lazy module draws (a closed set: an unknown one cannot be named): a planning
/// panel's body, or a control group the first screen does not show. Not a [`Panel`] (what `view=` shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LazyBody {
    /// The simulator's body: controls, readout, charts and tables.
    Sim,
    /// The measured points' body: paste/file/drop, the fit read-out and the points table.
    Measured,
    /// The derivation's lines (the page keeps its heading and intro).
    Derivation,
    /// The capacity plan's load and price boxes and its result.
    Capacity,
    /// The custom model's number boxes, while "Custom model…" is picked.
    CustomModel,
    /// The custom GPU's number boxes, while "Custom GPU…" is picked.
    CustomGpu,
    /// The Share menu's body: copy link, the embed's panel and size, copy embed code.
    Share,
    /// The placement comparison: the split's controls, the table and the finding.
    Placement,
    /// The configuration search: status, chart, table, filters and prices.
    Search,
    /// The accuracy view: every published measurement against the model, its filters and CSV.
    Accuracy,
}

impl LazyBody {
    /// The id of the element the page gives the panel (`sim-lazy`, `derivation-lazy`, ...).
    pub fn element_id(self) -> &'static str {
        match self {
            LazyBody::Sim => "sim-lazy",
            LazyBody::Measured => "measured-lazy",
            LazyBody::Derivation => "derivation-lazy",
            LazyBody::Capacity => "capacity-lazy",
            LazyBody::CustomModel => "custom-model-lazy",
            LazyBody::CustomGpu => "custom-gpu-lazy",
            LazyBody::Share => "share-lazy",
            LazyBody::Placement => "placement-lazy",
            LazyBody::Search => "search-lazy",
            LazyBody::Accuracy => "accuracy-lazy",
        }
    }
}

/// Page -> lazy: mount `panel` into the element passed beside this message, starting from `state`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mount {
    pub panel: LazyBody,
    pub state: PanelState,
}

/// Page -> panels, after mounting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToPanel {
    /// The page's state changed: this is the whole of it.
    State(PanelState),
    /// The page closed `panel`: drop its body.
    Unmount(LazyBody),
}

/// Panels -> page: a change a person made in a panel's controls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToPage {
    /// The simulator's controls, with one of them changed.
    Sim(SimInputs),
    /// The measured points (read from a paste, file or drop; empty when cleared).
    Measured(Vec<YourPoint>),
    /// "Use this fit": realistic mode with this calibration.
    Realistic(CustomCalibration),
    /// The capacity plan's target load (requests/s) and price ($ per GPU-hour).
    Capacity { rate_req_per_s: f64, price_per_gpu_hour: f64 },
    /// The custom model's numbers, with one of them changed (the page reconciles them).
    CustomModel(CustomModel),
    /// The custom GPU's numbers, with one of them changed.
    CustomGpu(CustomGpu),
    /// The placement control: colocated or disaggregated, and the split.
    Placement(PlacementInputs),
    /// The search panel's order, filters and prices.
    Search(SearchInputs),
    /// Load a search row's configuration into the page: its GPU, precisions, TP and placement.
    LoadConfig(Config),
    /// The capacity plan's energy boxes: $/kWh, PUE and host power per GPU.
    Energy(EnergyPrice),
    /// The simulator's traffic trace, as the `trace` key names it (loaded, cleared).
    Trace(TraceKey),
    /// The page's prompt and output lengths, in tokens: the trace's "Use its mean lengths", a
    /// button that sends this itself (a panel holds no control of the scenario, so [`changes`]
    /// never sends it).
    Lengths { prompt_tokens: u32, output_tokens: u32 },
    /// Load a published run's scenario into the page (the accuracy view's "Load"): the row id in
    /// `core::calibration::published::POINTS`; the page marks its batch too ([`apply_view`]).
    LoadRun { id: String },
}

/// Page -> lazy: one of the page's batch charts as SVG, drawn from `state` (the page's module has
/// no SVG backend).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SvgRequest {
    /// `Rate`, `Step` or `Interactivity`; another panel draws nothing.
    pub chart: Panel,
    pub state: PanelState,
    pub look: Look,
    /// The chart's size in CSS pixels.
    pub size_px: (u32, u32),
}

/// The page's state after a panel's change `message`: the one place a [`ToPage`] takes effect.
pub fn apply(message: ToPage, inputs: &mut Inputs, measured: &mut Vec<YourPoint>) {
    match message {
        ToPage::Sim(sim) => inputs.sim = sim,
        ToPage::Measured(points) => *measured = points,
        ToPage::Realistic(calibration) => inputs.set_fit(calibration),
        ToPage::Capacity { rate_req_per_s, price_per_gpu_hour } => {
            inputs.rate_req_per_s = rate_req_per_s;
            inputs.price_per_gpu_hour = price_per_gpu_hour;
        }
        ToPage::CustomModel(mut custom) => {
            reconcile_model(&mut custom, &mut Vec::new());
            *inputs = inputs.with_model(custom.to_spec());
        }
        ToPage::CustomGpu(custom) => inputs.scenario.gpu = custom.to_spec(),
        ToPage::Placement(placement) => inputs.placement = placement,
        ToPage::Search(search) => inputs.search = search,
        ToPage::LoadConfig(config) => inputs.load_config(&config),
        ToPage::Energy(energy) => inputs.energy = energy,
        ToPage::Trace(key) => inputs.trace = key,
        ToPage::Lengths { prompt_tokens, output_tokens } => {
            inputs.set_output_tokens(output_tokens);
            inputs.set_prompt_tokens(prompt_tokens);
        }
        ToPage::LoadRun { id } => {
            if let Some(point) = published_point(&id) {
                inputs.load_published(point);
            }
        }
    }
}

/// The page's view after `message`: a loaded run marks its batch (or clears a mark when its
/// concurrency is not a batch the page can mark); every other message leaves the view as it is.
pub fn apply_view(message: &ToPage, view: &mut View) {
    if let ToPage::LoadRun { id } = message {
        if let Some(point) = published_point(id).filter(|p| loadable(p)) {
            view.mark_batch = marked_batch(point);
        }
    }
}

/// The number boxes and sliders the lazy bodies hold (each a field of the inputs a person changes in
/// the lazy module): every one must be carried by [`changes`], or its change would go nowhere in the
/// lazy build while working in the one-file build. `tests/it/bound_controls.rs` changes each and checks
/// the messages carry it, and that every bound control in `src/ui/panels/` is listed here.
pub const BODY_INPUTS: [InputField; 18] = [
    RATE_INPUT,
    PRICE_INPUT,
    KWH_INPUT,
    PUE_INPUT,
    HOSTW_INPUT,
    PREFILL_INSTANCES_INPUT,
    DECODE_INSTANCES_INPUT,
    ATTAIN_INPUT,
    BURST_INPUT,
    LENGTH_CV_INPUT,
    POINTS_INPUT,
    REQUESTS_INPUT,
    SEED_INPUT,
    SEEDS_INPUT,
    TIER_INPUT,
    TURNS_INPUT,
    THINK_INPUT,
    NEW_TOKENS_INPUT,
];

/// The messages that carry a panel's bound control from `before` to `after`: the simulator's
/// controls, the capacity plan's boxes, the placement's controls and the search's order, filters
/// and prices are the bound controls a panel body holds; a change
/// elsewhere in the inputs sends nothing.
pub fn changes(before: &Inputs, after: &Inputs) -> Vec<ToPage> {
    let mut out = Vec::new();
    if after.sim != before.sim {
        out.push(ToPage::Sim(after.sim));
    }
    if (after.rate_req_per_s, after.price_per_gpu_hour) != (before.rate_req_per_s, before.price_per_gpu_hour)
    {
        let (rate_req_per_s, price_per_gpu_hour) = (after.rate_req_per_s, after.price_per_gpu_hour);
        out.push(ToPage::Capacity { rate_req_per_s, price_per_gpu_hour });
    }
    if after.energy != before.energy {
        out.push(ToPage::Energy(after.energy));
    }
    if after.placement != before.placement {
        out.push(ToPage::Placement(after.placement));
    }
    if after.search != before.search {
        out.push(ToPage::Search(after.search));
    }
    if after.trace != before.trace {
        out.push(ToPage::Trace(after.trace));
    }
    out
}
