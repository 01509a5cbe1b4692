//! The attainment chart's text alternative: one row per simulated rate, in a collapsible table;
//! and the chunked-prefill trade-off at one load.

use leptos::prelude::*;

use crate::core::plan::SimResult;
use crate::core::sim::{ChunkPoint, Counting, LoadMode, RatePoint, SeedBand};
use crate::ui::canvas::export::SimTableExport;
use crate::view::export::sim_row_cells;
use crate::view::format::{ms_or_dash, percent, significant, thousands};

/// Rate, attainment (both, its range over seeds, TTFT only, TPOT only), TTFT and TPOT p50/p90,
/// throughput and whether the queue grows, per rate: medians over seeds.
#[component]
pub fn SimTable(result: Signal<Option<SimResult>>) -> impl IntoView {
    let rows = move || {
        result.get().map(|r| {
            let bands = r.sweep.bands.clone();
            r.sweep
                .points
                .iter()
                .enumerate()
                .map(|(j, p)| row_view(p, bands.get(j), r.counting))
                .collect_view()
        })
    };
    let rate_header = move || match result.get().map(|r| r.load) {
        Some(LoadMode::Closed) => "Clients → achieved rate (req/s)",
        _ => "Offered rate (req/s)",
    };
    let by = move || match result.get().map(|r| r.counting) {
        Some(Counting::Tokens) => " (by tokens)",
        _ => "",
    };
    view! {
        <details id="sim-data" class="sim-data">
            <summary>"Data: every simulated rate"</summary>
            <div class="table-scroll" tabindex="0" role="region" aria-label="Every simulated rate">
                <table id="sim-table">
                    <caption>"Attainment and latency percentiles per simulated load level"
                        {move || result.get().map(|r| format!(" ({})", crate::view::format::sim_sample(&r.sweep)))}</caption>
                    <thead><tr>
                        <th scope="col">{rate_header}</th>
                        <th scope="col">"Both targets" {by}</th>
                        <th scope="col">"Both, lowest to highest seed"</th>
                        <th scope="col">"TTFT only" {by}</th>
                        <th scope="col">"TPOT only" {by}</th>
                        <th scope="col">"TTFT p50 (ms)"</th>
                        <th scope="col">"TTFT p90 (ms)"</th>
                        <th scope="col">"TPOT p50 (ms)"</th>
                        <th scope="col">"TPOT p90 (ms)"</th>
                        <th scope="col">"Throughput (tokens/s)"</th>
                        <th scope="col">"Steady state"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <SimTableExport result=result/>
        </details>
    }
}

/// One row: the cells the CSV exports ([`sim_row_cells`]), the rate as the row's header; an
/// overloaded level's row is classed `overloaded`.
fn row_view(p: &RatePoint, band: Option<&SeedBand>, counting: Counting) -> impl IntoView {
    let mut cells = sim_row_cells(p, band, counting).into_iter();
    let rate = cells.next().unwrap_or_default();
    let class = if p.overloaded { "overloaded" } else { "" };
    view! {
        <tr class=class>
            <th scope="row">{rate}</th>
            {cells.map(|c| view! { <td>{c}</td> }).collect_view()}
        </tr>
    }
}

/// The same load at each step token budget: TTFT falls and TPOT rises as the budget grows.
#[component]
pub fn ChunkTable(result: Signal<Option<SimResult>>, chunk_tokens: Signal<u32>) -> impl IntoView {
    let caption = move || match result.get() {
        Some(r) if r.load == LoadMode::Closed => {
            format!("Step budget trade-off with {} clients (half the cap)", thousands(r.chunk_level))
        }
        Some(r) => format!(
            "Step budget trade-off at {} req/s (half the goodput rate, so queues stay short)",
            significant(r.chunk_level)
        ),
        None => String::new(),
    };
    let rows = move || {
        result.get().map(|r| r.chunks.iter().map(|c| chunk_row(c, chunk_tokens.get())).collect_view())
    };
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="Step budgets">
            <table id="chunk-table" class="chunk-table">
                <caption>{caption}</caption>
                <thead><tr>
                    <th scope="col">"Step budget (tokens)"</th>
                    <th scope="col">"TTFT p90 (ms)"</th>
                    <th scope="col">"TPOT p90 (ms)"</th>
                    <th scope="col">"Both targets"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn chunk_row(c: &ChunkPoint, current: u32) -> impl IntoView {
    let class = if c.chunk_tokens == current { "current" } else { "" };
    view! {
        <tr class=class>
            <th scope="row">{thousands(f64::from(c.chunk_tokens))}</th>
            <td>{ms_or_dash(c.point.ttft.p90_s)}</td>
            <td>{ms_or_dash(c.point.tpot.p90_s)}</td>
            <td>{percent(c.point.requests.both)}</td>
        </tr>
    }
}
