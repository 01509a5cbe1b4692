//! The error banner a panic leaves on the page: a panic hook that builds it with plain DOM calls.
//!
//! The release build aborts on panic (`panic = "abort"`), but the hook runs before the abort, so the
//! page is never left dead without a word. The banner is built with web-sys, not Leptos: the panic
//! may have struck in the middle of a reactive update. The message goes in as text, never as markup.

use std::panic::PanicHookInfo;

use web_sys::{Document, Element};

/// The banner's element id (one banner: a later panic keeps the first message).
const BANNER_ID: &str = "panic-banner";

/// Installs the panic hook: the console report with its stack (console_error_panic_hook), then the banner.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let _ = show(&message(info));
    }));
}

/// The panic's message and where it happened, as plain text.
fn message(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    match info.location() {
        Some(at) => format!("{text} (at {}:{})", at.file(), at.line()),
        None => text.to_string(),
    }
}

/// Puts the banner at the top of `<body>`: what happened, the message, and a link that reloads the
/// page without its query (the defaults). Does nothing if a banner is already shown.
fn show(message: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    if document.get_element_by_id(BANNER_ID).is_some() {
        return Some(());
    }
    let banner = element(&document, "div", "panic-banner", None)?;
    banner.set_id(BANNER_ID);
    banner.set_attribute("role", "alert").ok()?;
    let title =
        element(&document, "p", "panic-title", Some("Something went wrong, and the page stopped working."))?;
    let detail = element(&document, "p", "panic-message", Some(message))?;
    let reset = element(&document, "a", "panic-reset", Some("Reset to defaults"))?;
    reset.set_id("panic-reset");
    reset.set_attribute("href", &document.location()?.pathname().ok()?).ok()?;
    for child in [&title, &detail, &reset] {
        banner.append_child(child).ok()?;
    }
    document.body()?.prepend_with_node_1(&banner).ok()
}

/// A new `<tag class=class>` holding `text` (as a text node), if given.
fn element(document: &Document, tag: &str, class: &str, text: Option<&str>) -> Option<Element> {
    let el = document.create_element(tag).ok()?;
    el.set_class_name(class);
    el.set_text_content(text);
    Some(el)
}
