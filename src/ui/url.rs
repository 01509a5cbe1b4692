//! The page's address: read the query string once at start, replace it (no history entry) on change.

/// The current `?query` of the page, or empty when there is none.
pub fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Replaces the query string in place with `query` (no leading `?`), keeping path and hash.
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    if location.search().ok().as_deref().map(|q| q.trim_start_matches('?')) == Some(query) {
        return;
    }
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{path}?{query}{hash}");
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
