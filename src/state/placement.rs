//! The placement's keys: `place` (colocated or disaggregated), the split `xp`/`tpp` (prefill
//! instances and their TP), `yd`/`tpd` (decode instances and their TP) and `xfer` (the KV transfer's
//! bandwidth, `auto` for the GPU's interconnect), validated with a notice for each bad value.

use serde::{Deserialize, Serialize};

use super::fields::{InputField, NumberField};
use super::read::{self, UrlId};
use super::{Notice, RawQuery};
use crate::core::capacity::Placing;
use crate::core::placement::{PlacementMode, Split, INSTANCES_MAX};
use crate::core::presets::{CUSTOM_ID, GPUS};
use crate::core::search::GPU_COUNT;

/// The placement control's state: the mode, the split it keeps while colocated, and whether the
/// placement panel is open while colocated (`place=colo` in the URL; a disaggregated placement
/// opens it by itself, see [`super::open::is_open`], so `open` is false then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlacementInputs {
    pub mode: PlacementMode,
    pub split: Split,
    pub open: bool,
}

/// `place=` values, in [`UrlId`] order (tests/it/url_flags.rs holds them equal).
pub const MODES: [(&str, PlacementMode); 2] =
    [("colo", PlacementMode::Colocated), ("disagg", PlacementMode::Disaggregated)];

pub const PREFILL_INSTANCES: NumberField =
    NumberField::new("xp", "Prefill instances", "instances", (1.0, INSTANCES_MAX as f64)).whole();
pub const DECODE_INSTANCES: NumberField =
    NumberField::new("yd", "Decode instances", "instances", (1.0, INSTANCES_MAX as f64)).whole();
/// The KV transfer's bandwidth in GB/s (base unit B/s): a network link, e.g. 50 GB/s for 400 Gb/s.
pub const TRANSFER: NumberField =
    NumberField::new("xfer", "KV transfer bandwidth", "GB/s", (0.1, 10_000.0)).scaled(1e9);

/// [`PREFILL_INSTANCES`] in the inputs.
pub const PREFILL_INSTANCES_INPUT: InputField = PREFILL_INSTANCES.bound(
    |i| f64::from(i.placement.split.prefill_instances),
    |i, v| i.placement.split.prefill_instances = v as u32,
);
/// [`DECODE_INSTANCES`] in the inputs.
pub const DECODE_INSTANCES_INPUT: InputField = DECODE_INSTANCES.bound(
    |i| f64::from(i.placement.split.decode_instances),
    |i, v| i.placement.split.decode_instances = v as u32,
);

/// Validates the placement's keys.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> PlacementInputs {
    let defaults = Split::default();
    let mode = read::choice(raw, "place", PlacementMode::Colocated, notices);
    let instances = |field: &NumberField, default: u32, notices: &mut Vec<Notice>| {
        read::number(raw, field, f64::from(default), notices) as u32
    };
    let split = Split {
        prefill_instances: instances(&PREFILL_INSTANCES, defaults.prefill_instances, notices),
        prefill_tp: read::tp(raw, "tpp", notices),
        decode_instances: instances(&DECODE_INSTANCES, defaults.decode_instances, notices),
        decode_tp: read::tp(raw, "tpd", notices),
        // `xfer`: absent or `auto` is the GPU's interconnect.
        link_bytes_per_s: read::number_or_auto(raw, &TRANSFER, notices),
    };
    // A `place=` naming a placement opens the panel: the link asks to see it (a bad value does not).
    let named = raw.get("place").is_some_and(|text| {
        PlacementMode::VARIANTS.iter().any(|m| m.url_id().eq_ignore_ascii_case(text.trim()))
    });
    PlacementInputs { mode, split, open: named && mode == PlacementMode::Colocated }
}

impl PlacementInputs {
    /// `mode` chosen in the open panel (or loaded from a search row): the panel stays open.
    pub fn choose(&mut self, mode: PlacementMode) {
        self.mode = mode;
        self.open = mode == PlacementMode::Colocated;
    }

    /// Query pairs in canonical order: all of them while disaggregated (a link reproduces the split),
    /// only those off their defaults while colocated (`place=colo` while the panel is open).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let (s, d) = (self.split, Split::default());
        let disaggregated = self.mode == PlacementMode::Disaggregated;
        let all = [
            ("place", self.mode.url_id().to_string(), disaggregated || self.open),
            ("xp", s.prefill_instances.to_string(), s.prefill_instances != d.prefill_instances),
            ("tpp", s.prefill_tp.to_string(), s.prefill_tp != d.prefill_tp),
            ("yd", s.decode_instances.to_string(), s.decode_instances != d.decode_instances),
            ("tpd", s.decode_tp.to_string(), s.decode_tp != d.decode_tp),
            (
                "xfer",
                s.link_bytes_per_s.map_or("auto".into(), |b| TRANSFER.write(b)),
                s.link_bytes_per_s.is_some(),
            ),
        ];
        all.into_iter().filter(|(_, _, shown)| disaggregated || *shown).map(|(k, v, _)| (k, v)).collect()
    }
}

impl super::Inputs {
    /// Where the capacity plan puts prefill: the placement control's mode and split, the
    /// simulator's step budget, and the page's percentile ([`super::Inputs::percentile`]).
    pub fn placing(&self) -> Placing {
        Placing {
            mode: self.placement.mode,
            split: self.placement.split,
            chunk_tokens: self.sim.chunk_tokens,
            percentile: self.percentile(),
        }
    }

    /// The page's GPU in the search's price list, if it is a preset there.
    pub fn gpu_price_index(&self) -> Option<usize> {
        GPUS.iter()
            .take(GPU_COUNT)
            .position(|g| g.id == self.scenario.gpu.id && self.scenario.gpu.id != CUSTOM_ID)
    }

    /// The page's GPU's $ per GPU-hour: the search's sourced (and editable) price for a preset,
    /// the `price` key for a custom GPU.
    pub fn usd_per_gpu_hour(&self) -> f64 {
        self.gpu_price_index().map_or(self.price_per_gpu_hour, |i| self.search.usd_per_gpu_hour[i])
    }

    /// Sets the page's GPU's price: its entry in the search's price list, or the custom GPU's.
    pub fn set_usd_per_gpu_hour(&mut self, usd_per_gpu_hour: f64) {
        match self.gpu_price_index() {
            Some(i) => self.search.usd_per_gpu_hour[i] = usd_per_gpu_hour,
            None => self.price_per_gpu_hour = usd_per_gpu_hour,
        }
    }
}
