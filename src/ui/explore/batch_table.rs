//! The batch table: the worked example's columns, then TTFT, weights read and per-GPU rates, for the listed
//! batches, the knee and the KV pool.

use leptos::prelude::*;

use crate::core::calibration::range::likely_range;
use crate::core::parallel::Parallelism;
use crate::core::roofline::Limit;
use crate::core::table::{with_batches, BatchRow};
use crate::state::Inputs;
use crate::ui::context::in_view::{frozen_unless, live_while_in_view};
use crate::ui::context::linked::Linked;
use crate::ui::context::page::{PageMemos, PageState};
use crate::ui::explore::batch_rows::{row_view, Columns, RowText};
use crate::view::export::{energy_cell, step_header, ENERGY_COLUMN, SPEC_STEP_HEADER};
use crate::view::format::energy::energy_scope;
use crate::view::format::prefix::{prefix_pool_note, prefix_ttft_note};
use crate::view::format::{target_ms, thousands};

/// The table, or a message in its place when no batch can run at all. Out of view during a slider
/// drag its rows, caption and notes wait for the drag to end (`ui::context::in_view`).
#[component]
pub fn BatchTable() -> impl IntoView {
    let inputs = PageState::get().inputs;
    let PageMemos { analysis, rows, linked, .. } = PageMemos::get();
    let wrap = NodeRef::<leptos::html::Div>::new();
    let live = live_while_in_view(wrap);
    let shown = shown_rows(rows, linked, live, inputs);
    let caption_text = frozen_unless(live, move || caption(&inputs.get()));
    let nothing_runs = move || {
        matches!(analysis.get().limit, Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. })
    };
    let per_gpu = Memo::new(move |_| inputs.get().scenario.parallel.gpus() > 1);
    let range_on = Memo::new(move |_| likely_range(&inputs.get().scenario).is_some());
    let spec_on = Memo::new(move |_| inputs.get().scenario.speculation.is_on());
    let columns = Columns { per_gpu, range_on, spec_on };
    let prefix_on = move || inputs.with(|i| i.scenario.prefix.active());
    let prefix_notes = frozen_unless(live, move || {
        let (s, a) = (inputs.get().scenario, analysis.get());
        [prefix_ttft_note(&s, &a), prefix_pool_note(&s, &a)]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    });
    view! {
        <Show when=move || !nothing_runs() fallback=move || view! { <NoTable/> }>
            <div class="table-wrap" node_ref=wrap tabindex="0" role="region" aria-label="Batch table">
                <table id="batch-table" class="batch-table">
                    <caption>{caption_text}</caption>
                    {header_row(columns, prefix_on)}
                    <tbody on:pointerleave=move |_| linked.hover(None)>
                        // Keyed by position: a row and its cells stay, and only text that changed is set.
                        <For each=move || 0..shown.with(Vec::len) key=|i| *i
                            children=move |i| row_view(i, shown, columns, linked)/>
                    </tbody>
                </table>
                <p id="row-mark-help" class="chart-keys" hidden>
                    "Press a batch number to mark that batch on every chart; press it again to clear the mark."
                </p>
            </div>
            <p class="table-note">
                "TTFT in steady state: a new request waits for the decode step in flight, then its whole context is prefilled alone. "
                "Goodput counts a batch only when it meets both targets. "
                <span id="energy-table-note">{move || format!("J/token: {}.", energy_scope(&inputs.get().energy))}</span>
                <Show when=move || inputs.get().scenario.speculation.is_on()>
                    <span id="spec-table-note">" With speculative decoding, the time per token is one draft-and-verify step over the tokens it keeps per sequence: (draft + verify) / E."</span>
                </Show>
            </p>
            <Show when=prefix_on>
                <p class="table-note" id="prefix-note">{prefix_notes}</p>
            </Show>
        </Show>
    }
}

/// The header row: the fixed columns, and the ones [`Columns`] adds while they apply.
fn header_row(columns: Columns, prefix_on: impl Fn() -> bool + Send + Sync + 'static) -> impl IntoView {
    let Columns { per_gpu, range_on, spec_on } = columns;
    view! {
        <thead>
            <tr>
                <th scope="col">"Batch"</th>
                <th scope="col">{move || step_header(spec_on.get())}</th>
                <Show when=move || range_on.get()>
                    <th scope="col" title="The measured engines' out-of-sample error for this coverage class (10th to 90th percentile)">"Likely range (ms)"</th>
                </Show>
                <Show when=move || spec_on.get()>
                    <th scope="col" title="One whole step: the drafter's k proposals, then the target's verify over k + 1 tokens per sequence">{SPEC_STEP_HEADER}</th>
                </Show>
                <th scope="col">"Tokens/s"</th>
                <th scope="col">"Meets TPOT"</th>
                <th scope="col">"Goodput (req/s)"</th>
                <th scope="col">{move || crate::view::export::ttft_header(prefix_on())}</th>
                <th scope="col">"Meets TTFT"</th>
                <th scope="col">"Weights read (GB/GPU)"</th>
                <Show when=move || per_gpu.get()>
                    <th scope="col">"Tokens/s per GPU"</th>
                    <th scope="col">"Goodput per GPU (req/s)"</th>
                </Show>
                <th scope="col" id="energy-col" title="Joules per output token: the decode step's power per GPU, idle + (board − idle) × how busy the step keeps it, × GPUs × step time ÷ batch">{ENERGY_COLUMN}</th>
                <th scope="col">"Note"</th>
            </tr>
        </thead>
    }
}

/// "Llama 3.1 8B on one H100 SXM, BF16 weights, ...": the scenario the table describes.
fn caption(i: &Inputs) -> String {
    let parallel = i.scenario.parallel;
    let gpus = if parallel.gpus() == 1 {
        format!("one {}", i.scenario.gpu.name)
    } else {
        format!("{} × {} ({})", parallel.gpus(), i.scenario.gpu.name, parallel.label())
    };
    format!(
        "{} on {gpus}, {} weights, {} KV cache, {} tokens of context, {} output tokens, TPOT target {} ms, TTFT target {} ms{}",
        i.scenario.model.name,
        i.scenario.weight_precision.label(),
        i.scenario.kv_precision.label(),
        thousands(f64::from(i.scenario.context_tokens)),
        thousands(f64::from(i.scenario.output_tokens)),
        target_ms(i.scenario.tpot_target_s),
        target_ms(i.scenario.ttft_target_s),
        calibration_caption(i)
    )
}

/// Why nothing runs, and the one-click fix when more tensor parallelism would hold the weights.
#[component]
fn NoTable() -> impl IntoView {
    let PageState { inputs, set_inputs, .. } = PageState::get();
    let analysis = PageMemos::get().analysis;
    let fix = move || {
        let analysis = analysis.get();
        let tp = analysis.tp_needed.filter(|tp| {
            *tp > inputs.get().scenario.parallel.tp && matches!(analysis.limit, Limit::WeightsDoNotFit { .. })
        })?;
        Some(view! {
            <button id="use-tp" class="fix" on:click=move |_| set_inputs.update(|i| i.set_parallel(Parallelism { tp, ..i.scenario.parallel }))>
                {format!("Use tensor parallelism {tp}")}
            </button>
        })
    };
    view! {
        <div id="no-table" class="no-table" role="status">
            <p>"No batch can run in this configuration, so there is no table: see the sentence above."</p>
            {fix}
        </div>
    }
}

/// The table's rows plus the hovered and the marked batch when they are not listed, each with
/// whether it is one of the listed rows (the others are computed by the same core function), as
/// printed. Equal text is no change: the rows below are not touched. Frozen while not `live`.
fn shown_rows(
    rows: Memo<Vec<BatchRow>>,
    linked: Linked,
    live: Signal<bool>,
    inputs: ReadSignal<Inputs>,
) -> Memo<Vec<RowText>> {
    frozen_unless(live, move || {
        let (scenario, energy) = inputs.with(|i| (i.scenario, i.energy));
        let listed = rows.get();
        let extra: Vec<u32> =
            [linked.hovered.get(), linked.view.get().mark_batch].into_iter().flatten().collect();
        let all = with_batches(&listed, &linked.scenario.get(), &linked.analysis.get(), &extra);
        let is_listed = |r: &BatchRow| listed.iter().any(|l| l.point.batch == r.point.batch);
        let range = likely_range(&linked.scenario.get());
        let text =
            |r: &BatchRow| RowText::of(r, is_listed(r), range.as_ref(), energy_cell(r, &scenario, &energy));
        all.iter().map(text).collect()
    })
}

/// The caption's calibration clause: empty on the ideal roofline.
fn calibration_caption(i: &Inputs) -> String {
    match (i.realistic(), i.engine()) {
        (Some(_), _) => ", realistic calibration".to_string(),
        (None, Some(e)) => format!(", measured-engines calibration ({})", e.name()),
        (None, None) => "; ideal roofline: step times are lower bounds no engine reaches".to_string(),
    }
}
