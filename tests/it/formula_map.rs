//! docs/architecture.md's "Formulas" table names only functions, types and methods that exist: each
//! backticked name in its Function column is resolved to a module file of `src/` and found there,
//! parsed with syn, so the map of formulas cannot drift from the code without this failing.
//!
//! How a name is read:
//!
//! - A full path starts at a top-level module (`core::`, `view::`, `state::`, `protocol::`,
//!   `chart::`). Its longest prefix that is a module file (`src/core/roofline/knee.rs` for
//!   `core::roofline::knee::knee_batch`) is its module; the rest is an item there, or `Type::method`.
//! - A short name is read in the module of the last full path before it in the same cell
//!   (`knee_exact`, `Profile::layer_s`, `colocated::chunked_at`); one before any full path is an error.
//! - An item is found as a `fn`, `struct`, `enum`, `union`, `trait`, `type`, `const` or `static` of
//!   its module's file, or through a `pub use` there (followed, globs included). A method is a `fn`
//!   or `const` in an `impl` of the type, in the file that defines the type or in any file under it.

use std::fs;
use std::path::{Path, PathBuf};

/// The crate's top-level modules a full path may start from.
const TOP_MODULES: [&str; 5] = ["core", "view", "state", "protocol", "chart"];
/// How many `pub use` hops a name may take to its definition.
const MAX_HOPS: usize = 8;

/// The file of module `module` under `src`, if it has one (`foo.rs`, or `foo/mod.rs`).
fn module_file(src: &Path, module: &[String]) -> Option<PathBuf> {
    let joined = module.join("/");
    [src.join(format!("{joined}.rs")), src.join(&joined).join("mod.rs")].into_iter().find(|f| f.is_file())
}

fn parse(file: &Path) -> syn::File {
    let source = fs::read_to_string(file).expect("readable module file");
    syn::parse_file(&source).unwrap_or_else(|e| panic!("{} parses: {e}", file.display()))
}

/// The name an item defines, for the kinds the table may name.
fn defined_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Const(i) => &i.ident,
        syn::Item::Static(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Each name a `use` tree brings in (its alias, `*` for a glob) with the path it stands for.
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    let mut leaf = |alias: String, last: String| {
        let mut path = prefix.clone();
        path.push(last);
        out.push((alias, path));
    };
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => leaf(n.ident.to_string(), n.ident.to_string()),
        syn::UseTree::Rename(r) => leaf(r.rename.to_string(), r.ident.to_string()),
        syn::UseTree::Glob(_) => leaf("*".to_string(), "*".to_string()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_leaves(t, prefix, out)),
    }
}

/// `path` of a `use` in `module` made absolute: from `crate`, `self`, `super`, or a child module.
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    let mut at = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        at.pop();
        rest = &rest[1..];
    }
    at.extend(rest.iter().cloned());
    at
}

/// What a name was found to be: a function (a method counts) or another item.
#[derive(Debug, PartialEq)]
enum Found {
    Function,
    Other,
}

/// Where `name` in `module` is defined: (the defining module, what it is), following `pub use`.
fn item(src: &Path, module: &[String], name: &str, hops: usize) -> Option<(Vec<String>, Found)> {
    let syntax = parse(&module_file(src, module)?);
    for it in &syntax.items {
        if defined_name(it).as_deref() == Some(name) {
            let kind = if matches!(it, syn::Item::Fn(_)) { Found::Function } else { Found::Other };
            return Some((module.to_vec(), kind));
        }
    }
    if hops == 0 {
        return None;
    }
    let mut leaves = Vec::new();
    for it in &syntax.items {
        if let syn::Item::Use(u) = it {
            if matches!(u.vis, syn::Visibility::Public(_)) {
                use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
            }
        }
    }
    leaves.into_iter().find_map(|(alias, path)| {
        let target = absolute(module, &path);
        let (last, target_module) = target.split_last()?;
        match alias.as_str() {
            "*" => item(src, target_module, name, hops - 1),
            _ if alias == name => item(src, target_module, last, hops - 1),
            _ => None,
        }
    })
}

/// Every `.rs` file of `module`: its own file and every file under its folder.
fn module_tree(src: &Path, module: &[String]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = module_file(src, module).into_iter().collect();
    let folder = src.join(module.join("/"));
    if folder.is_dir() {
        crate::common::rust_files(&folder, &mut files);
    }
    files
}

/// Whether a `fn` or `const` `method` sits in an `impl` of `type_name` in any of `files`.
fn has_method(files: &[PathBuf], type_name: &str, method: &str) -> bool {
    files.iter().any(|file| {
        parse(file).items.iter().any(|it| {
            let syn::Item::Impl(imp) = it else { return false };
            let syn::Type::Path(ty) = &*imp.self_ty else { return false };
            ty.path.segments.last().is_some_and(|s| s.ident == type_name)
                && imp.items.iter().any(|member| match member {
                    syn::ImplItem::Fn(f) => f.sig.ident == method,
                    syn::ImplItem::Const(c) => c.ident == method,
                    _ => false,
                })
        })
    })
}

/// Resolves `path` (absolute, from the crate root): its module and what it names, or `None`.
fn resolve(src: &Path, path: &[String]) -> Option<(Vec<String>, Found)> {
    let split = (1..path.len()).rev().find(|&n| module_file(src, &path[..n]).is_some())?;
    let (module, rest) = path.split_at(split);
    match rest {
        [name] => item(src, module, name, MAX_HOPS).map(|(_, kind)| (module.to_vec(), kind)),
        [type_name, method] => {
            let (defining, _) = item(src, module, type_name, MAX_HOPS)?;
            has_method(&module_tree(src, &defining), type_name, method)
                .then(|| (module.to_vec(), Found::Function))
        }
        _ => None,
    }
}

/// The Function column of each row of the table under `## Formulas` in `doc`.
fn function_cells(doc: &str) -> Vec<String> {
    let section = doc.split("\n## Formulas\n").nth(1).unwrap_or("");
    let section = section.split("\n## ").next().unwrap_or("");
    let rows = section.lines().filter(|l| l.starts_with('|')).skip(2);
    // Cells split on `|`, not on the formula column's escaped `\|`.
    rows.map(|row| row.replace("\\|", "/").trim_end_matches('|').rsplit('|').next().unwrap_or("").to_string())
        .collect()
}

/// Each name in the cells and what it resolved to, or why it did not, as (name, Ok(kind) | Err).
fn check_cells(src: &Path, cells: &[String]) -> Vec<(String, Result<Found, String>)> {
    let mut out = Vec::new();
    for cell in cells {
        let mut base: Option<Vec<String>> = None;
        for span in cell.split('`').skip(1).step_by(2) {
            let segments: Vec<String> = span.split("::").map(str::to_string).collect();
            let is_path =
                segments.iter().all(|s| !s.is_empty() && s.chars().all(|c| c == '_' || c.is_alphanumeric()));
            let full = TOP_MODULES.contains(&segments[0].as_str()) && segments.len() > 1;
            let absolute = match (&base, full) {
                _ if !is_path => Err("not a Rust path".to_string()),
                (_, true) => Ok(segments),
                (Some(module), false) => Ok(module.iter().cloned().chain(segments).collect()),
                (None, false) => Err("a short name before any full path in its cell".to_string()),
            };
            let result = absolute.and_then(|path| match resolve(src, &path) {
                Some((module, kind)) => {
                    if full {
                        base = Some(module);
                    }
                    Ok(kind)
                }
                None => Err(format!("{} not found in src/", path.join("::"))),
            });
            out.push((span.to_string(), result));
        }
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_name_the_formulas_table_gives_is_found_in_src() {
    let doc = fs::read_to_string(src().join("../docs/architecture.md")).expect("docs/architecture.md");
    let cells = function_cells(&doc);
    assert!(cells.len() >= 25, "the Formulas table has {} rows", cells.len());
    let checked = check_cells(&src(), &cells);
    let missing: Vec<String> =
        checked.iter().filter_map(|(name, r)| r.as_ref().err().map(|e| format!("`{name}`: {e}"))).collect();
    assert!(missing.is_empty(), "the Formulas table names what src/ does not hold:\n{}", missing.join("\n"));
    let functions = checked.iter().filter(|(_, r)| r.as_ref().ok() == Some(&Found::Function)).count();
    assert!(functions >= 25, "the table names {functions} functions");
}

#[test]
fn a_made_up_name_a_wrong_module_and_an_orphan_short_name_are_reported() {
    let table = "intro\n\n## Formulas\n\n| Quantity | Formula | Function |\n|---|---|---|\n\
                 | Knee | a \\| b | `core::roofline::knee::knee_batch`, `knee_exact`, `knee_made_up` |\n\
                 | Step | s | `core::roofline::StepRoofline::terms`, `StepRoofline::no_such_method` |\n\
                 | Pool | p | `core::prefill::kv_pool_batch`, `core::roofline::pool::kv_pool_batch` |\n\
                 | Orphan | o | `percent`, `view::format::percent`, `src/view/format.rs` |\n\n## Next\n";
    let checked = check_cells(&src(), &function_cells(table));
    let errors: Vec<(&str, &str)> =
        checked.iter().filter_map(|(n, r)| r.as_ref().err().map(|e| (n.as_str(), e.as_str()))).collect();
    assert_eq!(
        errors,
        [
            ("knee_made_up", "core::roofline::knee::knee_made_up not found in src/"),
            (
                "StepRoofline::no_such_method",
                "core::roofline::StepRoofline::no_such_method not found in src/"
            ),
            ("core::prefill::kv_pool_batch", "core::prefill::kv_pool_batch not found in src/"),
            ("percent", "a short name before any full path in its cell"),
            ("src/view/format.rs", "not a Rust path"),
        ]
    );
    let found: Vec<&str> = checked.iter().filter(|(_, r)| r.is_ok()).map(|(n, _)| n.as_str()).collect();
    let expected = ["core::roofline::knee::knee_batch", "knee_exact", "core::roofline::StepRoofline::terms"];
    assert_eq!(
        found,
        [&expected[..], &["core::roofline::pool::kv_pool_batch", "view::format::percent"]].concat()
    );
}
