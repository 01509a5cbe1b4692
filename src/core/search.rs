//! The configuration search: every GPU preset x replica shape (TP x EP x DP x PP, [`space`]) x
//! weight precision x KV precision x placement that fits, each priced at its highest rate inside
//! both targets with [`crate::placement`]'s steady states (one treatment of prefill for the
//! page and the search).
//!
//! A colocated configuration is one replica with chunked prefill at the step budget. A
//! disaggregated one is x prefill instances and y decode instances on the same GPU type, each side
//! with its own shape; for each decode shape the split with the most goodput per GPU over every
//! prefill shape and x, y is kept ([`split`]).

pub mod pareto;
mod row;
pub mod space;
pub mod split;

use serde::{Deserialize, Serialize};

use crate::energy::EnergyPrice;
use crate::parallel::Parallelism;
use crate::placement::{Percentile, Split};
use crate::precision::Precision;
use crate::presets::GPUS;
use crate::roofline::kv_pool_batch;
use crate::scenario::Scenario;
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
    /// The power's price, host power and PUE each row's energy is priced with.
    pub energy: EnergyPrice,
}

/// How a configuration places prefill and decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Layout {
    /// One replica of `parallel.gpus()` GPUs, prefill chunked into its decode steps.
    Colocated { parallel: Parallelism },
    /// x prefill instances and y decode instances, each side with its own parallelism.
    Disaggregated { prefill_instances: u32, prefill: Parallelism, decode_instances: u32, decode: Parallelism },
}

impl Layout {
    /// The parallelism the page's scenario takes: the replica's, or the decode instances' (the side
    /// TPOT comes from).
    pub fn page_parallel(&self) -> Parallelism {
        match *self {
            Layout::Colocated { parallel } => parallel,
            Layout::Disaggregated { decode, .. } => decode,
        }
    }
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
    /// The page's scenario with this configuration's GPU, precisions, parallelism (a disaggregated
    /// configuration's decode side, the one its TPOT comes from) and the system that holds it
    /// ([`space::cluster_for`]: enough nodes or NVL72 domains, a 400 Gb/s NIC per GPU).
    pub fn scenario(&self, base: &Scenario) -> Scenario {
        let gpu = GPUS[usize::from(self.gpu_index).min(GPUS.len() - 1)];
        let parallel = self.layout.page_parallel();
        Scenario {
            gpu,
            weight_precision: self.weight_precision,
            kv_precision: self.kv_precision,
            parallel,
            cluster: space::cluster_for(&gpu, &parallel),
            ..*base
        }
    }

    /// The disaggregated split on `link_bytes_per_s` (each side's TP; the page's split has no
    /// other degree), or `None` for a colocated configuration.
    pub fn split(&self, link_bytes_per_s: Option<f64>) -> Option<Split> {
        match self.layout {
            Layout::Colocated { .. } => None,
            Layout::Disaggregated { prefill_instances, prefill, decode_instances, decode } => Some(Split {
                prefill_instances,
                prefill_tp: prefill.tp,
                decode_instances,
                decode_tp: decode.tp,
                link_bytes_per_s,
            }),
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
    /// Configurations priced: every colocated shape, fitting or not (but for the pipelines left out,
    /// [`space::pipeline_unneeded`]), and every x, y split priced.
    pub evaluated: u32,
}

impl Found {
    /// Appends `other`'s rows and count.
    pub fn merge(&mut self, other: Found) {
        self.rows.extend(other.rows);
        self.evaluated += other.evaluated;
    }
}

/// Every configuration of one group: each replica shape of [`space::parallelisms`] colocated (priced
/// when its weights fit; a pipeline only where half as many stages do not hold the weights,
/// [`space::pipeline_unneeded`]), then each fitting decode shape's best split ([`split::rows`]).
pub fn search_group(spec: &SearchSpec, group: &Group) -> Found {
    let base = Config {
        gpu_index: group.gpu_index,
        weight_precision: group.weight_precision,
        kv_precision: group.kv_precision,
        layout: Layout::Colocated { parallel: Parallelism::tp(1) },
    };
    let scenario = base.scenario(&spec.scenario);
    let mut found = Found::default();
    let mut fitting = Vec::new();
    let config = |parallel| Config { layout: Layout::Colocated { parallel }, ..base };
    let fits = |parallel| kv_pool_batch(&config(parallel).scenario(&spec.scenario)) >= 1;
    for parallel in space::parallelisms(&scenario.model, &scenario.gpu) {
        if space::pipeline_unneeded(&parallel, fits) {
            continue;
        }
        found.evaluated += 1;
        if fits(parallel) {
            fitting.push(parallel);
            found.rows.extend(row_for(spec, &config(parallel)));
        }
    }
    split::rows(spec, &base, &fitting, &mut found);
    found
}

/// The most workers one search is split over.
pub const SHARDS_MAX: u8 = 8;

/// The groups of shard `shard` of `shards` (index modulo `shards`, so every shard gets GPUs of every
/// size and the shards finish together); with one shard, all of them.
pub fn shard_groups(shard: u8, shards: u8) -> Vec<Group> {
    let shards = usize::from(shards.clamp(1, SHARDS_MAX));
    let shard = usize::from(shard) % shards;
    groups().into_iter().enumerate().filter(|(i, _)| i % shards == shard).map(|(_, g)| g).collect()
}

/// `groups` searched in order, `progress(done, total)` after each: what one shard runs.
pub fn search_groups(spec: &SearchSpec, groups: &[Group], mut progress: impl FnMut(u32, u32)) -> Found {
    let mut found = Found::default();
    for (i, group) in groups.iter().enumerate() {
        found.merge(search_group(spec, group));
        progress(i as u32 + 1, groups.len() as u32);
    }
    found
}

/// The whole search on one thread: every group in [`groups`] order.
pub fn search(spec: &SearchSpec) -> Found {
    let mut found = Found::default();
    for group in groups() {
        found.merge(search_group(spec, &group));
    }
    found
}
