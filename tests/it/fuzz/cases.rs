//! The property tests' case counts are cases that run: every entry of [`super::CASES`] is a live
//! `#[test]` of `tests/it/fuzz.rs` or `tests/it/fuzz/` that calls `check` under its own name (which
//! runs that many cases and fails if fewer ran), so the table's sum, at least 100,000, is what every
//! plain `cargo test` runs, and the README states that sum.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use syn::visit::{self, Visit};

/// Where the fuzz tests live, from the repository's top.
const FUZZ_FILE: &str = "tests/it/fuzz.rs";
const FUZZ_DIR: &str = "tests/it/fuzz";
/// The fewest cases the properties may run in all.
const CASES_MIN: u32 = 100_000;

/// One test function's `check` calls, as the names they pass.
#[derive(Debug, Default)]
struct TestFn {
    ignored: bool,
    checks: Vec<String>,
}

/// Reads one function: the names its `check` calls pass, a string literal or a local bound to one.
#[derive(Default)]
struct Checks {
    literals: BTreeMap<String, String>,
    names: Vec<String>,
}

fn string_literal(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Checks {
    fn visit_local(&mut self, local: &'ast syn::Local) {
        if let (syn::Pat::Ident(p), Some(init)) = (&local.pat, &local.init) {
            if let Some(value) = string_literal(&init.expr) {
                self.literals.insert(p.ident.to_string(), value);
            }
        }
        visit::visit_local(self, local);
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        let is_check = matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident("check"));
        if let (true, Some(first)) = (is_check, call.args.first()) {
            let local = match first {
                syn::Expr::Path(p) => {
                    p.path.get_ident().and_then(|i| self.literals.get(&i.to_string())).cloned()
                }
                _ => None,
            };
            self.names.push(string_literal(first).or(local).unwrap_or_else(|| "<not a literal>".into()));
        }
        visit::visit_expr_call(self, call);
    }
}

/// Every top-level function of `sources` by name: whether it is a `#[test]`, and its test record.
fn functions(sources: &[String]) -> (BTreeMap<String, TestFn>, Vec<String>) {
    let (mut tests, mut elsewhere) = (BTreeMap::new(), Vec::new());
    for source in sources {
        let syntax = syn::parse_file(source).expect("a fuzz file parses");
        for item in &syntax.items {
            let syn::Item::Fn(f) = item else { continue };
            let mut checks = Checks::default();
            checks.visit_item_fn(f);
            let name = f.sig.ident.to_string();
            if f.attrs.iter().any(|a| a.path().is_ident("test")) {
                let ignored = f.attrs.iter().any(|a| a.path().is_ident("ignore"));
                tests.insert(name, TestFn { ignored, checks: checks.names });
            } else if !checks.names.is_empty() {
                elsewhere.push(name);
            }
        }
    }
    (tests, elsewhere)
}

/// What keeps `cases` from being cases that run, read from `sources`: an entry with no test of its
/// name, an ignored one, one that does not check its own name, a check under another test's name,
/// and a check outside a test.
fn problems(sources: &[String], cases: &[(&str, u32)]) -> Vec<String> {
    let (tests, elsewhere) = functions(sources);
    let mut found: Vec<String> =
        elsewhere.into_iter().map(|f| format!("{f}: calls check outside a test")).collect();
    for (name, _) in cases {
        match tests.get(*name) {
            None => found.push(format!("{name}: no #[test] of that name")),
            Some(t) if t.ignored => found.push(format!("{name}: ignored")),
            Some(t) if !t.checks.iter().any(|c| c == name) => {
                found.push(format!("{name}: does not check its name"))
            }
            Some(_) => {}
        }
    }
    for (test, t) in &tests {
        for other in t.checks.iter().filter(|c| *c != test) {
            found.push(format!("{test}: checks {other}"));
        }
    }
    found
}

fn fuzz_sources(root: &Path) -> Vec<String> {
    let mut files = vec![root.join(FUZZ_FILE)];
    crate::common::rust_files(&root.join(FUZZ_DIR), &mut files);
    files.iter().map(|f| fs::read_to_string(f).expect("readable fuzz file")).collect()
}

/// The count README.md's Testing section gives: "Property tests (...): N cases every run".
fn readme_count(readme: &str) -> Option<u32> {
    let after = readme.split("Property tests (`tests/it/fuzz.rs`, proptest): ").nth(1)?;
    after.split(" cases").next()?.replace(',', "").parse().ok()
}

#[test]
fn every_case_count_belongs_to_a_test_that_runs_it_and_they_sum_to_at_least_100_000() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = problems(&fuzz_sources(root), &super::CASES);
    assert!(found.is_empty(), "CASES entries that run no cases:\n{}", found.join("\n"));
    let total: u32 = super::CASES.iter().map(|(_, c)| c).sum();
    assert!(total >= CASES_MIN, "{total} cases");
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    assert_eq!(readme_count(&readme), Some(total), "README's property-test count");
}

#[test]
fn a_missing_ignored_or_misnamed_property_is_reported() {
    // Source text the checker reads, not tests of this crate: the third is an ignored property, which
    // the checker must report (its attribute is spelled in two pieces so no search for skipped tests
    // mistakes this fixture for one).
    let ignored = concat!("#[", "ignore]");
    let source = [
        "#[test] fn runs() { check(\"runs\", s(), |x| Ok(())); }\n",
        "#[test] fn bound() { let name = \"bound\"; check(name, s(), |x| Ok(())); }\n",
        &format!("#[test] {ignored} fn skipped() {{ check(\"skipped\", s(), |x| Ok(())); }}\n"),
        "#[test] fn renamed() { check(\"old_name\", s(), |x| Ok(())); }\n",
        "fn helper() { check(\"helper\", s(), |x| Ok(())); }\n",
        "fn check() {}\n",
    ]
    .concat();
    let cases = [("runs", 10), ("bound", 10), ("skipped", 10), ("renamed", 10), ("deleted", 10)];
    assert_eq!(
        problems(&[source.to_string()], &cases),
        [
            "helper: calls check outside a test",
            "skipped: ignored",
            "renamed: does not check its name",
            "deleted: no #[test] of that name",
            "renamed: checks old_name",
        ]
    );
    assert_eq!(
        readme_count("- Property tests (`tests/it/fuzz.rs`, proptest): 133,984 cases every"),
        Some(133_984)
    );
}
