//! Invariant 1: `src/core/` is pure Rust on std (serde derives allowed) and names no web or drawing
//! crate, so it builds and tests natively.

use std::fs;
use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 6] = ["leptos", "web_sys", "wasm_bindgen", "js_sys", "plotters", "gloo"];
const ALLOWED_CRATES: [&str; 6] = ["std", "core", "alloc", "serde", "super", "crate"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every crate a file names in a path (`name::`) or `use`/`extern crate`, that is not allowed.
fn violations(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for word in FORBIDDEN {
            if code.contains(&format!("{word}::")) || code.contains(&format!("extern crate {word}")) {
                found.push(format!("line {}: {}", n + 1, line.trim()));
            }
        }
        if let Some(rest) = code.trim_start().strip_prefix("use ") {
            let root = rest.trim_start_matches("::").split("::").next().unwrap_or("").trim_end_matches(';');
            if !ALLOWED_CRATES.contains(&root) && !root.starts_with('{') && !root.starts_with("self") {
                found.push(format!("line {}: uses crate {root}", n + 1));
            }
        }
    }
    found
}

#[test]
fn core_names_no_web_or_drawing_crate() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"), &mut files);
    assert!(files.len() >= 5, "found the core's files: {files:?}");
    let mut all = Vec::new();
    for file in files {
        let source = fs::read_to_string(&file).expect("readable file");
        all.extend(violations(&source).into_iter().map(|v| format!("{}: {v}", file.display())));
    }
    assert!(all.is_empty(), "src/core must stay pure:\n{}", all.join("\n"));
}

#[test]
fn the_purity_check_catches_web_crates() {
    assert_eq!(violations("use leptos::prelude::*;").len(), 2);
    assert_eq!(violations("let c = web_sys::window();").len(), 1);
    assert_eq!(violations("use plotters_canvas::CanvasBackend;").len(), 1);
    assert!(violations("use serde::Serialize;\nuse super::roofline::evaluate;").is_empty());
}
