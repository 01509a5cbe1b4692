//! The architecture's invariants, read from the parsed source: `src/core/` is pure Rust on std
//! (serde derives allowed), names no web or drawing crate and none of the page's own layers
//! (`crate::state`, `crate::chart`, `crate::ui`), so it builds and tests natively; and no function in
//! `src/` is longer than 70 lines.

use crate::common::rust_files;
use std::fs;
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// Crates the core may not name.
const FORBIDDEN_CRATES: [&str; 6] = ["leptos", "web_sys", "wasm_bindgen", "js_sys", "plotters", "gloo"];
/// The only roots a core `use` may start from.
const ALLOWED_CRATES: [&str; 6] = ["std", "core", "alloc", "serde", "super", "crate"];
/// The page's layers above the core: the core may not reach up into them.
const FORBIDDEN_LAYERS: [&str; 3] = ["state", "chart", "ui"];
/// The longest function allowed, from its signature to its closing brace, in lines.
const MAX_FN_LINES: usize = 70;

/// Every `.rs` file under `src/<dir>` with its source.
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join(dir), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let source = fs::read_to_string(&file).expect("readable file");
            (file.strip_prefix(&root).expect("under src").to_path_buf(), source)
        })
        .collect()
}

/// The module path of a file under `src/` (`core/sim/engine.rs` -> `core::sim::engine`).
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
pub(crate) struct PathReader {
    pub(crate) module: Vec<String>,
    pub(crate) found: Vec<(usize, Vec<String>)>,
}

impl PathReader {
    /// `segments` made absolute from the crate root; `None` for a path that starts at another crate.
    pub(crate) fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        let mut absolute = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                absolute.clear();
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

    fn visit_item_extern_crate(&mut self, item: &'ast syn::ItemExternCrate) {
        self.record(item.ident.span().start().line, vec![item.ident.to_string()]);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.module.pop();
    }
}

/// Every forbidden name a core file uses: a web or drawing crate, a crate `use`d that is not
/// allowed, or a path into the page's layers (`crate::state`, `crate::chart`, `crate::ui`).
fn violations_in(file: &Path, source: &str) -> Vec<String> {
    let syntax = syn::parse_file(source).unwrap_or_else(|e| panic!("{} parses: {e}", file.display()));
    let mut reader = PathReader { module: module_of(file), found: Vec::new() };
    reader.visit_file(&syntax);
    let local_modules: Vec<String> = syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    let used_roots: Vec<String> = syntax
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Use(u) => Some(use_root(&u.tree)),
            _ => None,
        })
        .flatten()
        .collect();
    let mut found = Vec::new();
    for (line, segments) in &reader.found {
        let first = segments.first().map(String::as_str).unwrap_or("");
        if FORBIDDEN_CRATES.contains(&first) {
            found.push(format!("line {line}: names crate {first}"));
        }
        if let Some(layer) = reader.resolve(segments).and_then(|abs| abs.first().cloned()) {
            if FORBIDDEN_LAYERS.contains(&layer.as_str()) {
                found.push(format!("line {line}: reaches crate::{layer} ({})", segments.join("::")));
            }
        }
    }
    for root in used_roots {
        let allowed =
            ALLOWED_CRATES.contains(&root.as_str()) || root == "self" || local_modules.contains(&root);
        if !allowed {
            found.push(format!("uses crate {root}"));
        }
    }
    found
}

/// The first segments of a `use` tree (several for a leading group).
fn use_root(tree: &syn::UseTree) -> Vec<String> {
    match tree {
        syn::UseTree::Path(p) => vec![p.ident.to_string()],
        syn::UseTree::Name(n) => vec![n.ident.to_string()],
        syn::UseTree::Rename(r) => vec![r.ident.to_string()],
        syn::UseTree::Glob(_) => Vec::new(),
        syn::UseTree::Group(g) => g.items.iter().flat_map(use_root).collect(),
    }
}

/// [`violations_in`] for a snippet read as a file of the core (module `core::example`).
fn violations(source: &str) -> Vec<String> {
    violations_in(Path::new("core/example.rs"), source)
}

/// Measures every function: free functions, methods in impls and traits, and functions nested
/// inside other functions, each from its signature to its closing brace.
struct FnLengths {
    found: Vec<(String, usize, usize)>,
}

impl FnLengths {
    fn measure(&mut self, name: &syn::Ident, sig: &syn::Signature, block: &syn::Block) {
        let start = sig.span().start().line;
        let end = block.brace_token.span.close().end().line;
        self.found.push((name.to_string(), start, end + 1 - start));
    }
}

impl<'ast> Visit<'ast> for FnLengths {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.measure(&item.sig.ident, &item.sig, &item.block);
        visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.measure(&item.sig.ident, &item.sig, &item.block);
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            self.measure(&item.sig.ident, &item.sig, block);
        }
        visit::visit_trait_item_fn(self, item);
    }
}

/// Every function in `source` longer than [`MAX_FN_LINES`], as "name (line L): N lines".
fn long_functions(source: &str) -> Vec<String> {
    let syntax = syn::parse_file(source).expect("the source parses");
    let mut lengths = FnLengths { found: Vec::new() };
    lengths.visit_file(&syntax);
    lengths
        .found
        .into_iter()
        .filter(|(_, _, lines)| *lines > MAX_FN_LINES)
        .map(|(name, line, lines)| format!("{name} (line {line}): {lines} lines"))
        .collect()
}

/// A function named `name` whose signature and braces span exactly `lines` lines.
fn function_of(name: &str, lines: usize) -> String {
    let body: String = (0..lines - 2).map(|i| format!("    let x{i} = {i};\n")).collect();
    format!("pub fn {name}() {{\n{body}}}\n")
}

#[test]
fn core_names_no_web_or_drawing_crate_and_no_layer_above_it() {
    let files = sources("core");
    assert!(files.len() >= 5, "found the core's files: {}", files.len());
    let mut all = Vec::new();
    for (file, source) in files {
        all.extend(violations_in(&file, &source).into_iter().map(|v| format!("{}: {v}", file.display())));
    }
    assert!(all.is_empty(), "src/core must stay pure:\n{}", all.join("\n"));
}

#[test]
fn the_purity_check_catches_web_crates() {
    assert_eq!(violations("use leptos::prelude::*;").len(), 2);
    assert_eq!(violations("fn f() { let c = web_sys::window(); }").len(), 1);
    assert_eq!(violations("use plotters_canvas::CanvasBackend;").len(), 1);
    assert_eq!(violations("extern crate js_sys;").len(), 1);
    assert!(violations("use serde::Serialize;\nuse super::goodput::evaluate;").is_empty());
    assert!(violations("mod gpus;\npub use gpus::GPUS;").is_empty(), "a module's own children are allowed");
    assert_eq!(violations("pub use rand::Rng;").len(), 1);
}

#[test]
fn the_purity_check_catches_the_core_reaching_into_state_chart_or_ui() {
    assert_eq!(violations("use crate::state::Inputs;").len(), 1);
    assert_eq!(violations("use crate::{core::scenario::Scenario, chart::ChartStyle};").len(), 1);
    assert_eq!(violations("fn f() { crate::ui::app::App(); }").len(), 1);
    assert_eq!(violations("fn f(i: &crate::state::Inputs) {}").len(), 1);
    assert_eq!(violations("use super::super::state::fields::CTX;").len(), 1);
    let nested =
        violations_in(Path::new("core/sim/engine/step.rs"), "use super::super::super::super::ui::App;");
    assert_eq!(nested.len(), 1, "{nested:?}");
    assert!(violations("use crate::core::scenario::Scenario;\nuse super::model::params_read;").is_empty());
    assert!(violations_in(Path::new("core/sim/mod.rs"), "use super::super::core::units;").is_empty());
}

#[test]
fn no_function_in_src_exceeds_70_lines() {
    let mut all = Vec::new();
    for (file, source) in sources("") {
        all.extend(long_functions(&source).into_iter().map(|f| format!("{}: {f}", file.display())));
    }
    assert!(all.is_empty(), "functions over {MAX_FN_LINES} lines:\n{}", all.join("\n"));
}

#[test]
fn the_length_check_flags_a_71_line_function_and_passes_a_70_line_one() {
    assert_eq!(long_functions(&function_of("long", 71)), ["long (line 1): 71 lines"]);
    assert!(long_functions(&function_of("fits", 70)).is_empty());
    let method = format!("struct S;\nimpl S {{\n{}}}\n", function_of("method", 71));
    assert_eq!(long_functions(&method), ["method (line 3): 71 lines"]);
    let nested = format!("fn outer() {{\n{}}}\n", function_of("inner", 71));
    assert_eq!(long_functions(&nested), ["outer (line 1): 73 lines", "inner (line 2): 71 lines"]);
    let documented = format!("/// Docs.\n#[inline]\n{}", function_of("attributed", 70));
    assert!(long_functions(&documented).is_empty(), "docs and attributes are not counted");
}
