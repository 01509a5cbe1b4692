//! The core's inner order, enforced (docs/architecture.md, invariant 6): each module of `src/core/`
//! names only core modules at or below its rank. Bottom first: the preset tables, the URL ids and
//! the units; the arithmetic on one model or GPU and the cost model's types; the `Scenario`; the terms
//! a scenario's steps pay with the measured profile they read; the step; prefill; one batch against
//! both targets; then everything that reads them. A module no entry places fails, so a new module of
//! the core is given its place here.
//!
//! An entry `a::b` places the module `core::a::b` and every module under it; `a::*` places every
//! module under `core::a` but not `core::a` itself; of the entries that match, the longest wins
//! (`a::b` over `a::*` over `a`). The core's root (`src/core/lib.rs`) declares every module and is not
//! ranked. The graph is the import-circle test's (`module_graph.rs`): a path named through a parent's
//! re-export (`crate::roofline::analyze`) counts as naming the parent.

use std::collections::{BTreeMap, BTreeSet};

use crate::layers::graph_of;
use crate::module_graph::{graph, Module};

/// The core's ranks, bottom first; a module may name modules of its own rank or below.
const CORE_LAYERS: [&[&str]; 8] = [
    &["presets", "url_id", "units"],
    &["model", "precision", "spec", "prefix", "parallel", "calibration"],
    &["scenario"],
    &[
        "calibration::terms",
        "calibration::profile",
        "calibration::transfer",
        "calibration::coverage",
        "calibration::bounds",
        "calibration::published",
        "calibration::wide_ep::link",
        "calibration::wide_ep::profile",
    ],
    &["roofline", "roofline::step", "roofline::pool"],
    &["prefill"],
    &["goodput"],
    &[
        "roofline::knee",
        "roofline::analysis",
        "roofline::speculative",
        "calibration::*",
        "capacity",
        "curves",
        "derivation",
        "energy",
        "fit",
        "measured_runs",
        "nearest",
        "placement",
        "plan",
        "search",
        "sim",
        "table",
        "traffic",
    ],
];

/// The rank of a core module (its path below `core`), by the longest entry that places it.
fn core_rank(inside: &[String]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None; // (specificity, rank)
    for (rank, entries) in CORE_LAYERS.iter().enumerate() {
        for entry in entries.iter() {
            let (prefix, under) = match entry.strip_suffix("::*") {
                Some(prefix) => (prefix, true),
                None => (*entry, false),
            };
            let prefix: Vec<&str> = prefix.split("::").collect();
            let matches = inside.len() >= prefix.len() + usize::from(under)
                && inside.iter().zip(&prefix).all(|(m, p)| m == p);
            let specificity = 2 * prefix.len() + usize::from(under);
            if matches && best.is_none_or(|(s, _)| specificity > s) {
                best = Some((specificity, rank));
            }
        }
    }
    best.map(|(_, rank)| rank)
}

/// Every arrow between core modules that points to a higher rank, and every core module no entry
/// places.
fn core_arrows_up(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let inside = |m: &Module| (m.len() > 1 && m[0] == "core").then(|| m[1..].to_vec());
    let mut found = Vec::new();
    for (from, targets) in graph {
        let Some(from_inside) = inside(from) else { continue };
        let Some(from_rank) = core_rank(&from_inside) else {
            found.push(format!("{} is in no rank", from.join("::")));
            continue;
        };
        for to in targets {
            let to_rank = inside(to).and_then(|t| core_rank(&t));
            if to_rank.is_some_and(|rank| rank > from_rank) {
                found.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    found
}

#[test]
fn every_arrow_inside_the_core_points_to_its_rank_or_below() {
    let graph = graph();
    let core_modules = graph.keys().filter(|m| m.first().is_some_and(|f| f == "core")).count();
    assert!(core_modules > 100, "the core's files are read: {core_modules}");
    let found = core_arrows_up(&graph);
    assert!(found.is_empty(), "arrows against the core's inner order:\n{}", found.join("\n"));
}

#[test]
fn the_core_order_check_flags_arrows_up_and_unplaced_modules_and_passes_arrows_down() {
    let down = graph_of(&[
        ("core::roofline", "core::scenario"),
        ("core::calibration::terms", "core::calibration::profile"),
        ("core::roofline::step::split", "core::roofline"),
        ("core::sim::stepper", "core::placement"),
        ("core::goodput", "core::prefill"),
    ]);
    assert!(core_arrows_up(&down).is_empty(), "{:?}", core_arrows_up(&down));
    let up = graph_of(&[
        ("core::scenario", "core::roofline"),
        ("core::calibration", "core::calibration::fit"),
        ("core::roofline", "core::roofline::knee"),
        ("core::prefill", "core::goodput"),
    ]);
    assert_eq!(core_arrows_up(&up).len(), 4, "{:?}", core_arrows_up(&up));
    let stray = graph_of(&[("core::newthing", "core::units")]);
    assert_eq!(core_arrows_up(&stray), ["core::newthing is in no rank"]);
}
