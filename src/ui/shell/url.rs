//! The page's address: read the query string once at start; write it back in place (replaceState,
//! no history entry) at most every [`WRITE_INTERVAL_MS`], soon after a control's `change` (the end
//! of a drag), and when the page is hidden, always ending on the latest state. A held arrow key
//! fires `change` on every repeat: a `change` within [`WRITE_INTERVAL_MS`] of the previous one is
//! such a repeat, and waits out the interval like an `input`.
//!
//! Browsers cap replaceState calls (Chromium ignores them past 200 in 10 s, Safari throws), and
//! every write also makes the browser fetch the page's icon again; a slider drag asks for a new
//! query every frame. While a write waits, `window.goodputUrlPending` is true (tests wait on it).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

/// The longest the address lags the page's state while inputs keep coming.
pub const WRITE_INTERVAL_MS: f64 = 250.0;
/// After a `change` (the first in [`WRITE_INTERVAL_MS`]), the write waits only this long since the
/// previous one.
const CHANGE_GAP_MS: f64 = 100.0;

/// The query waiting to be written and when the last write happened.
#[derive(Default)]
struct Writer {
    pending_write: Option<String>,
    last_write_ms: f64,
    /// The armed timer and when it fires (performance.now() time).
    timer: Option<(i32, f64)>,
    /// A `change` came: write as soon as [`CHANGE_GAP_MS`] allows.
    urgent: bool,
    /// When the last `change` came (performance.now() time; `None` before the first).
    last_change_ms: Option<f64>,
    /// The timer's callback and the page's listeners, made on first use.
    on_timer: Option<Closure<dyn FnMut()>>,
}

thread_local! {
    static WRITER: RefCell<Writer> = RefCell::default();
}

/// The page's state as a query: the one waiting to be written, else the address's (empty when none).
pub fn current_query() -> String {
    let pending = WRITER.with(|w| w.borrow().pending_write.clone());
    pending
        .map(|q| format!("?{q}"))
        .unwrap_or_else(|| web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default())
}

/// Writes `query` (no leading `?`) into the address soon (see the module documentation).
pub fn replace_query_soon(query: &str) {
    WRITER.with(|w| {
        let mut w = w.borrow_mut();
        if w.on_timer.is_none() {
            install(&mut w);
        }
        w.pending_write = Some(query.to_string());
        set_pending_flag(true);
        arm(&mut w);
    });
}

/// Arms the timer for the pending write, unless it is armed to fire sooner already.
fn arm(w: &mut Writer) {
    let Some(window) = web_sys::window() else { return };
    let now = now_ms();
    let gap = if w.urgent { CHANGE_GAP_MS } else { WRITE_INTERVAL_MS };
    let wait_ms = (w.last_write_ms + gap - now).max(0.0);
    if let Some((id, due)) = w.timer {
        if due <= now + wait_ms {
            return;
        }
        window.clear_timeout_with_handle(id);
    }
    let Some(callback) = w.on_timer.as_ref() else { return };
    let id = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        callback.as_ref().unchecked_ref(),
        wait_ms.ceil() as i32,
    );
    w.timer = id.ok().map(|id| (id, now + wait_ms));
}

/// Writes the pending query now, if any.
fn write_pending(w: &mut Writer) {
    if let (Some((id, _)), Some(window)) = (w.timer.take(), web_sys::window()) {
        window.clear_timeout_with_handle(id);
    }
    w.urgent = false;
    if let Some(query) = w.pending_write.take() {
        if replace_query(&query) {
            w.last_write_ms = now_ms();
        }
    }
    set_pending_flag(false);
}

/// The timer's callback, and listeners for `change` (write soon) and for the page being hidden
/// or left (write now: no later task may run).
fn install(w: &mut Writer) {
    w.on_timer = Some(Closure::new(|| WRITER.with(|w| write_pending(&mut w.borrow_mut()))));
    let Some(window) = web_sys::window() else { return };
    let on_change = Closure::<dyn FnMut()>::new(|| {
        WRITER.with(|w| {
            let mut w = w.borrow_mut();
            let now = now_ms();
            // A repeat (a held key) is not the end of a drag: it keeps the interval.
            let repeat = w.last_change_ms.is_some_and(|last| now - last < WRITE_INTERVAL_MS);
            w.last_change_ms = Some(now);
            if !repeat {
                w.urgent = true;
                arm(&mut w);
            }
        })
    });
    let on_hide = Closure::<dyn FnMut()>::new(|| {
        let hidden = web_sys::window().and_then(|w| w.document()).is_some_and(|d| d.hidden());
        if hidden {
            WRITER.with(|w| write_pending(&mut w.borrow_mut()));
        }
    });
    let _ = window.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    if let Some(document) = window.document() {
        let _ =
            document.add_event_listener_with_callback("visibilitychange", on_hide.as_ref().unchecked_ref());
    }
    let _ = window.add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref());
    // The page's lifetime: the address is written until it closes.
    on_change.forget();
    on_hide.forget();
}

/// Replaces the query string in place with `query` (no leading `?`), keeping path and hash; false
/// when it was that already.
fn replace_query(query: &str) -> bool {
    let Some(window) = web_sys::window() else { return false };
    let location = window.location();
    if location.search().ok().as_deref().map(|q| q.trim_start_matches('?')) == Some(query) {
        return false;
    }
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = format!("{path}?{query}{hash}");
    window.history().and_then(|h| h.replace_state_with_url(&JsValue::NULL, "", Some(&url))).is_ok()
}

fn set_pending_flag(pending: bool) {
    if let Some(window) = web_sys::window() {
        let _ =
            js_sys::Reflect::set(&window, &JsValue::from_str("goodputUrlPending"), &JsValue::from(pending));
    }
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}
