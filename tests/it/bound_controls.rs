//! A bound control in a lazy body changes the page's state only through the `ToPage` messages
//! [`changes`] builds from the change: a field no message carries would be a silent no-op in the
//! lazy build (it works in `make single`). Every listed body control is changed here and carried
//! through [`apply`]; every bound control the panels' source names is listed; and a page-only
//! control is not carried (so the first check can fail).

use crate::common::rust_files;
use std::fs;
use std::path::Path;

use goodput_lab::protocol::panel::{apply, changes, BODY_INPUTS};
use goodput_lab::state::fields::{InputField, TPOT_INPUT};
use goodput_lab::state::Inputs;

/// The inputs with `input` moved to another value in its range (its base units).
fn changed(input: &InputField) -> (Inputs, Inputs) {
    let before = Inputs::default();
    let now = (input.get)(&before);
    let f = input.field;
    let far =
        if (f.to_display(now) - f.min).abs() > (f.max - f.to_display(now)).abs() { f.min } else { f.max };
    let mut after = before;
    (input.set)(&mut after, f.to_base(far));
    (before, after)
}

#[test]
fn every_bound_control_of_a_lazy_body_is_carried_to_the_page() {
    for input in &BODY_INPUTS {
        let (before, after) = changed(input);
        assert!(after != before, "{}: the change moved nothing", input.field.key);
        let mut page = before;
        let mut measured = Vec::new();
        for message in changes(&before, &after) {
            apply(message, &mut page, &mut measured);
        }
        assert!(page == after, "{}: the page did not receive the change", input.field.key);
    }
}

#[test]
fn a_page_only_control_is_not_carried_so_the_check_can_fail() {
    let (before, after) = changed(&TPOT_INPUT);
    assert!(after != before);
    assert!(changes(&before, &after).is_empty());
}

/// The constant names after `input=` in `source` (`<NumberInput input=RATE_INPUT/>`).
fn bound_names(source: &str) -> Vec<String> {
    source
        .split("input=")
        .skip(1)
        .map(|rest| rest.chars().take_while(|c| c.is_ascii_uppercase() || *c == '_').collect::<String>())
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn every_bound_control_in_the_panels_folder_is_a_listed_body_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let protocol = fs::read_to_string(root.join("src/protocol/panel.rs")).expect("protocol source");
    let list = &protocol[protocol.find("pub const BODY_INPUTS").expect("the list")..];
    let list = &list[..list.find("];").expect("the list ends")];
    let mut files = Vec::new();
    rust_files(&root.join("src/ui/panels"), &mut files);
    let mut seen = 0;
    for file in files {
        let source = fs::read_to_string(&file).expect("readable");
        for name in bound_names(&source) {
            seen += 1;
            assert!(
                list.contains(&format!("    {name},")),
                "{}: {name} is not in BODY_INPUTS",
                file.display()
            );
        }
    }
    assert_eq!(seen, BODY_INPUTS.len(), "each body input bound once in src/ui/panels");
}

/// The `on:input` handler's body of the range input that starts at `at` in `src`: the closure named
/// by `on:input=NAME`, from its `let NAME = ` to the `};` that closes it.
fn range_input_handler(src: &str, at: usize) -> Option<&str> {
    let tag_end = at + src[at..].find("/>")?;
    let attr = &src[at..tag_end];
    let name = attr.split("on:input=").nth(1)?.split(|c: char| !c.is_alphanumeric() && c != '_').next()?;
    let start = src.find(&format!("let {name} = "))?;
    let end = start + src[start..].find("\n    };")?;
    Some(&src[start..end])
}

#[test]
fn every_slider_changes_the_state_through_the_drag_coalescer() {
    let mut files = Vec::new();
    rust_files(Path::new("src/ui"), &mut files);
    let mut sliders = 0;
    for path in files {
        let src = fs::read_to_string(&path).unwrap();
        for (at, _) in src.match_indices(r#"type="range""#) {
            sliders += 1;
            let handler = range_input_handler(&src, at)
                .unwrap_or_else(|| panic!("{}: a slider without a named on:input handler", path.display()));
            assert!(
                handler.contains("drag::apply("),
                "{}: a slider's input applies outside drag::apply:\n{handler}",
                path.display()
            );
        }
    }
    // StopSlider, FieldSlider, PrecisionSlider and the prefix slider.
    assert_eq!(sliders, 4, "the sliders in src/ui");
}
