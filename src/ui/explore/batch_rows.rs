//! The batch table's rows: one row element per position, kept across inputs, whose cells' text and
//! classes follow what the position shows now, so an input sets only the text that changed.

use leptos::prelude::*;

use crate::core::calibration::range::LikelyRange;
use crate::core::table::BatchRow;
use crate::ui::context::linked::Linked;
use crate::ui::context::page::scoped_memo;
use crate::view::format::calibration::range_ms;

/// One row as the page prints it, with the classes it takes (compared between inputs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowText {
    pub batch: u32,
    pub cells: [String; 10],
    pub note: &'static str,
    /// The step time's likely range under the measured engines ("8.61–12.06"), else empty.
    pub range: String,
    /// The whole draft-and-verify step with speculative decoding ("27.58"), else empty.
    pub spec_step: String,
    /// Joules per output token ("0.109": [`crate::view::export::energy_cell`]).
    pub energy: String,
    pub knee: bool,
    pub kv_pool: bool,
    pub over_pool: bool,
    pub miss: bool,
    pub miss_ttft: bool,
    /// Not one of the listed batches (hovered or marked only).
    pub extra: bool,
}

impl RowText {
    /// `row` as printed: batch, step time, tokens/s, meets TPOT, goodput, TTFT, meets TTFT, weights
    /// read, then the per-GPU tokens/s and goodput.
    pub fn of(row: &BatchRow, listed: bool, range: Option<&LikelyRange>, energy: String) -> RowText {
        let p = &row.point;
        RowText {
            batch: p.batch,
            cells: crate::view::export::batch_row_numbers(row),
            note: crate::view::export::row_note(row),
            range: range.map(|r| range_ms(r, p.step.step_s)).unwrap_or_default(),
            spec_step: crate::view::export::spec_step_ms(row).unwrap_or_default(),
            energy,
            knee: row.is_knee,
            kv_pool: row.is_kv_pool,
            over_pool: !row.fits_kv_pool,
            miss: !p.meets_tpot,
            miss_ttft: !p.meets_ttft,
            extra: !listed,
        }
    }
}

/// The columns the table shows besides the fixed ones: per GPU (TP > 1), the likely range (the
/// measured engines), the draft-and-verify step (speculative decoding).
#[derive(Clone, Copy)]
pub struct Columns {
    pub per_gpu: Memo<bool>,
    pub range_on: Memo<bool>,
    pub spec_on: Memo<bool>,
}

/// What row `i` shows now: its text, whether its batch is the hovered or the marked one, and whether
/// the per-GPU cells show.
#[derive(Clone, Debug, Default, PartialEq)]
struct RowShown {
    text: RowText,
    hovered: bool,
    marked: bool,
    per_gpu: bool,
    range_on: bool,
    spec_on: bool,
}

/// The row at position `i` of `shown`: the printed numbers plus classes for the knee, the pool,
/// batches that cannot run, the hovered and the marked batch. Pointing at it (or focusing its batch
/// button) shows its batch on the charts; clicking it (Enter or Space on the button) marks it.
/// Per-GPU columns appear when a replica spans several GPUs (at TP 1 they repeat the replica's).
/// The row reads the page's signals through `scoped_memo`s only, so removing it leaves nothing behind.
pub fn row_view(i: usize, shown: Memo<Vec<RowText>>, columns: Columns, linked: Linked) -> impl IntoView {
    let Columns { per_gpu, range_on, spec_on } = columns;
    let row = scoped_memo(move || {
        let text = shown.with(|s| s.get(i).cloned()).unwrap_or_default();
        let hovered = linked.hovered.get() == Some(text.batch);
        let marked = linked.view.with(|v| v.mark_batch) == Some(text.batch);
        RowShown {
            text,
            hovered,
            marked,
            per_gpu: per_gpu.get(),
            range_on: range_on.get(),
            spec_on: spec_on.get(),
        }
    });
    let batch = move || row.with_untracked(|r| r.text.batch);
    let is = move |flag: fn(&RowText) -> bool| move || row.with(|r| flag(&r.text));
    let cell = move |k: usize| move || row.with(|r| r.text.cells[k].clone());
    let marked = move || row.with(|r| r.marked);
    view! {
        <tr data-batch=move || row.with(|r| r.text.batch) class:knee=is(|r| r.knee) class:kv-pool=is(|r| r.kv_pool)
            class:over-pool=is(|r| r.over_pool) class:miss=is(|r| r.miss) class:miss-ttft=is(|r| r.miss_ttft)
            class:extra=is(|r| r.extra) class:hovered=move || row.with(|r| r.hovered) class:marked=marked
            on:pointerenter=move |_| linked.hover(Some(batch())) on:click=move |_| linked.toggle_mark(batch())>
            <th scope="row">
                <button type="button" class="row-mark" aria-pressed=move || marked().to_string()
                    aria-describedby="row-mark-help"
                    on:focus=move |_| linked.hover(Some(batch())) on:blur=move |_| linked.hover(None)>
                    {cell(0)}
                </button>
            </th>
            <td>{cell(1)}</td>
            <Show when=move || row.with(|r| r.range_on)>{move || range_cell(row)}</Show>
            <Show when=move || row.with(|r| r.spec_on)>{move || spec_step_cell(row)}</Show>
            <td>{cell(2)}</td>
            <td class="on-tpot">{cell(3)}</td>
            <td class="on-tpot">{cell(4)}</td>
            <td class="on-ttft">{cell(5)}</td>
            <td class="on-ttft">{cell(6)}</td>
            <td>{cell(7)}</td>
            <Show when=move || row.with(|r| r.per_gpu)>{move || per_gpu_cells(row)}</Show>
            <td class="energy">{move || row.with(|r| r.text.energy.clone())}</td>
            <td class="note">{move || row.with(|r| r.text.note)}</td>
        </tr>
    }
}

/// The two per-GPU cells, reading the row through a memo of their own that leaves it when they are
/// hidden (each TP change across 1 would otherwise add two subscribers to the row for good). A copy
/// of the row's own memo type, so no second memo type is compiled.
fn per_gpu_cells(row: Memo<RowShown>) -> impl IntoView {
    let shown = scoped_memo(move || row.get());
    view! {
        <td>{move || shown.with(|r| r.text.cells[8].clone())}</td>
        <td>{move || shown.with(|r| r.text.cells[9].clone())}</td>
    }
}

/// The draft-and-verify step's cell, through a memo of its own for the same reason as
/// [`per_gpu_cells`].
fn spec_step_cell(row: Memo<RowShown>) -> impl IntoView {
    let shown = scoped_memo(move || row.get());
    view! { <td class="spec-step">{move || shown.with(|r| r.text.spec_step.clone())}</td> }
}

/// The likely-range cell, through a memo of its own for the same reason as [`per_gpu_cells`].
fn range_cell(row: Memo<RowShown>) -> impl IntoView {
    let shown = scoped_memo(move || row.get());
    view! { <td class="range">{move || shown.with(|r| r.text.range.clone())}</td> }
}
