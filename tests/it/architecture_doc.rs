//! docs/architecture.md names only paths that exist: every backticked path under `src/`, `tests/`,
//! `docs/`, `bench/`, `tools/` or `public/` is a file or folder of the repository, so the map cannot drift
//! from the tree without this failing. And the map covers the core: every `.rs` file under `src/core/`
//! is named in it (see [`unnamed_core_files`] for the rule).

use std::fs;
use std::path::Path;

use crate::common::rust_files;

/// The backticked spans of `text` that look like repository paths.
fn paths_named(text: &str) -> Vec<String> {
    const ROOTS: [&str; 6] = ["src/", "tests/", "docs/", "bench/", "tools/", "public/"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| ROOTS.iter().any(|root| span.starts_with(root)))
        .filter(|span| !span.contains(' '))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_path_the_architecture_doc_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let named = paths_named(&doc);
    assert!(named.len() > 50, "the code map names {} paths", named.len());
    let missing: Vec<&String> =
        named.iter().filter(|p| !root.join(p.trim_end_matches('/')).exists()).collect();
    assert!(missing.is_empty(), "named in docs/architecture.md but absent: {missing:?}");
}

#[test]
fn a_path_inside_backticks_is_read_and_prose_is_not() {
    let named = paths_named("see `src/core/roofline.rs` and `make test`, then `src/ui/` and `tests/e2e/`");
    assert_eq!(named, ["src/core/roofline.rs", "src/ui/", "tests/e2e/"]);
}

/// The files of `files` (paths from the repository's top, `src/core/sim/stepper.rs`) that `doc` does not
/// name. A file is named by its own path in backticks (`src/core/sim/stepper.rs`), or by its folder's
/// path in backticks (`src/core/sim/stepper/`, the trailing `/` marks a folder named as a unit), which
/// names the files directly in that folder: not the folder's own module file (`src/core/sim/stepper.rs`)
/// nor the files of its subfolders, each of which is named on its own.
fn unnamed_core_files<'a>(doc: &str, files: &'a [String]) -> Vec<&'a String> {
    let named = paths_named(doc);
    let folder_of = |file: &str| file.rsplit_once('/').map(|(folder, _)| format!("{folder}/"));
    files
        .iter()
        .filter(|file| !named.contains(file) && !folder_of(file).is_some_and(|f| named.contains(&f)))
        .collect()
}

#[test]
fn every_core_file_is_named_in_the_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let mut found = Vec::new();
    rust_files(&root.join("src/core"), &mut found);
    let files: Vec<String> = found
        .iter()
        .map(|f| f.strip_prefix(root).expect("under the top").to_string_lossy().replace('\\', "/"))
        .collect();
    assert!(files.len() > 100, "the core's files are read: {}", files.len());
    let unnamed = unnamed_core_files(&doc, &files);
    assert!(unnamed.is_empty(), "src/core/ files docs/architecture.md does not name:\n{unnamed:#?}");
}

#[test]
fn a_core_file_is_named_by_its_path_or_its_folder_and_not_by_a_parent_folder() {
    let doc = "`src/core/a.rs` and its parts (`src/core/b/`), and src/core/c.rs out of backticks";
    let files =
        ["src/core/a.rs", "src/core/b/x.rs", "src/core/b.rs", "src/core/b/deeper/y.rs", "src/core/c.rs"]
            .map(str::to_string);
    assert_eq!(unnamed_core_files(doc, &files), ["src/core/b.rs", "src/core/b/deeper/y.rs", "src/core/c.rs"]);
}
