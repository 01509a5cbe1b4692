//! Doc comments name only paths that exist: every `//!` and `///` line of `src/` and `tests/` is read
//! for path-looking tokens, and each one that names a file or folder of this repository must be one,
//! so a comment cannot go on naming a file that moved.
//!
//! The rules, for one doc line:
//!
//! - A token is a run of letters, digits and `_ . - /` that holds a `/`; the sentence's `.`, `,`,
//!   `:` or `;` after it is dropped (`tests/it/main.rs.` is `tests/it/main.rs`).
//! - It names this repository's file or folder when its first segment is one of the repository's
//!   roots ([`ROOTS`]: read from the top, `docs/architecture.md`) or one of the crate's top-level
//!   modules ([`SRC_MODULES`]: read from `src/`, so `core/sim/stepper.rs` is `src/core/sim/stepper.rs`),
//!   with or without an extension, a trailing `/` naming a folder.
//! - Under `src/` this repository keeps only Rust: a path there with another extension names another
//!   project's tree and is left alone (GuideLLM's `src/guidellm/benchmark/output.py`).
//! - Any other token is not a path of this repository: a unit (`tokens/s`, `B/s`), another
//!   project's path (`aiperf/common/...`), the team's shared folder (`shared/reference/...`), or a
//!   URL's path (its first segment, after `https:`, is empty).
//! - Plain `//` comments, code and string literals are not read.

use crate::common::rust_files;
use std::fs;
use std::path::Path;

/// The repository's top-level folders a path may start from.
const ROOTS: [&str; 7] = ["src", "tests", "docs", "bench", "tools", "public", "data"];
/// The crate's top-level modules under `src/`, which a path may start from instead.
const SRC_MODULES: [&str; 7] = ["core", "state", "protocol", "view", "chart", "ui", "bin"];

/// The text after `//!` or `///` of each doc-comment line of `source`, with its line number.
fn doc_lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    source.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim_start();
        let text = line.strip_prefix("//!").or_else(|| line.strip_prefix("///"))?;
        Some((i + 1, text))
    })
}

/// The repository path `token` names, from the repository's top, if it names one (module doc).
fn repository_path(token: &str) -> Option<String> {
    let token = token.trim_end_matches(['.', ',', ':', ';']);
    let first = token.split('/').next()?;
    let path = if ROOTS.contains(&first) {
        token.to_string()
    } else if SRC_MODULES.contains(&first) {
        format!("src/{token}")
    } else {
        return None;
    };
    let file = path.rsplit('/').next().unwrap_or("");
    let foreign = path.starts_with("src/") && file.contains('.') && !file.ends_with(".rs");
    (!foreign).then_some(path)
}

/// The repository paths one doc line's text names.
fn paths_in(text: &str) -> Vec<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    text.split(|c: char| !is_path_char(c))
        .filter(|token| token.contains('/'))
        .filter_map(repository_path)
        .collect()
}

/// Every path `source`'s doc comments name, as (line, path), and those absent under `root`.
fn named_and_missing(root: &Path, source: &str) -> (Vec<(usize, String)>, Vec<String>) {
    let named: Vec<(usize, String)> =
        doc_lines(source).flat_map(|(n, text)| paths_in(text).into_iter().map(move |p| (n, p))).collect();
    let missing = named
        .iter()
        .filter(|(_, path)| !root.join(path.trim_end_matches('/')).exists())
        .map(|(n, path)| format!("line {n}: {path}"))
        .collect();
    (named, missing)
}

#[test]
fn every_path_a_doc_comment_in_src_or_tests_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    files.sort();
    let (mut named, mut missing) = (0, Vec::new());
    for file in &files {
        let source = fs::read_to_string(file).expect("readable file");
        let (found, absent) = named_and_missing(root, &source);
        named += found.len();
        let shown = file.strip_prefix(root).expect("under the repository").display();
        missing.extend(absent.into_iter().map(|m| format!("{shown} {m}")));
    }
    assert!(files.len() > 100 && named > 40, "read {} files naming {named} paths", files.len());
    assert!(missing.is_empty(), "doc comments name paths that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn a_stale_path_is_reported_and_units_urls_and_other_projects_paths_are_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Each line of the sample opens with a quote, so the scan of this file does not read it.
    let source = concat!(
        "//! Moved: `tests/url_flags.rs`; kept: `tests/it/url_flags.rs`, core/roofline/step.rs.\n",
        "/// 25 tokens/s at 3.35 TB/s; GuideLLM's `src/guidellm/benchmark/output.py`;\n",
        "/// https://example.com/src/nowhere.rs and shared/reference/presets.md.\n",
        "    ///   a folder that went: `docs/gone/`, and one that stays: src/core/.\n",
        "// A plain comment on tests/plain.rs is not read.\n",
        "const S: &str = \"tests/in_a_string.rs\";\n",
    );
    let (named, missing) = named_and_missing(root, source);
    let paths: Vec<&str> = named.iter().map(|(_, p)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tests/url_flags.rs",
            "tests/it/url_flags.rs",
            "src/core/roofline/step.rs",
            "docs/gone/",
            "src/core/"
        ]
    );
    assert_eq!(missing, ["line 1: tests/url_flags.rs", "line 4: docs/gone/"]);
}
