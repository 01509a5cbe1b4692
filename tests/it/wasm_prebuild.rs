//! `tools/wasm_prebuild.py` asks Cargo for the builds Trunk will ask for: one `cargo build` per rust
//! link of `index.html`, with the link's bin, profile and features, and no link attribute it cannot
//! translate (Trunk would then build something else, and `make test`'s head start would be lost).
//! The links are read here independently of the script (a scan of the `<link>` tags), and Trunk
//! 0.21's mapping of each attribute is the one written out in `expected_args`.

use std::path::Path;
use std::process::Command;

/// The attributes of each `<link data-trunk rel="rust" ...>` of `html`, as (name, value) pairs.
fn rust_links(html: &str) -> Vec<Vec<(String, String)>> {
    html.split("<link")
        .skip(1)
        .filter_map(|tail| {
            let tag = &tail[..tail.find('>')?];
            let attrs = attributes(tag);
            let is_rust = attrs.iter().any(|(k, v)| k == "rel" && v == "rust");
            (is_rust && attrs.iter().any(|(k, _)| k == "data-trunk")).then_some(attrs)
        })
        .collect()
}

/// `name="value"` and bare `name` attributes of one tag's text.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag.trim();
    while !rest.is_empty() {
        let end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let name = rest[..end].to_string();
        rest = &rest[end..];
        let value = if let Some(quoted) = rest.strip_prefix("=\"") {
            let close = quoted.find('"').expect("a closing quote");
            rest = &quoted[close + 1..];
            quoted[..close].to_string()
        } else {
            String::new()
        };
        out.push((name, value));
        rest = rest.trim_start();
    }
    out
}

/// The `cargo build` Trunk 0.21's release build runs for one link.
fn expected_args(link: &[(String, String)]) -> String {
    let get = |name: &str| link.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let mut args = vec!["cargo build --target=wasm32-unknown-unknown".to_string()];
    args.push(get("data-cargo-profile").map_or("--release".into(), |p| format!("--profile {p}")));
    if let Some(bin) = get("data-bin") {
        args.push(format!("--bin {bin}"));
    }
    if get("data-cargo-no-default-features").is_some() {
        args.push("--no-default-features".into());
    }
    if let Some(features) = get("data-cargo-features") {
        args.push(format!("--features {features}"));
    }
    args.join(" ")
}

fn printed_commands(page: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tools/wasm_prebuild.py"))
        .arg("--print")
        .arg(page)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    text.lines().filter_map(|l| l.strip_prefix("wasm prebuild: ")).map(str::to_string).collect()
}

#[test]
fn the_prebuild_runs_the_cargo_build_trunk_runs_for_each_rust_link_of_the_page() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html");
    let links = rust_links(&std::fs::read_to_string(&page).expect("index.html"));
    assert_eq!(links.len(), 4, "the page, its lazily loaded module and two workers");
    let expected: Vec<String> = links.iter().map(|l| expected_args(l)).collect();
    assert_eq!(printed_commands(&page), expected);
}

#[test]
fn every_attribute_of_a_rust_link_is_one_the_prebuild_translates_or_one_cargo_never_sees() {
    // Read by Cargo through Trunk (translated by the script), or by Trunk alone after Cargo.
    const FOR_CARGO: [&str; 4] =
        ["data-bin", "data-cargo-profile", "data-cargo-no-default-features", "data-cargo-features"];
    const TRUNK_ONLY: [&str; 7] = [
        "data-trunk",
        "rel",
        "data-type",
        "data-bindgen-target",
        "data-wasm-opt",
        "data-wasm-opt-params",
        "href",
    ];
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html");
    for link in rust_links(&std::fs::read_to_string(page).expect("index.html")) {
        for (name, _) in &link {
            let known = FOR_CARGO.contains(&name.as_str()) || TRUNK_ONLY.contains(&name.as_str());
            assert!(
                known,
                "a rust link's `{name}`: teach tools/wasm_prebuild.py and this test what Trunk does with it"
            );
        }
    }
}

#[test]
fn a_page_link_with_features_and_a_worker_with_a_profile_are_prebuilt_with_them_and_once_each() {
    let dir = std::env::temp_dir().join(format!("prebuild-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let page = dir.join("single.html");
    // The one-file build's page link (Makefile `single.html`), a worker at its own profile, and the
    // page link again: Cargo is asked once per distinct build.
    let html = concat!(
        r#"<link data-trunk rel="rust" data-bin="goodput-lab" data-cargo-no-default-features data-cargo-features="ui" data-wasm-opt="z">"#,
        r#"<link data-trunk rel="rust" data-bin="sim_worker" data-type="worker" data-cargo-profile="sim-speed">"#,
        r#"<link data-trunk rel="rust" data-bin="goodput-lab" data-cargo-no-default-features data-cargo-features="ui">"#,
    );
    std::fs::write(&page, html).expect("write");
    let printed = printed_commands(&page);
    let _ = std::fs::remove_dir_all(&dir);
    let links = rust_links(html);
    assert_eq!(printed, [expected_args(&links[0]), expected_args(&links[1])]);
    assert!(printed[0].ends_with("--no-default-features --features ui"), "{}", printed[0]);
    assert!(
        printed[1].contains("--profile sim-speed") && !printed[1].contains("--release"),
        "{}",
        printed[1]
    );
}
