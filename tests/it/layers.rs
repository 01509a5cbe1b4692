//! The layer order, enforced: each layer names only the layers below it (docs/architecture.md,
//! "Layers"). Across `src/`: `core` < `state` < `protocol` < `view` < `chart` < `ui`. Inside
//! `src/ui`: `js_error` < `workers` (neither knows the page's state) < `context` (the one context) < `lazy` <
//! `canvas` < `widgets` < the features `controls`, `explore`, `panels`, `share` (beside each other:
//! none names another) < `shell` (the page's app and the lazy module's). A module of an unranked
//! folder fails the test, so a new folder is given its place here. Also: the lazy module's exports
//! the page calls are the ones `src/bin/goodput_lazy.rs` exports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::module_graph::{graph, Module};

/// The layers of `src/`, bottom first; names on one line share a rank and may not name each other.
const CRATE_LAYERS: [&[&str]; 6] = [
    &["core"],
    &["state", "calibration_data", "wide_ep_data"],
    &["protocol"],
    &["view"],
    &["chart"],
    &["ui", "worker_scope"],
];

/// The layers of `src/ui/`, bottom first, as [`CRATE_LAYERS`].
const UI_LAYERS: [&[&str]; 8] = [
    &["js_error"],
    &["workers"],
    &["context"],
    &["lazy"],
    &["canvas"],
    &["widgets"],
    &["controls", "explore", "panels", "share"],
    &["shell"],
];

/// A module's layer: its group (`state`, `ui::panels`) and rank; `None` for a folder no layer names.
fn layer_of(module: &Module) -> Option<(String, usize)> {
    let first = module.first()?.as_str();
    let rank_in = |layers: &[&[&str]], name: &str| layers.iter().position(|names| names.contains(&name));
    if first != "ui" || module.len() == 1 {
        return rank_in(&CRATE_LAYERS, first).map(|rank| (first.to_string(), rank * 100));
    }
    let folder = module[1].as_str();
    let ui_rank = rank_in(&CRATE_LAYERS, "ui").expect("ui is a layer") * 100;
    rank_in(&UI_LAYERS, folder).map(|rank| (format!("ui::{folder}"), ui_rank + 1 + rank))
}

/// Every arrow of `graph` that does not point down, and every module no layer places.
fn arrows_up(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in graph {
        if from.is_empty() {
            continue; // the crate root (src/lib.rs, src/main.rs) declares every module
        }
        let Some((from_group, from_rank)) = layer_of(from) else {
            found.push(format!("{} is in no layer", from.join("::")));
            continue;
        };
        for to in targets {
            let (to_group, to_rank) = layer_of(to).unwrap_or_default();
            let root_of_ui = from_group == "ui" && to_group.starts_with("ui::");
            if to_group != from_group && to_rank >= from_rank && !root_of_ui {
                found.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    found
}

#[test]
fn every_arrow_between_layers_points_down() {
    let graph = graph();
    assert!(graph.keys().any(|m| m.first().is_some_and(|f| f == "ui")), "the ui files are read");
    let found = arrows_up(&graph);
    assert!(found.is_empty(), "arrows against the layer order:\n{}", found.join("\n"));
}

/// A graph of `edges` (`a::b` -> `c::d`).
pub(crate) fn graph_of(edges: &[(&str, &str)]) -> BTreeMap<Module, BTreeSet<Module>> {
    let module = |m: &str| m.split("::").map(str::to_string).collect::<Module>();
    let mut graph: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, to) in edges {
        graph.entry(module(from)).or_default().insert(module(to));
        graph.entry(module(to)).or_default();
    }
    graph
}

#[test]
fn the_layer_check_flags_arrows_up_and_across_features_and_passes_arrows_down() {
    let down = graph_of(&[
        ("view::format", "core::units"),
        ("chart::rate", "view::format"),
        ("ui::panels::sim", "ui::context::page"),
        ("ui::shell::app", "ui::panels::sim"),
        ("ui::canvas::chart", "chart::batch"),
        ("ui", "ui::shell::app"),
    ]);
    assert!(arrows_up(&down).is_empty(), "{:?}", arrows_up(&down));
    let up = graph_of(&[
        ("view::batch_chart", "chart::batch"),
        ("protocol::panel", "chart::style"),
        ("ui::panels::sim", "ui::shell::app"),
        ("ui::controls::keys", "ui::explore::lessons"),
        ("ui::workers::pool", "ui::context::page"),
        ("state::open", "calibration_data"),
    ]);
    assert_eq!(arrows_up(&up).len(), 6, "{:?}", arrows_up(&up));
    let stray = graph_of(&[("ui::newfolder::x", "core::units")]);
    assert_eq!(arrows_up(&stray), ["ui::newfolder::x is in no layer"]);
}

/// The string literals passed to `call_lazy(` in `source`.
fn called_exports(source: &str) -> BTreeSet<String> {
    source
        .split("call_lazy(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

/// The names of the `#[wasm_bindgen]` functions in `source`.
fn wasm_exports(source: &str) -> BTreeSet<String> {
    let syntax = syn::parse_file(source).expect("the lazy bin parses");
    let bound = |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("wasm_bindgen"));
    syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Fn(f) if bound(&f.attrs) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_page_calls_exactly_the_exports_the_lazy_module_has() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let called = called_exports(&read("src/ui/lazy/exports.rs"));
    assert_eq!(called, BTreeSet::from(["chart_svg".into(), "mount_panel".into(), "table_csv".into()]));
    assert_eq!(wasm_exports(&read("src/bin/goodput_lazy.rs")), called);
    let mut files = Vec::new();
    crate::common::rust_files(&root.join("src"), &mut files);
    let callers: Vec<_> = files
        .iter()
        .filter(|f| !f.ends_with("src/ui/lazy/exports.rs"))
        .filter(|f| fs::read_to_string(f).is_ok_and(|s| s.contains("call_lazy(")))
        .collect();
    assert!(callers.is_empty(), "only src/ui/lazy/exports.rs calls the lazy module: {callers:?}");
}
