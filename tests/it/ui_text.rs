//! No text the page shows names a Rust type: a rename across `src/` once turned the explore bar's
//! "Sweep" label into "AnimationSweep". Every string literal in `src/ui/` (inside `view!` and other
//! macros too; not doc comments, nor the console's `error!` and `panic!`) is read, and a word in it that is the name of a struct, enum, trait or type alias
//! defined in `src/` with two or more capitals (`AnimationSweep`, not `Sweep` or `KV`) fails.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use proc_macro2::TokenTree;
use syn::visit::{self, Visit};

use crate::common::rust_files;

/// The names of the types `source` defines.
struct TypeNames(BTreeSet<String>);

impl<'ast> Visit<'ast> for TypeNames {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        self.0.insert(item.ident.to_string());
    }
    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.0.insert(item.ident.to_string());
    }
    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.0.insert(item.ident.to_string());
    }
    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        self.0.insert(item.ident.to_string());
    }
}

/// Every string literal in `source`, those inside macro calls included.
struct Strings(Vec<String>);

impl Strings {
    fn tokens(&mut self, stream: proc_macro2::TokenStream) {
        for tree in stream {
            match tree {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Literal(lit) => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&lit.to_string()) {
                        self.0.push(s.value());
                    }
                }
                TokenTree::Ident(_) | TokenTree::Punct(_) => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Strings {
    /// Doc comments and other attributes are not the page's text.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.0.push(lit.value());
    }
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // The console's words (`leptos::logging::error!`, `panic!`) are for developers, not the page.
        const CONSOLE: [&str; 6] = ["error", "warn", "log", "debug_warn", "panic", "unreachable"];
        if mac.path.segments.last().is_some_and(|s| CONSOLE.contains(&s.ident.to_string().as_str())) {
            return;
        }
        self.tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }
}

/// A type name the check looks for: letters and digits, starting with a capital, with another
/// capital after a lower-case letter (`AnimationSweep`, `SimBody`; not `KV`, `TPOT` or `Sweep`).
fn is_compound(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    chars.first().is_some_and(|c| c.is_ascii_uppercase())
        && chars.iter().all(char::is_ascii_alphanumeric)
        && chars.windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
}

/// The type names of `types` that a word of `texts` is, as "name in \"text\"".
fn type_names_in(texts: &[String], types: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for text in texts {
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            if types.contains(word) {
                found.push(format!("{word} in {text:?}"));
            }
        }
    }
    found
}

fn parsed(file: &Path) -> syn::File {
    let source = fs::read_to_string(file).expect("readable");
    syn::parse_file(&source).unwrap_or_else(|e| panic!("{} parses: {e}", file.display()))
}

#[test]
fn no_text_in_the_page_names_a_rust_type() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut types = TypeNames(BTreeSet::new());
    files.iter().for_each(|f| types.visit_file(&parsed(f)));
    types.0.retain(|name| is_compound(name));
    assert!(types.0.contains("PanelContext") && types.0.len() > 100, "{} type names", types.0.len());
    let mut strings = Strings(Vec::new());
    files.iter().filter(|f| f.starts_with(src.join("ui"))).for_each(|f| strings.visit_file(&parsed(f)));
    assert!(strings.0.iter().any(|s| s == "Sweep"), "the view! macros' text is read");
    let found = type_names_in(&strings.0, &types.0);
    assert!(found.is_empty(), "type names in the page's text:\n{}", found.join("\n"));
}

#[test]
fn the_type_name_check_flags_a_renamed_label_and_passes_plain_words() {
    let types: BTreeSet<String> = ["AnimationSweep", "SimBody"].map(String::from).into();
    let texts = ["AnimationSweep", "Sweep the TPOT target", "Open SimBody now", "KV"].map(String::from);
    assert_eq!(
        type_names_in(&texts, &types),
        ["AnimationSweep in \"AnimationSweep\"", "SimBody in \"Open SimBody now\""]
    );
    assert!(is_compound("AnimationSweep") && !is_compound("Sweep") && !is_compound("TPOT"));
    let mut strings = Strings(Vec::new());
    let source = "/// Draws `SimBody`.\nfn f() { error!(\"SimBody\"); view! { <label>\"Sweep\"</label> } }";
    strings.visit_file(&syn::parse_file(source).expect("parses"));
    assert_eq!(strings.0, ["Sweep"]);
}
