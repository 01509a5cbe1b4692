//! The modules of `src/` import one another without circles: each file is a node, each path it
//! names into another file (a `use` or a path in code or in a macro's arguments, resolved from
//! `crate`, `super` or `self`) an edge, and no strongly connected component has two files (docs/architecture.md invariant 6).

use crate::common::rust_files;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::architecture::{module_of, paths_named};

pub(crate) type Module = Vec<String>;

/// Each file's module and the other files' modules it names (by the longest module prefix).
pub(crate) fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.retain(|f| !f.starts_with(root.join("bin")));
    let sources: Vec<(Module, String)> = files
        .iter()
        .map(|f| {
            (module_of(f.strip_prefix(&root).expect("under src")), fs::read_to_string(f).expect("readable"))
        })
        .collect();
    let modules: BTreeSet<Module> = sources.iter().map(|(m, _)| m.clone()).collect();
    let owner =
        |path: &Module| (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|m| modules.contains(m));
    sources
        .into_iter()
        .map(|(module, source)| {
            // The architecture test's reader: every path the file names (macros' included), made absolute.
            let named = paths_named(&module, &source);
            let edges = named.iter().filter_map(owner).filter(|m| *m != module).collect();
            (module, edges)
        })
        .collect()
}

/// The strongly connected components with more than one module (Tarjan's algorithm).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, (usize, usize)>,
        stack: Vec<&'g Module>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(walk: &mut Walk<'g>, v: &'g Module) {
        let at = walk.index.len();
        walk.index.insert(v, (at, at));
        walk.stack.push(v);
        for w in walk.graph.get(v).into_iter().flatten() {
            let w = walk.graph.get_key_value(w).map_or(w, |(k, _)| k);
            if !walk.index.contains_key(w) {
                visit(walk, w);
                let low = walk.index[w].1.min(walk.index[v].1);
                walk.index.get_mut(v).expect("visited").1 = low;
            } else if walk.stack.contains(&w) {
                let low = walk.index[w].0.min(walk.index[v].1);
                walk.index.get_mut(v).expect("visited").1 = low;
            }
        }
        if walk.index[v].0 == walk.index[v].1 {
            let start = walk.stack.iter().position(|m| *m == v).expect("on the stack");
            let component: Vec<String> = walk.stack.drain(start..).map(|m| m.join("::")).collect();
            if component.len() > 1 {
                walk.found.push(component);
            }
        }
    }
    let mut walk = Walk { graph, index: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

#[test]
fn no_module_is_in_an_import_circle() {
    let found = circles(&graph());
    assert!(found.is_empty(), "import circles: {found:?}");
}

#[test]
fn the_circle_finder_finds_a_circle_of_two() {
    let a: Module = vec!["a".into()];
    let b: Module = vec!["b".into()];
    let graph = BTreeMap::from([(a.clone(), BTreeSet::from([b.clone()])), (b, BTreeSet::from([a]))]);
    assert_eq!(circles(&graph).len(), 1);
}
