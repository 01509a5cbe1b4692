//! The configuration search's keys: `search` (the panel is open), `ssort` (the table's order),
//! the filters `sgpu`, `sw`, `skv`, `splace`, and `prices` (each GPU preset's $/GPU-hour where it
//! differs from its sourced default, `h100-sxm:2.1,b200:4`), validated with a notice for each bad
//! value. Filters and order only choose what the table and chart show; they never change a row.

use serde::{Deserialize, Serialize};

use super::fields::{quoted, NumberField};
use super::{Notice, RawQuery};
use crate::core::placement::PlacementMode;
use crate::core::precision::Precision;
use crate::core::presets::{GPUS, GPU_PRICES};
use crate::core::search::{Config, SearchSpec, GPU_COUNT};

/// The table's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SortKey {
    /// Most goodput per GPU first.
    #[default]
    GoodputPerGpu,
    /// Cheapest $ per million output tokens first.
    UsdPerMillionTokens,
    /// Fewest GPUs for the load first.
    GpusForLoad,
    /// Most tokens/s per user first.
    TokensPerUser,
}

/// `ssort=` values, in menu order.
pub const SORTS: [(&str, SortKey, &str); 4] = [
    ("goodput", SortKey::GoodputPerGpu, "Goodput per GPU"),
    ("cost", SortKey::UsdPerMillionTokens, "$ per million tokens"),
    ("gpus", SortKey::GpusForLoad, "GPUs for the load"),
    ("user", SortKey::TokensPerUser, "Tokens/s per user"),
];

/// What the table and chart show of the rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filters {
    /// Index into [`GPUS`]; `None`: every GPU.
    pub gpu_index: Option<u8>,
    pub weight_precision: Option<Precision>,
    pub kv_precision: Option<Precision>,
    pub placement: Option<PlacementMode>,
}

/// The search panel's state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchInputs {
    pub open: bool,
    pub sort: SortKey,
    pub filters: Filters,
    /// $ per GPU-hour for each GPU preset, in [`GPUS`] order.
    pub usd_per_gpu_hour: [f64; GPU_COUNT],
}

impl Default for SearchInputs {
    fn default() -> Self {
        SearchInputs {
            open: false,
            sort: SortKey::default(),
            filters: Filters::default(),
            usd_per_gpu_hour: GPU_PRICES.map(|p| p.usd_per_gpu_hour),
        }
    }
}

/// One GPU preset's price in the `prices` key, in $/GPU-hour.
pub const GPU_PRICE: NumberField = NumberField::new("prices", "Price", "$/GPU-hour", (0.0, 1000.0));

/// Validates the search's keys.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> SearchInputs {
    let open = match raw.get("search").map(str::trim) {
        None | Some("0") => false,
        Some("1") => true,
        Some(text) => {
            let message = format!("search={} is not 0 or 1; the search stays closed.", quoted(text));
            notices.push(Notice { key: "search", message });
            false
        }
    };
    let sort = pick(raw, "ssort", &SORTS.map(|(id, key, _)| (id, key)), notices).unwrap_or_default();
    let gpus: Vec<(&str, u8)> = GPUS.iter().enumerate().map(|(i, g)| (g.id, i as u8)).collect();
    let weights = Precision::WEIGHTS.map(|p| (p.id(), p));
    let kvs = Precision::KV.map(|p| (p.id(), p));
    let places = [("colo", PlacementMode::Colocated), ("disagg", PlacementMode::Disaggregated)];
    let filters = Filters {
        gpu_index: pick(raw, "sgpu", &gpus, notices),
        weight_precision: pick(raw, "sw", &weights, notices),
        kv_precision: pick(raw, "skv", &kvs, notices),
        placement: pick(raw, "splace", &places, notices),
    };
    SearchInputs { open, sort, filters, usd_per_gpu_hour: read_prices(raw.get("prices"), notices) }
}

/// The value of `key` among `choices` (or `all`, absent: `None`); anything else is `None` with a
/// notice.
fn pick<T: Copy>(
    raw: &RawQuery,
    key: &'static str,
    choices: &[(&str, T)],
    notices: &mut Vec<Notice>,
) -> Option<T> {
    let text = raw.get(key)?.trim();
    if text == "all" {
        return None;
    }
    let found = choices.iter().find(|(id, _)| *id == text).map(|(_, v)| *v);
    if found.is_none() {
        // Long lists (the GPU presets) are named by kind, so the notice stays short.
        let ids: Vec<&str> = choices.iter().map(|(id, _)| *id).collect();
        let expected =
            if ids.len() > 6 { "a GPU preset id".to_string() } else { format!("one of {}", ids.join(", ")) };
        let message = format!("{key}={} is not all or {expected}; using all.", quoted(text));
        notices.push(Notice { key, message });
    }
    found
}

/// `prices`: comma-separated `gpu-id:price` pairs over the sourced defaults; a pair naming no
/// preset or with a bad price is skipped with a notice, a price out of range is clamped.
fn read_prices(raw: Option<&str>, notices: &mut Vec<Notice>) -> [f64; GPU_COUNT] {
    let mut prices = SearchInputs::default().usd_per_gpu_hour;
    let Some(text) = raw else { return prices };
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (id, value) = pair.split_once(':').unwrap_or((pair, ""));
        match GPUS.iter().position(|g| g.id == id.trim()) {
            Some(i) if i < GPU_COUNT => prices[i] = GPU_PRICE.read(Some(value), prices[i], notices),
            _ => {
                let message = format!("prices: {} names no GPU preset; skipped.", quoted(pair));
                notices.push(Notice { key: "prices", message });
            }
        }
    }
    prices
}

impl SearchInputs {
    /// Query pairs in canonical order, each only when off its default.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if self.open {
            pairs.push(("search", "1".to_string()));
        }
        if self.sort != SortKey::default() {
            let id = SORTS.iter().find(|(_, k, _)| *k == self.sort).map_or("goodput", |(id, _, _)| id);
            pairs.push(("ssort", id.to_string()));
        }
        let f = self.filters;
        if let Some(i) = f.gpu_index {
            pairs.push(("sgpu", GPUS[usize::from(i).min(GPUS.len() - 1)].id.to_string()));
        }
        pairs.extend(f.weight_precision.map(|p| ("sw", p.id().to_string())));
        pairs.extend(f.kv_precision.map(|p| ("skv", p.id().to_string())));
        pairs.extend(f.placement.map(|p| ("splace", place_id(p).to_string())));
        let defaults = SearchInputs::default().usd_per_gpu_hour;
        let changed: Vec<String> = (0..GPU_COUNT)
            .filter(|&i| self.usd_per_gpu_hour[i] != defaults[i])
            .map(|i| format!("{}:{}", GPUS[i].id, GPU_PRICE.write(self.usd_per_gpu_hour[i])))
            .collect();
        if !changed.is_empty() {
            pairs.push(("prices", changed.join(",")));
        }
        pairs
    }
}

/// The `splace` id of a placement.
pub fn place_id(mode: PlacementMode) -> &'static str {
    match mode {
        PlacementMode::Colocated => "colo",
        PlacementMode::Disaggregated => "disagg",
    }
}

impl super::Inputs {
    /// What the configuration search runs on: the page's model, workload, targets and
    /// calibration, its simulator's step budget, the capacity plan's load, the search's prices and
    /// the placement's link.
    pub fn search_spec(&self) -> SearchSpec {
        SearchSpec {
            scenario: self.scenario,
            chunk_tokens: self.sim.chunk_tokens,
            load_req_per_s: self.rate_req_per_s,
            usd_per_gpu_hour: self.search.usd_per_gpu_hour,
            link_bytes_per_s: self.placement.split.link_bytes_per_s,
            percentile: self.percentile(),
        }
    }
}

impl super::Inputs {
    /// Loads a search row's configuration: its GPU preset, precisions and TP (a disaggregated
    /// configuration's decode TP, as [`Config::scenario`]), and its placement (colocated keeps the
    /// split the page had; disaggregated sets x, TP_p, y, TP_d on the page's link).
    pub fn load_config(&mut self, config: &Config) {
        self.scenario = config.scenario(&self.scenario);
        match config.split(self.placement.split.link_bytes_per_s) {
            None => self.placement.mode = PlacementMode::Colocated,
            Some(split) => {
                self.placement.mode = PlacementMode::Disaggregated;
                self.placement.split = split;
            }
        }
    }
}
