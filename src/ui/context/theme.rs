//! The colour theme: the reader's system preference (followed live) combined with `theme=`, pushed
//! onto `<html data-look data-mode data-view>` for the style sheet and handed to the charts as a [`Look`].

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::state::view::Look;
use crate::state::view::{Mode, Theme, View};

/// True while `(prefers-color-scheme: dark)` matches; updated when the system setting changes.
pub fn prefers_dark() -> ReadSignal<bool> {
    let query = web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
    let (dark, set_dark) = signal(query.as_ref().is_some_and(|q| q.matches()));
    if let Some(query) = query {
        let watched = query.clone();
        let on_change = Closure::<dyn FnMut()>::new(move || set_dark.set(watched.matches()));
        let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
    }
    dark
}

/// The look the view's theme asks for: `Auto` follows the system.
pub fn look_for(theme: Theme, system_dark: bool) -> Look {
    match theme {
        Theme::Auto if system_dark => Look::Dark,
        Theme::Auto | Theme::Light => Look::Light,
        Theme::Dark => Look::Dark,
        Theme::Projector => Look::Projector,
    }
}

/// The charts' look, following `view`'s theme (the projector look while presenting, unless a
/// theme was chosen) and the system; also keeps `<html>`'s `data-look`
/// and `data-mode` attributes current for the style sheet.
pub fn look_signal(view: ReadSignal<View>) -> Signal<Look> {
    let look = look_only(view);
    Effect::new(move |_| {
        let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
        if let Some(root) = root {
            let _ = root.set_attribute("data-look", look.get().id());
            let _ = root.set_attribute("data-mode", mode_id(view.get().mode));
            let _ = root.set_attribute("data-view", view.get().panel.id());
        }
    });
    look
}

/// The charts' look for `view`'s theme and the system, without touching `<html>` (the lazily
/// loaded panels use it; the page's own [`look_signal`] keeps the attributes).
pub fn look_only(view: ReadSignal<View>) -> Signal<Look> {
    let dark = prefers_dark();
    Memo::new(move |_| look_for(view.get().look_theme(), dark.get())).into()
}

fn mode_id(mode: Mode) -> &'static str {
    match mode {
        Mode::Page => "page",
        Mode::Present => "present",
        Mode::Embed => "embed",
    }
}
