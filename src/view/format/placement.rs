//! The placement comparison as the page prints it: one row per placement (rate, GPUs, goodput per
//! GPU, GPUs for the load, TPOT and TTFT at the percentile, what binds), where the KV transfer's
//! bandwidth comes from, and the finding.

use super::{fixed, ms, ms_or_dash, significant, thousands, trimmed};
use crate::core::capacity::gpus_for;
use crate::core::placement::{Binds, Comparison, Disaggregated, Operating, Percentile, Split};
use crate::core::scenario::Scenario;
use crate::core::units::bytes_to_gb;

/// One row of the comparison table, as text.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacementRow {
    /// `chunked`, `unchunked` or `disagg`: the row's id in the page.
    pub id: &'static str,
    pub label: String,
    pub rate: String,
    pub gpus: String,
    pub per_gpu: String,
    /// GPUs for the capacity plan's load: ceil(load / rate) x GPUs.
    pub gpus_for_load: String,
    pub tpot: String,
    pub ttft: String,
    pub binds: String,
}

/// What binds, in words.
pub fn binds_text(binds: Binds) -> &'static str {
    match binds {
        Binds::Nothing => "nothing",
        Binds::Tpot => "the TPOT target",
        Binds::Ttft => "the TTFT target",
        Binds::KvPool => "the KV pool",
        Binds::StepBudget => "the step token budget",
        Binds::Capacity => "the GPUs' capacity",
        Binds::PrefillSide => "the prefill side",
        Binds::DecodeSide => "the decode side",
    }
}

/// The three rows: chunked colocated, unchunked colocated, the disaggregated split.
pub fn rows(
    comparison: &Comparison,
    chunk_tokens: u32,
    split: &Split,
    load_req_per_s: f64,
) -> Vec<PlacementRow> {
    let gpus = comparison.colocated_gpus;
    let colocated = |id, label: String, p: &Operating| PlacementRow {
        id,
        label,
        rate: significant(p.rate_req_per_s),
        gpus: thousands(f64::from(gpus)),
        per_gpu: significant(comparison.per_gpu(p)),
        gpus_for_load: gpus_for_load_text(load_req_per_s, p.rate_req_per_s, gpus),
        tpot: ms_or_dash(p.tpot_s),
        ttft: ms_or_dash(p.ttft_s),
        binds: binds_text(p.binds).to_string(),
    };
    let mut rows = vec![
        colocated(
            "chunked",
            format!("Colocated, chunked ({} tokens a step)", thousands(f64::from(chunk_tokens))),
            &comparison.chunked,
        ),
        colocated("unchunked", "Colocated, whole prompts".to_string(), &comparison.unchunked),
        split_row(
            "disagg",
            format!("Disaggregated {}", split_text(split)),
            &comparison.disaggregated,
            load_req_per_s,
        ),
    ];
    if let Some((best, d)) = &comparison.best_split {
        rows.push(split_row("best", format!("Best split per GPU: {}", split_text(best)), d, load_req_per_s));
    }
    rows
}

/// ceil(load / rate) x GPUs as the table prints it; a dash when nothing is served.
pub fn gpus_for_load_text(load_req_per_s: f64, rate_req_per_s: f64, gpus: u32) -> String {
    match gpus_for(load_req_per_s, rate_req_per_s, gpus) {
        0 => "–".to_string(),
        n => thousands(f64::from(n)),
    }
}

/// `p90`, `p99`, `p99.9`: the percentile the analytic steady state is read at, by name. "Every
/// request" is read as p99.99 ([`Percentile::share_clamped`]: a steady state has no last request),
/// and says so.
pub fn percentile_label(percentile: &Percentile) -> String {
    format!("p{}", trimmed(percentile.share_clamped() * 100.0, 2))
}

/// A time in s with two decimals and its unit (`0.17 s`), or a dash.
pub fn seconds_text(time_s: f64) -> String {
    if time_s.is_finite() {
        format!("{} s", fixed(time_s, 2))
    } else {
        "–".to_string()
    }
}

/// A time in ms as [`ms`] prints it, with its unit (`10.00 ms`).
pub fn ms_text(time_s: f64) -> String {
    format!("{} ms", ms(time_s))
}

fn split_row(id: &'static str, label: String, d: &Disaggregated, load_req_per_s: f64) -> PlacementRow {
    PlacementRow {
        id,
        label,
        rate: significant(d.rate_req_per_s),
        gpus: thousands(f64::from(d.gpus)),
        per_gpu: significant(d.goodput_per_gpu_req_per_s),
        gpus_for_load: gpus_for_load_text(load_req_per_s, d.rate_req_per_s, d.gpus),
        tpot: ms_or_dash(d.decode_tpot_s),
        ttft: ms_or_dash(d.ttft_s),
        binds: binds_text(d.binds).to_string(),
    }
}

/// `2 × TP1 prefill : 1 × TP2 decode`.
pub fn split_text(split: &Split) -> String {
    format!(
        "{} × TP{} prefill : {} × TP{} decode",
        split.prefill_instances, split.prefill_tp, split.decode_instances, split.decode_tp
    )
}

/// Where the KV transfer's bandwidth comes from.
pub fn link_text(scenario: &Scenario, split: &Split) -> String {
    match split.link_bytes_per_s {
        Some(b) => format!("the KV crosses a chosen link of {} GB/s", trimmed(bytes_to_gb(b), 1)),
        None => format!(
            "the KV crosses the {}'s interconnect, {} GB/s per direction (from the GPU preset: {})",
            scenario.gpu.name,
            trimmed(bytes_to_gb(scenario.gpu.interconnect_bytes_per_s), 1),
            scenario.gpu.source
        ),
    }
}

/// The finding: which placement serves the most per GPU on these targets, which side of the split
/// binds, and the prefill : decode ratio that would balance it ([`finding_parts`] joined).
pub fn finding(comparison: &Comparison, split: &Split) -> String {
    let [best, side] = finding_parts(comparison, split);
    if side.is_empty() {
        best
    } else {
        format!("{best} {side}")
    }
}

/// The finding's two sentences: the placement that serves the most per GPU (the answer, which a
/// narrow embed keeps alone), then which side of the split binds and the ratio that would balance
/// it (empty when no placement meets both targets).
pub fn finding_parts(comparison: &Comparison, split: &Split) -> [String; 2] {
    let d = &comparison.disaggregated;
    let best_split = comparison
        .best_split
        .map(|(s, b)| (format!("the split {}", split_text(&s)), b.goodput_per_gpu_req_per_s));
    let candidates = [
        ("colocated with chunked prefill".to_string(), comparison.per_gpu(&comparison.chunked)),
        ("colocated with whole-prompt prefill".to_string(), comparison.per_gpu(&comparison.unchunked)),
        (format!("the split {}", split_text(split)), d.goodput_per_gpu_req_per_s),
    ];
    let best =
        candidates
            .into_iter()
            .chain(best_split)
            .fold((String::new(), 0.0), |a, b| if b.1 > a.1 { b } else { a });
    if best.1 <= 0.0 {
        return ["No placement meets both targets here.".to_string(), String::new()];
    }
    let side = format!(
        "In the split {}, {} binds; {} prefill instances per decode instance would balance the sides.",
        split_text(split),
        binds_text(d.binds),
        trimmed(d.balanced_prefill_per_decode, 2)
    );
    [format!("Per GPU, {} serves the most: {} req/s per GPU.", best.0, significant(best.1)), side]
}

/// Why the plan's rate can differ from the simulator's, from what holds the plan's rate: each
/// limit is read from an approximation the simulator does not make, and a finite run wobbles.
pub fn plan_difference_cause(binds: crate::core::placement::Binds) -> &'static str {
    use crate::core::placement::Binds;
    match binds {
        Binds::Ttft => "the plan's rate is where its TTFT p90 meets the target, read from an M/G/1 queue of prompts (a step \
            taking every waiting prompt the budget holds) where the simulator queues each one, and a finite run wobbles",
        Binds::Tpot => "the plan's rate is where its TPOT p90 meets the target, read from a normal approximation of the \
            prompt steps inside an answer and of the batch's spread where the simulator counts them, and a finite run wobbles",
        Binds::KvPool => "the plan's rate is where its mean batch fills the KV pool, where the simulator admits by the \
            tokens each request actually holds, and a finite run wobbles",
        _ => "the plan is a steady state of means and approximated percentiles, the simulator a finite run that wobbles",
    }
}
