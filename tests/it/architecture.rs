//! The architecture's invariants: `src/core/` is the `goodput-core` crate, whose manifest names serde
//! alone (so the compiler keeps it pure Rust on std: no web or drawing crate, none of the page's own
//! layers); and no function in `src/` is longer than 70 lines. The path reader the layer tests use is
//! the import-circle test's (`module_graph.rs`).

use crate::common::rust_files;
use std::fs;
use std::path::{Path, PathBuf};

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
