//! The batch table's rows: one row element per position, kept across inputs, whose cells' text and
//! classes follow what the position shows now, so an input sets only the text that changed.

use leptos::prelude::*;

use crate::core::table::BatchRow;
use crate::ui::explore::linked::Linked;

/// One row as the page prints it, with the classes it takes (compared between inputs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowText {
    pub batch: u32,
    pub cells: [String; 10],
    pub note: &'static str,
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
    pub fn of(row: &BatchRow, listed: bool) -> RowText {
        let p = &row.point;
        RowText {
            batch: p.batch,
            cells: crate::view::export::batch_row_numbers(row),
            note: crate::view::export::row_note(row),
            knee: row.is_knee,
            kv_pool: row.is_kv_pool,
            over_pool: !row.fits_kv_pool,
            miss: !p.meets_tpot,
            miss_ttft: !p.meets_ttft,
            extra: !listed,
        }
    }
}

/// The row at position `i` of `shown`: the printed numbers plus classes for the knee, the pool,
/// batches that cannot run, the hovered and the marked batch. Pointing at it (or focusing its batch
/// button) shows its batch on the charts; clicking it (Enter or Space on the button) marks it.
/// Per-GPU columns appear when a replica spans several GPUs (at TP 1 they repeat the replica's).
pub fn row_view(i: usize, shown: Memo<Vec<RowText>>, per_gpu: Memo<bool>, linked: Linked) -> impl IntoView {
    let row = Memo::new(move |_| shown.with(|s| s.get(i).cloned()).unwrap_or_default());
    let batch = move || row.with_untracked(|r| r.batch);
    let is = move |flag: fn(&RowText) -> bool| move || row.with(flag);
    let cell = move |k: usize| move || row.with(|r| r.cells[k].clone());
    let marked = move || linked.view.with(|v| v.mark_batch) == Some(row.with(|r| r.batch));
    view! {
        <tr data-batch=move || row.with(|r| r.batch) class:knee=is(|r| r.knee) class:kv-pool=is(|r| r.kv_pool)
            class:over-pool=is(|r| r.over_pool) class:miss=is(|r| r.miss) class:miss-ttft=is(|r| r.miss_ttft)
            class:extra=is(|r| r.extra)
            class:hovered=move || linked.hovered.get() == Some(row.with(|r| r.batch)) class:marked=marked
            on:pointerenter=move |_| linked.hover(Some(batch())) on:click=move |_| linked.toggle_mark(batch())>
            <th scope="row">
                <button type="button" class="row-mark" aria-pressed=move || marked().to_string()
                    aria-describedby="row-mark-help"
                    on:focus=move |_| linked.hover(Some(batch())) on:blur=move |_| linked.hover(None)>
                    {cell(0)}
                </button>
            </th>
            <td>{cell(1)}</td>
            <td>{cell(2)}</td>
            <td>{cell(3)}</td>
            <td>{cell(4)}</td>
            <td>{cell(5)}</td>
            <td>{cell(6)}</td>
            <td>{cell(7)}</td>
            <Show when=move || per_gpu.get()>
                <td>{cell(8)}</td>
                <td>{cell(9)}</td>
            </Show>
            <td class="note">{move || row.with(|r| r.note)}</td>
        </tr>
    }
}
