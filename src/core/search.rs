//! The configuration search: every GPU preset x TP x weight precision x KV precision x placement
//! that fits, each priced at its highest rate inside both targets with [`crate::core::placement`]'s
//! steady states (one treatment of prefill for the page and the search).
//!
//! A colocated configuration is one replica of TP GPUs with chunked prefill at the step budget. A
//! disaggregated one is x prefill instances of TP_p GPUs and y decode instances of TP_d GPUs on the
//! same GPU type; for each (TP_p, TP_d) every x, y with at most
//! [`crate::core::placement::GPUS_PER_SIDE_MAX`] GPUs a side is evaluated and the one with the most
//! goodput per GPU is kept (of equals, the fewest GPUs). No pipeline or expert parallelism.

pub mod pareto;
mod row;

use serde::{Deserialize, Serialize};

use crate::core::parallel::Parallelism;
use crate::core::placement::{
    beats, combine, decode_side, prefill_side, DecodeSide, Disaggregated, Percentile, PrefillSide, Split,
    GPUS_PER_SIDE_MAX,
};
use crate::core::precision::Precision;
use crate::core::presets::GPUS;
use crate::core::roofline::{kv_pool_batch, TP_CHOICES};
use crate::core::scenario::Scenario;
pub use row::{row_at, row_for, Point, Row};

/// GPU presets searched, in [`GPUS`] order.
pub const GPU_COUNT: usize = 18;

/// What one search needs, validated.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSpec {
    /// Model, lengths, targets, memory utilization and calibration; its GPU, TP and precisions are
    /// what the search varies, so they are ignored.
    pub scenario: Scenario,
    /// The colocated replica's step token budget, in tokens.
    pub chunk_tokens: u32,
    /// The load the GPU count and the price are planned for, in requests/s.
    pub load_req_per_s: f64,
    /// $ per GPU-hour for each GPU preset, in [`GPUS`] order.
    pub usd_per_gpu_hour: [f64; GPU_COUNT],
    /// The KV transfer's bandwidth for disaggregated splits, in B/s; `None`: each GPU's interconnect.
    pub link_bytes_per_s: Option<f64>,
    /// The attainment target and length spread TTFT and TPOT are read at.
    pub percentile: Percentile,
}

/// How a configuration places prefill and decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// One replica of `tp` GPUs, prefill chunked into its decode steps.
    Colocated { tp: u32 },
    /// x prefill instances of TP_p GPUs, y decode instances of TP_d GPUs.
    Disaggregated { prefill_instances: u32, prefill_tp: u32, decode_instances: u32, decode_tp: u32 },
}

/// One point of the search space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Index into [`GPUS`].
    pub gpu_index: u8,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
    pub layout: Layout,
}

impl Config {
    /// The page's scenario with this configuration's GPU, precisions and TP (a disaggregated
    /// configuration's decode TP, the one its TPOT comes from).
    pub fn scenario(&self, base: &Scenario) -> Scenario {
        let tp = match self.layout {
            Layout::Colocated { tp } => tp,
            Layout::Disaggregated { decode_tp, .. } => decode_tp,
        };
        Scenario {
            gpu: GPUS[usize::from(self.gpu_index).min(GPUS.len() - 1)],
            weight_precision: self.weight_precision,
            kv_precision: self.kv_precision,
            parallel: Parallelism::tp(tp),
            ..*base
        }
    }

    /// The disaggregated split on `link_bytes_per_s`, or `None` for a colocated configuration.
    pub fn split(&self, link_bytes_per_s: Option<f64>) -> Option<Split> {
        match self.layout {
            Layout::Colocated { .. } => None,
            Layout::Disaggregated { prefill_instances, prefill_tp, decode_instances, decode_tp } => {
                Some(Split { prefill_instances, prefill_tp, decode_instances, decode_tp, link_bytes_per_s })
            }
        }
    }
}

/// One GPU preset with one weight and one KV precision: the unit a worker takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub gpu_index: u8,
    pub weight_precision: Precision,
    pub kv_precision: Precision,
}

/// Every group, GPU-major: [`GPU_COUNT`] x 4 weight x 3 KV precisions.
pub fn groups() -> Vec<Group> {
    let mut all = Vec::with_capacity(GPU_COUNT * Precision::WEIGHTS.len() * Precision::KV.len());
    for gpu_index in 0..GPUS.len().min(GPU_COUNT) as u8 {
        for weight_precision in Precision::WEIGHTS {
            for kv_precision in Precision::KV {
                all.push(Group { gpu_index, weight_precision, kv_precision });
            }
        }
    }
    all
}

/// A group's rows and how many configurations were evaluated for them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Found {
    /// The configurations that fit and serve something inside both targets.
    pub rows: Vec<Row>,
    /// Configurations priced, fitting or not (every colocated TP and every x, y split).
    pub evaluated: u32,
}

impl Found {
    /// Appends `other`'s rows and count.
    pub fn merge(&mut self, other: Found) {
        self.rows.extend(other.rows);
        self.evaluated += other.evaluated;
    }
}

/// Every configuration of one group: the colocated TPs, then each (TP_p, TP_d)'s best split.
pub fn search_group(spec: &SearchSpec, group: &Group) -> Found {
    let base = Config {
        gpu_index: group.gpu_index,
        weight_precision: group.weight_precision,
        kv_precision: group.kv_precision,
        layout: Layout::Colocated { tp: 1 },
    };
    let scenario = base.scenario(&spec.scenario);
    let mut found = Found::default();
    for tp in TP_CHOICES {
        found.evaluated += 1;
        let config = Config { layout: Layout::Colocated { tp }, ..base };
        if kv_pool_batch(&config.scenario(&spec.scenario)) >= 1 {
            found.rows.extend(row_for(spec, &config));
        }
    }
    let pct = &spec.percentile;
    let prefills = TP_CHOICES.map(|tp| prefill_side(&scenario, tp, spec.link_bytes_per_s, pct));
    let decodes = TP_CHOICES.map(|tp| decode_side(&scenario, tp, pct));
    for prefill in &prefills {
        for decode in &decodes {
            let (best, evaluated) = best_split_of(spec.link_bytes_per_s, prefill, decode, pct);
            found.evaluated += evaluated;
            let row = best.and_then(|(split, d)| {
                let config = Config { layout: Layout::of(&split), ..base };
                row_at(spec, &config, &Point::of(&d)?)
            });
            found.rows.extend(row);
        }
    }
    found
}

impl Layout {
    /// The disaggregated layout of `split`.
    pub fn of(split: &Split) -> Layout {
        Layout::Disaggregated {
            prefill_instances: split.prefill_instances,
            prefill_tp: split.prefill_tp,
            decode_instances: split.decode_instances,
            decode_tp: split.decode_tp,
        }
    }
}

/// The x, y with the most goodput per GPU for one prefill and one decode instance kind, and how
/// many splits were priced.
fn best_split_of(
    link_bytes_per_s: Option<f64>,
    prefill: &PrefillSide,
    decode: &DecodeSide,
    pct: &Percentile,
) -> (Option<(Split, Disaggregated)>, u32) {
    let (prefill_tp, decode_tp) = (prefill.tp, decode.tp);
    let mut best: Option<(Split, Disaggregated)> = None;
    let mut evaluated = 0;
    for prefill_instances in 1..=GPUS_PER_SIDE_MAX / prefill_tp {
        for decode_instances in 1..=GPUS_PER_SIDE_MAX / decode_tp {
            evaluated += 1;
            let split =
                Split { prefill_instances, prefill_tp, decode_instances, decode_tp, link_bytes_per_s };
            let d = combine(&split, prefill, decode, pct);
            if beats(&d, best.as_ref().map(|(_, b)| b)) {
                best = Some((split, d));
            }
        }
    }
    (best, evaluated)
}

/// The whole search on one thread: every group in [`groups`] order.
pub fn search(spec: &SearchSpec) -> Found {
    let mut found = Found::default();
    for group in groups() {
        found.merge(search_group(spec, &group));
    }
    found
}
