//! The one-line note under each planning panel's heading while the page prices on the ideal roofline:
//! what the ideal figure is a bound on, the measured engines' figure beside it
//! ([`crate::core::calibration::summary`]), and a button that switches the page to them. It lives on
//! the page side of each panel (not in a lazily loaded body), so it shows before a body loads.

use leptos::prelude::*;

use crate::core::calibration::summary::{Figures, Summary};
use crate::state::calibration::DEFAULT_ENGINE;
use crate::ui::context::in_view::{frozen_unless, live_while_in_view};
use crate::ui::context::page::{scoped_memo, PageMemos, PageState};
use crate::view::format::search::usd;
use crate::view::format::{ms, significant, thousands};

/// Which of the measured engines' figures a section's note sets beside the ideal roofline's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdealFigures {
    /// GPUs and cost for the load (the capacity plan).
    Gpus,
    /// The knee, its TPOT and goodput per GPU (placement, simulator).
    Goodput,
    /// The fastest TPOT (the search).
    Tpot,
}

impl IdealFigures {
    /// The sentence, from the page's figures beside the measured engines'.
    fn sentence(self, s: &Summary) -> String {
        let engine = s.engine.name();
        match self {
            IdealFigures::Gpus => capacity_sentence(engine, &s.measured),
            IdealFigures::Goodput => goodput_sentence(engine, &s.measured),
            IdealFigures::Tpot => search_sentence(&s.own, &s.measured),
        }
    }
}

/// "Ideal roofline: a lower bound on GPUs no engine reaches. Measured engines (vLLM): 6 GPUs, $0.52 ..."
fn capacity_sentence(engine: &str, m: &Figures) -> String {
    let measured = match (m.gpus, m.usd_per_million_tokens) {
        (Some(gpus), Some(cost)) => format!(
            "{} GPU{}, {} per million tokens",
            thousands(f64::from(gpus)),
            if gpus == 1 { "" } else { "s" },
            usd(cost)
        ),
        _ => "no batch meets both targets, so no number of GPUs serves this load".to_string(),
    };
    format!(
        "Ideal roofline: a lower bound on GPUs no engine reaches. Measured engines ({engine}): {measured}."
    )
}

/// "Ideal roofline: an upper bound on goodput. Measured engines (vLLM): knee 48, 9.60 ms, 21.3 req/s per GPU."
fn goodput_sentence(engine: &str, m: &Figures) -> String {
    let measured = match (m.knee_batch, m.knee_tpot_s, m.knee_goodput_per_gpu_req_per_s) {
        (Some(knee), Some(tpot_s), Some(per_gpu)) => format!(
            "knee {}, {} ms, {} req/s per GPU",
            thousands(f64::from(knee)),
            ms(tpot_s),
            significant(per_gpu)
        ),
        _ => "no batch meets both targets, so no goodput".to_string(),
    };
    format!("Ideal roofline: an upper bound on goodput. Measured engines ({engine}): {measured}.")
}

/// "Ideal roofline: its TPOTs are bounds (fastest 4.87 ms here); measured engines reach 6.99 ms at best."
fn search_sentence(own: &Figures, m: &Figures) -> String {
    let fastest = own.floor_tpot_s.map(|f| format!(" (fastest {} ms here)", ms(f))).unwrap_or_default();
    let measured = match m.floor_tpot_s {
        Some(f) => format!("measured engines reach {} ms at best", ms(f)),
        None => "measured engines cannot run this configuration".to_string(),
    };
    format!("Ideal roofline: its TPOTs are bounds{fastest}; {measured}.")
}

/// The note of section `id` (its ids' prefix: `capacity-ideal-note`, `capacity-use-measured`) with
/// its `figures`: shown only while the page's cost model is the ideal roofline. The sentence is
/// its own memo, so an input that leaves it unchanged (most do: it names the measured engines'
/// figures) touches no DOM, and the paragraph is built once per showing, not on every input. Out of
/// view during a slider drag it waits for the drag to end (`ui::context::in_view`), and while all
/// four wait the measured engines' figures are not computed.
#[component]
pub fn IdealNote(id: &'static str, figures: IdealFigures) -> impl IntoView {
    let set_inputs = PageState::get().set_inputs;
    let shown = PageMemos::get().ideal_note;
    let note = NodeRef::<leptos::html::P>::new();
    let live = live_while_in_view(note);
    let sentence = frozen_unless(live, move || shown.get().map(|s| figures.sentence(&s)));
    let use_measured = move |_| set_inputs.update(|i| i.set_measured(DEFAULT_ENGINE));
    view! {
        <Show when=move || sentence.with(Option::is_some)>
            <p class="ideal-note" id=format!("{id}-ideal-note") role="note" node_ref=note>
                {sentence_text(sentence)}
                " "
                <button type="button" class="fix" id=format!("{id}-use-measured") on:click=use_measured>
                    "Use measured engines"
                </button>
            </p>
        </Show>
    }
}

/// The note's text, read through a memo that leaves `sentence` when the note hides (`scoped_memo`:
/// each change of the cost model away from the ideal roofline would otherwise keep an entry).
fn sentence_text(sentence: Memo<Option<String>>) -> impl IntoView {
    let text = scoped_memo(move || sentence.get().unwrap_or_default());
    move || text.get()
}
