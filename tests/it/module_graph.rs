//! The modules of `src/` import one another without circles: each file is a node, each path it
//! names into another file (a `use` or a path in code or in a macro's arguments, resolved from
//! `crate`, `super` or `self`) an edge, and no strongly connected component has two files
//! (docs/architecture.md invariant 6). The path reader here ([`paths_named`]) serves the layer tests
//! too (`layers.rs`, `core_layers.rs`); it reads paths inside macro invocations (`format!`, `view!`,
//! ...), whose arguments syn leaves as tokens.

use crate::common::rust_files;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

pub(crate) type Module = Vec<String>;

/// The module path of a file under `src/` (`core/sim/stepper.rs` -> `core::sim::stepper`).
pub(crate) fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Collects, for one file, every path it names (in `use` trees and expressions or types), resolved
/// against the file's module so that `super::super::state` counts as `state`.
struct PathReader {
    module: Vec<String>,
    found: Vec<(usize, Vec<String>)>,
}

impl PathReader {
    /// `segments` made absolute from the crate root; `None` for a path that starts at another crate.
    fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut absolute = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                // The core is its own crate: its `crate::` is the page's `core::`.
                let in_core = absolute.first().is_some_and(|m| m == "core");
                absolute.clear();
                if in_core {
                    absolute.push("core".to_string());
                }
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    absolute.pop();
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        absolute.extend(rest.iter().cloned());
        Some(absolute)
    }

    fn record(&mut self, line: usize, segments: Vec<String>) {
        self.found.push((line, segments));
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, n.ident.to_string(), n.ident.span()),
            syn::UseTree::Rename(r) => self.leaf(prefix, r.ident.to_string(), r.ident.span()),
            syn::UseTree::Glob(g) => self.leaf(prefix, "*".to_string(), g.star_token.span()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|item| self.use_tree(prefix, item)),
        }
    }

    fn leaf(&mut self, prefix: &[String], name: String, span: proc_macro2::Span) {
        let mut segments = prefix.to_vec();
        segments.push(name);
        self.record(span.start().line, segments);
    }

    /// Every `crate ::`, `super ::` or `self ::` path in a macro's tokens (and in their groups, so a
    /// macro inside a macro is read too): syn keeps a macro's arguments as tokens, not expressions.
    fn macro_tokens(&mut self, stream: TokenStream) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(group) => self.macro_tokens(group.stream()),
                TokenTree::Ident(start)
                    if matches!(start.to_string().as_str(), "crate" | "super" | "self") =>
                {
                    let mut segments = vec![start.to_string()];
                    while let (true, Some(TokenTree::Ident(next))) =
                        (colons_at(&tokens, i + 1), tokens.get(i + 3))
                    {
                        segments.push(next.to_string());
                        i += 3;
                    }
                    if segments.len() > 1 {
                        self.record(start.span().start().line, segments);
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// Whether `tokens[at..]` opens with a `::`.
fn colons_at(tokens: &[TokenTree], at: usize) -> bool {
    let colon = |t: Option<&TokenTree>, joint: bool| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ':' && (!joint || p.spacing() == Spacing::Joint));
    colon(tokens.get(at), true) && colon(tokens.get(at + 1), false)
}

/// Every path `source`, the file of module `module`, names into its own crate, made absolute: in
/// `use` trees, expressions, types and macro invocations.
pub(crate) fn paths_named(module: &[String], source: &str) -> Vec<Vec<String>> {
    let syntax = syn::parse_file(source).expect("the source parses");
    let mut reader = PathReader { module: module.to_vec(), found: Vec::new() };
    reader.visit_file(&syntax);
    reader.found.iter().filter_map(|(_, segments)| reader.resolve(segments)).collect()
}

impl<'ast> Visit<'ast> for PathReader {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.record(path.span().start().line, segments);
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.macro_tokens(mac.tokens.clone());
    }

    fn visit_item_extern_crate(&mut self, item: &'ast syn::ItemExternCrate) {
        self.record(item.ident.span().start().line, vec![item.ident.to_string()]);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.module.pop();
    }
}

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

/// `names` as a module path (`"a::b"` -> `["a", "b"]`).
fn path(names: &str) -> Vec<String> {
    names.split("::").map(str::to_string).collect()
}

#[test]
fn the_path_reader_reads_paths_inside_macro_invocations() {
    let source = "fn notice() -> String {\n\
        format!(\"{} ms\", crate::view::format::thousands(1.0))\n}\n\
        fn page() { view! { <p>{super::super::ui::widgets::slider()}</p> }; assert!(self::inner::ok()); }\n\
        fn nested() { println!(\"{:?}\", vec![crate::core::units::BYTES_PER_GB]); }\n";
    let found = paths_named(&path("state::measured"), source);
    for expected in ["view::format::thousands", "ui::widgets::slider", "state::measured::inner::ok"] {
        assert!(found.contains(&path(expected)), "{expected} in {found:?}");
    }
    assert!(found.contains(&path("core::units::BYTES_PER_GB")), "a macro inside a macro: {found:?}");
    let plain = paths_named(&path("state::measured"), "fn f() { format!(\"{x}\", x = self.crate_name); }");
    assert!(plain.is_empty(), "a field after `self` is no path: {plain:?}");
}
