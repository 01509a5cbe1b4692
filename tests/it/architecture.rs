//! The architecture's invariants: `src/core/` is the `goodput-core` crate, whose manifest names serde
//! alone (so the compiler keeps it pure Rust on std: no web or drawing crate, none of the page's own
//! layers); and no function in `src/` is longer than 70 lines. The path reader here serves the layer
//! test (`layers.rs`) and the import-circle test (`module_graph.rs`); it reads paths inside macro
//! invocations too (`format!`, `view!`, ...), whose arguments syn leaves as tokens.

use crate::common::rust_files;
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

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

/// Every dependency a Cargo manifest names, as "table: name" (`[dependencies]`, `[dev-dependencies]`,
/// `[target.'cfg(..)'.dependencies]` and the like, inline or as `[dependencies.name]`).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut table: Option<String> = None;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let header = header.trim_matches(|c| c == '[' || c == ']');
            table = None;
            match header.rsplit_once("dependencies.") {
                Some((prefix, name))
                    if prefix.is_empty() || prefix.ends_with('.') || prefix.ends_with('-') =>
                {
                    found.push(format!("{header}: {name}"))
                }
                _ if header.ends_with("dependencies") => table = Some(header.to_string()),
                _ => {}
            }
        } else if let (Some(t), Some((key, _))) = (&table, line.split_once('=')) {
            if !line.starts_with('#') {
                found.push(format!("{t}: {}", key.trim()));
            }
        }
    }
    found
}

/// The core's manifest, from the repository's top.
const CORE_MANIFEST: &str = "src/core/Cargo.toml";

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

/// Invariant 1 is the compiler's: the core is a crate of its own whose only dependency is serde, so a
/// `use leptos::..` or a `crate::state::..` in it does not build. This holds the manifest to that.
#[test]
fn the_core_crate_depends_on_serde_alone() {
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(CORE_MANIFEST))
        .expect("the core's manifest reads");
    assert_eq!(dependencies(&manifest), ["dependencies: serde"], "{CORE_MANIFEST}");
    let lib =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).expect("src/lib.rs");
    assert!(lib.contains("pub use goodput_core as core;"), "the page's crate re-exports the core as `core`");
}

#[test]
fn the_manifest_check_finds_every_kind_of_dependency_table() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n# leptos = \"0.8\"\n\n\
        [target.'cfg(target_arch = \"wasm32\")'.dependencies]\nweb-sys = \"0.3\"\n\n\
        [dev-dependencies]\nproptest = \"1\"\n\n[dependencies.plotters]\nversion = \"0.3\"\n\n[features]\nui = []\n";
    assert_eq!(
        dependencies(manifest),
        [
            "dependencies: serde",
            "target.'cfg(target_arch = \"wasm32\")'.dependencies: web-sys",
            "dev-dependencies: proptest",
            "dependencies.plotters: plotters",
        ]
    );
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
