//! The batch table: the seed's columns for the listed batches, the knee and the KV pool.

use leptos::prelude::*;

use crate::core::roofline::{Analysis, Limit};
use crate::core::table::BatchRow;
use crate::format::{ms, req_per_s, target_ms, thousands, yes_no};
use crate::state::Inputs;

/// The table, or a message in its place when no batch can run at all.
#[component]
pub fn BatchTable(
    inputs: ReadSignal<Inputs>,
    analysis: Memo<Analysis>,
    rows: Memo<Vec<BatchRow>>,
) -> impl IntoView {
    let nothing_runs = move || {
        matches!(analysis.get().limit, Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. })
    };
    let caption = move || {
        let i = inputs.get();
        format!(
            "{} on one {}, {} tokens of context, {} KV cache, {} output tokens, TPOT target {} ms",
            i.model.name,
            i.gpu.name,
            thousands(f64::from(i.context_tokens)),
            i.kv_precision.label(),
            thousands(f64::from(i.output_tokens)),
            target_ms(i.tpot_target_s)
        )
    };
    view! {
        <Show when=move || !nothing_runs() fallback=|| view! {
            <p id="no-table" class="no-table">"No batch can run in this configuration, so there is no table: see the sentence above."</p>
        }>
            <div class="table-wrap">
                <table id="batch-table" class="batch-table">
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Batch"</th>
                            <th scope="col">"Step time (ms)"</th>
                            <th scope="col">"Tokens/s"</th>
                            <th scope="col">"Meets TPOT"</th>
                            <th scope="col">"Goodput (req/s)"</th>
                            <th scope="col">"Note"</th>
                        </tr>
                    </thead>
                    <tbody>{move || rows.get().into_iter().map(row_view).collect_view()}</tbody>
                </table>
            </div>
        </Show>
    }
}

/// One row: the printed numbers plus classes for the knee, the pool and batches that cannot run.
fn row_view(row: BatchRow) -> impl IntoView {
    let p = row.point;
    let note = match (row.is_knee, row.is_kv_pool, row.fits_kv_pool) {
        (true, true, _) => "knee and KV-pool limit",
        (true, false, _) => "knee: largest batch meeting TPOT",
        (false, true, _) => "KV-pool limit",
        (false, false, false) => "exceeds the KV pool: cannot run",
        _ => "",
    };
    view! {
        <tr data-batch=p.batch class:knee=row.is_knee class:kv-pool=row.is_kv_pool class:over-pool=!row.fits_kv_pool
            class:miss=!p.meets_tpot>
            <th scope="row">{thousands(f64::from(p.batch))}</th>
            <td>{ms(p.step.step_s)}</td>
            <td>{thousands(p.tokens_per_s)}</td>
            <td>{yes_no(p.meets_tpot)}</td>
            <td>{req_per_s(p.goodput_req_per_s)}</td>
            <td class="note">{note}</td>
        </tr>
    }
}
