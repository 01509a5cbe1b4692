//! The query string, both ways: its keys, a query split into raw values, and validated inputs (with the
//! view) written back as the canonical query.

use super::custom::{write_fields, GPU_FIELDS, MODEL_FIELDS};
use super::fields::{OUT, PRICE, PROMPT, RATE, TPOT, TTFT, UTIL};
use super::{lessons, prefix, spec, validate, view, Inputs, Notice};
use crate::core::presets::{CustomGpu, CustomModel, CUSTOM_ID};
use crate::core::url_id::UrlId;
use std::collections::BTreeMap;

/// Every query key the page reads, in canonical order.
pub const KEYS: [&str; 97] = [
    "model",
    "m_params",
    "m_active",
    "m_layers",
    "m_hidden",
    "m_heads",
    "m_kv_heads",
    "m_head_dim",
    "m_experts",
    "m_top_k",
    "m_window",
    "m_swa_layers",
    "m_max_ctx",
    "gpu",
    "g_hbm",
    "g_bw",
    "g_bf16",
    "g_fp8",
    "g_fp4",
    "g_link",
    "w",
    "kv",
    "tp",
    "ep",
    "dp",
    "pp",
    "nodes",
    "nic",
    "imb",
    "tbo",
    "in",
    "ctx",
    "out",
    "tpot",
    "ttft",
    "util",
    "prefix",
    "hit",
    "calib",
    "engine",
    "mbu",
    "overhead",
    "spec",
    "draft",
    "headcost",
    "k",
    "accept",
    "rate",
    "price",
    "kwh",
    "pue",
    "hostw",
    "realistic",
    "sim",
    "load",
    "count",
    "arrivals",
    "burst",
    "lengths",
    "spread",
    "requests",
    "seed",
    "seeds",
    "chunk",
    "cap",
    "prefill",
    "pct",
    "attain",
    "rate_max",
    "points",
    "fleet",
    "replicas",
    "tier",
    "turns",
    "think",
    "newtok",
    "trace",
    "place",
    "xp",
    "tpp",
    "yd",
    "tpd",
    "xfer",
    "search",
    "ssort",
    "sgpu",
    "sw",
    "skv",
    "splace",
    "prices",
    "present",
    "embed",
    "view",
    "theme",
    "mark",
    "measured",
    "lesson",
];

/// The query string as typed: the last value of each known key, unparsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawQuery {
    pub values: BTreeMap<&'static str, String>,
}

impl RawQuery {
    /// The raw value under `key`, if the query had one.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }
}

/// Splits a query string (with or without its leading `?`) into its raw values; the last of a
/// repeated key wins and unknown keys are ignored.
pub fn parse_raw(query: &str) -> RawQuery {
    let query = query.strip_prefix('?').unwrap_or(query);
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let mut raw = RawQuery::default();
    for (key, value) in pairs {
        if let Some(known) = KEYS.iter().find(|k| **k == key) {
            raw.values.insert(known, value);
        }
    }
    raw
}

/// Parses and validates a whole query string.
pub fn from_query(query: &str) -> (Inputs, Vec<Notice>) {
    validate(&parse_raw(query))
}

/// Parses and validates a whole query string into the inputs and the view, with every notice.
/// With `lesson=N` the inputs start from that lesson's state ([`lessons::under_lesson`]).
pub fn from_page_query(query: &str) -> (Inputs, view::View, Vec<Notice>) {
    let raw = parse_raw(query);
    let (inputs, mut notices) = validate(&lessons::under_lesson(&raw));
    let lesson = lessons::read_number(&raw, &mut notices)
        .and_then(|number| lessons::lesson(number).map(|l| (number, l.panel)));
    let view = view::read(&raw, lesson, &mut notices);
    (inputs, view, notices)
}

/// The page's query string: the inputs' canonical query, then the view's keys that differ from
/// the default view (`lesson=` only while the inputs are still that lesson's state).
pub fn page_query(inputs: &Inputs, view: &view::View) -> String {
    let lesson = lessons::active(inputs, view);
    let mut pairs = query_pairs(inputs);
    // A lesson that opens the simulator reopens it from a link unless the link says it was closed.
    if lesson.is_some_and(|lesson| lesson.inputs().sim.open && !inputs.sim.open) {
        let after_inputs = pairs.iter().position(|(k, _)| *k == "price").map_or(pairs.len(), |i| i + 1);
        pairs.insert(after_inputs, ("sim", super::read::flag_word(false).to_string()));
    }
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    let view = view::View { lesson: lesson.map(|lesson| lesson.number), ..*view };
    let extra = serde_urlencoded::to_string(view.pairs()).unwrap_or_default();
    match (query.is_empty(), extra.is_empty()) {
        (_, true) => query,
        (true, false) => extra,
        (false, false) => format!("{query}&{extra}"),
    }
}

/// The canonical query string for these inputs (no leading `?`): every key that applies, in
/// [`KEYS`] order; custom fields only for a custom model or GPU, `mbu` and `overhead` only in
/// realistic mode.
pub fn to_query(inputs: &Inputs) -> String {
    serde_urlencoded::to_string(query_pairs(inputs)).unwrap_or_default()
}

/// [`to_query`]'s (key, value) pairs, in [`KEYS`] order.
fn query_pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let scenario = &inputs.scenario;
    let mut pairs: Vec<(&str, String)> = vec![("model", scenario.model.id.to_string())];
    if scenario.model.id == CUSTOM_ID {
        pairs.extend(write_fields(&MODEL_FIELDS, &CustomModel::from_spec(&scenario.model)));
    }
    pairs.push(("gpu", scenario.gpu.id.to_string()));
    if scenario.gpu.id == CUSTOM_ID {
        pairs.extend(write_fields(&GPU_FIELDS, &CustomGpu::from_spec(&scenario.gpu)));
    }
    pairs.extend([
        ("w", scenario.weight_precision.url_id().to_string()),
        ("kv", scenario.kv_precision.url_id().to_string()),
        ("tp", scenario.parallel.tp.to_string()),
    ]);
    pairs.extend(super::parallel::pairs(inputs));
    pairs.extend([
        ("in", PROMPT.write(f64::from(scenario.prompt_tokens()))),
        ("out", OUT.write(f64::from(scenario.output_tokens))),
        ("tpot", TPOT.write(scenario.tpot_target_s)),
        ("ttft", TTFT.write(scenario.ttft_target_s)),
        ("util", UTIL.write(scenario.memory_utilization)),
    ]);
    pairs.extend(prefix::pairs(inputs));
    pairs.extend(super::calibration::pairs(inputs));
    pairs.extend(spec::pairs(&scenario.speculation));
    pairs.push(("rate", RATE.write(inputs.rate_req_per_s)));
    // A preset GPU's price lives in the search's `prices`; `price` is a custom GPU's.
    if inputs.gpu_price_index().is_none() {
        pairs.push(("price", PRICE.write(inputs.price_per_gpu_hour)));
    }
    pairs.extend(super::energy::pairs(inputs));
    pairs.extend(inputs.sim.pairs());
    pairs.extend(super::trace::url::pairs(&inputs.trace));
    pairs.extend(inputs.placement.pairs());
    pairs.extend(inputs.search.pairs());
    pairs
}
