//! The batch charts as one closed kind ([`BatchChart`]: its ids, titles and the `view=` panel that
//! shows each) and what they say in words: each chart's text alternative and the read-out of the
//! hovered or marked batch. `chart::batch` draws a kind; this file is what it draws.

use crate::core::curves::Curves;
use crate::core::goodput::BatchPoint;
use crate::state::view::Panel;
use crate::view::format::{ms, req_per_s, target_ms, thousands};

/// Which batch chart: throughput and goodput, step time, or throughput against speed per user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchChart {
    Rate,
    Step,
    Interactivity,
}

impl BatchChart {
    pub const ALL: [BatchChart; 3] = [BatchChart::Rate, BatchChart::Step, BatchChart::Interactivity];

    /// The canvas's element id.
    pub fn id(self) -> &'static str {
        match self {
            BatchChart::Rate => "chart-rate",
            BatchChart::Step => "chart-step",
            BatchChart::Interactivity => "chart-interactivity",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            BatchChart::Rate => "Throughput and goodput against batch size",
            BatchChart::Step => "Step time against batch size",
            BatchChart::Interactivity => "Throughput per GPU against speed per user",
        }
    }

    /// The panel `view=` names for this chart.
    pub fn panel(self) -> Panel {
        match self {
            BatchChart::Rate => Panel::Rate,
            BatchChart::Step => Panel::Step,
            BatchChart::Interactivity => Panel::Interactivity,
        }
    }

    /// The batch chart that shows `panel`, if one does (for the lazy module's SVG export).
    pub fn of_panel(panel: Panel) -> Option<BatchChart> {
        BatchChart::ALL.into_iter().find(|k| k.panel() == panel)
    }
}

/// The chart's text alternative: what it shows at the batch a server can run and at the edge.
pub fn describe(kind: BatchChart, c: &Curves) -> String {
    if c.kv_pool_batch == 0 {
        return format!(
            "{}. Nothing fits: the KV pool holds no sequence, so no batch can run.",
            kind.title()
        );
    }
    let served_batch = c.server_batch;
    let served = c.points.iter().find(|p| p.batch == served_batch && served_batch > 0);
    let at = match (served, c.knee_batch > c.kv_pool_batch) {
        (None, _) => "no batch meets the targets".to_string(),
        (Some(p), true) => {
            format!("the KV pool, batch {}, is the largest that runs", thousands(f64::from(p.batch)))
        }
        (Some(p), false) => format!("the knee is batch {}", thousands(f64::from(p.batch))),
    };
    let pick = |p: Option<&BatchPoint>, f: fn(&BatchPoint) -> f64| p.map_or(0.0, f);
    let last = c.points.last();
    let last_batch = f64::from(last.map_or(0, |p| p.batch));
    match kind {
        BatchChart::Rate => format!(
            "{}. {}: goodput {} req/s; past it goodput is 0 while throughput rises to {} req/s at batch {}. KV pool: {} sequences.",
            kind.title(),
            capitalized(&at),
            req_per_s(pick(served, |p| p.goodput_req_per_s)),
            req_per_s(pick(last, |p| p.throughput_req_per_s)),
            thousands(last_batch),
            thousands(f64::from(c.kv_pool_batch)),
        ),
        BatchChart::Step => format!(
            "{}. The TPOT target is {} ms; {at}, with a {} ms step; at batch {} the step takes {} ms.",
            kind.title(),
            target_ms(c.tpot_target_s),
            ms(pick(served, |p| p.step.step_s)),
            thousands(last_batch),
            ms(pick(last, |p| p.step.step_s)),
        ),
        BatchChart::Interactivity => format!(
            "{}. One point per batch size that fits the KV pool; the TPOT target of {} ms is {} tokens/s per user. \
             {}: each user gets {} tokens/s and each GPU makes {} tokens/s.",
            kind.title(),
            target_ms(c.tpot_target_s),
            thousands(1.0 / c.tpot_target_s),
            capitalized(&at),
            thousands(pick(served, |p| p.tokens_per_s_per_user)),
            thousands(pick(served, |p| p.tokens_per_s_per_gpu)),
        ),
    }
}

/// `text` with its first letter upper-case, to open a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// The read-out as one sentence, for the live region: "Batch 64: 9.92 ms per step, 6,450
/// tokens/s, 25.2 requests/s; meets the TPOT target and the TTFT target."
pub fn readout_sentence(p: &BatchPoint) -> String {
    let verdict = match (p.meets_tpot, p.meets_ttft) {
        (true, true) => "meets the TPOT target and the TTFT target",
        (true, false) => "meets the TPOT target, misses the TTFT target",
        (false, true) => "misses the TPOT target, meets the TTFT target",
        (false, false) => "misses the TPOT target and the TTFT target",
    };
    format!(
        "Batch {}: {} ms per step, {} tokens/s, {} requests/s; {verdict}; goodput {} requests/s.",
        thousands(f64::from(p.batch)),
        ms(p.step.step_s),
        thousands(p.tokens_per_s),
        req_per_s(p.throughput_req_per_s),
        req_per_s(p.goodput_req_per_s),
    )
}
