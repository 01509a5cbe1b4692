//! docs/architecture.md names only paths that exist: every backticked path under `src/`, `tests/`,
//! `docs/`, `bench/`, `tools/` or `public/` is a file or folder of the repository, so the map cannot drift
//! from the tree without this failing.

use std::fs;
use std::path::Path;

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
