//! The configuration search's keys: `search` (the panel is open), `ssort` (the table's order),
//! the filters `sgpu`, `sw`, `skv`, `splace`, and `prices` (each GPU preset's $/GPU-hour where it
//! differs from its sourced default, `h100-sxm:2.1,b200:4`), validated with a notice for each bad
//! value. Filters and order only choose what the table and chart show; they never change a row.

use serde::{Deserialize, Serialize};

use super::fields::{quoted, NumberField};
use super::read::{self, UrlId};
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
    /// Fewest joules per output token first.
    EnergyPerToken,
}

impl UrlId for SortKey {
    const VARIANTS: &'static [SortKey] = &[
        SortKey::GoodputPerGpu,
        SortKey::UsdPerMillionTokens,
        SortKey::GpusForLoad,
        SortKey::TokensPerUser,
        SortKey::EnergyPerToken,
    ];

    fn url_id(self) -> &'static str {
        match self {
            SortKey::GoodputPerGpu => "goodput",
            SortKey::UsdPerMillionTokens => "cost",
            SortKey::GpusForLoad => "gpus",
            SortKey::TokensPerUser => "user",
            SortKey::EnergyPerToken => "energy",
        }
    }
}

/// `ssort=` values with the menu's names, in [`UrlId`] order (tests/it/url_flags.rs holds them equal).
pub const SORTS: [(&str, SortKey, &str); 5] = [
    ("goodput", SortKey::GoodputPerGpu, "Goodput per GPU"),
    ("cost", SortKey::UsdPerMillionTokens, "$ per million tokens"),
    ("gpus", SortKey::GpusForLoad, "GPUs for the load"),
    ("user", SortKey::TokensPerUser, "Tokens/s per user"),
    ("energy", SortKey::EnergyPerToken, "Energy (J/token)"),
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
    let open = read::flag(raw, "search", notices);
    let sort = read::choice(raw, "ssort", SortKey::default(), notices);
    let gpus: Vec<(&str, u8)> = GPUS.iter().enumerate().map(|(i, gpu)| (gpu.id, i as u8)).collect();
    let filter = |key, choices: &[(&str, Precision)], notices: &mut Vec<Notice>| {
        read::choice_or_all(raw, key, choices, "a precision", notices)
    };
    let filters = Filters {
        gpu_index: read::choice_or_all(raw, "sgpu", &gpus, "a GPU preset id", notices),
        weight_precision: filter("sw", &read::url_ids(&Precision::WEIGHTS), notices),
        kv_precision: filter("skv", &read::url_ids(&Precision::KV), notices),
        placement: read::choice_or_all(
            raw,
            "splace",
            &read::url_ids(PlacementMode::VARIANTS),
            "a placement",
            notices,
        ),
    };
    SearchInputs { open, sort, filters, usd_per_gpu_hour: read_prices(raw.get("prices"), notices) }
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
            pairs.push(("search", read::flag_word(true).to_string()));
        }
        if self.sort != SortKey::default() {
            pairs.push(("ssort", self.sort.url_id().to_string()));
        }
        let f = self.filters;
        if let Some(i) = f.gpu_index {
            pairs.push(("sgpu", GPUS[usize::from(i).min(GPUS.len() - 1)].id.to_string()));
        }
        pairs.extend(f.weight_precision.map(|p| ("sw", p.id().to_string())));
        pairs.extend(f.kv_precision.map(|p| ("skv", p.id().to_string())));
        pairs.extend(f.placement.map(|p| ("splace", p.url_id().to_string())));
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

/// The `splace` id of a placement: [`UrlId::url_id`].
pub fn place_id(mode: PlacementMode) -> &'static str {
    mode.url_id()
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
            energy: self.energy,
        }
    }
}

impl super::Inputs {
    /// Loads a search row's configuration: its GPU preset, precisions, parallelism (TP x EP x DP x
    /// PP; a disaggregated configuration's decode side) and the nodes that hold it, as
    /// [`Config::scenario`], and its placement (colocated keeps the split the page had;
    /// disaggregated sets x, TP_p, y, TP_d on the page's link, its decode instances taking the
    /// page's parallelism: [`crate::core::placement::decode_parallel`]).
    pub fn load_config(&mut self, config: &Config) {
        self.scenario = config.scenario(&self.scenario);
        match config.split(self.placement.split.link_bytes_per_s) {
            None => self.placement.choose(PlacementMode::Colocated),
            Some(split) => {
                self.placement.choose(PlacementMode::Disaggregated);
                self.placement.split = split;
            }
        }
    }
}
