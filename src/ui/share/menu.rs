//! The masthead's Share menu: a button that opens a popover holding "Copy link" (the page's URL,
//! which holds every state), "Copy embed code" (an iframe of one panel in embed mode, at a chosen
//! size), the theme picker and, when the clipboard is missing or refuses, a read-only text field
//! holding the text, selected. The popover's body is built only while it is open; with the
//! `lazy_panels` feature everything but the theme picker is a lazily loaded body
//! ([`LazyBody::Share`]) that loads when the menu first opens.

use leptos::ev;
use leptos::html::{Button, Div, Textarea};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{EventTarget, KeyboardEvent, Node};

use crate::protocol::panel::LazyBody;
use crate::state::view::Panel;
use crate::ui::context::page::PageState;
use crate::ui::context::panel::PanelContext;
use crate::ui::lazy::body::lazy_body;
use crate::ui::widgets::theme_picker::ThemePicker;
use crate::ui::widgets::PresetSelect;
use crate::view::share::{embed_query, iframe_snippet, link_query, scenario_summary, EmbedSize};

/// The Share button (a disclosure: `aria-expanded`, `aria-controls`) and its popover. Escape closes
/// it and returns focus to the button; a click or focus outside closes it.
#[component]
pub fn ShareMenu() -> impl IntoView {
    let PageState { view, set_view, .. } = PageState::get();
    let (open, set_open) = signal(false);
    let shell = NodeRef::<Div>::new();
    let button = NodeRef::<Button>::new();
    close_from_outside(shell, open, set_open);
    let on_keydown = move |e: KeyboardEvent| {
        if e.key() == "Escape" && open.get_untracked() {
            e.prevent_default();
            e.stop_propagation();
            set_open.set(false);
            if let Some(button) = button.get_untracked() {
                let _ = button.focus();
            }
        }
    };
    view! {
        <div class="share-menu" node_ref=shell on:keydown=on_keydown>
            <button id="share-button" type="button" class="share-button" node_ref=button
                aria-expanded=move || open.get().to_string() aria-controls="share-popover"
                on:click=move |_| set_open.update(|shown| *shown = !*shown)>
                "Share"<span class="share-caret" aria-hidden="true"></span>
            </button>
            <div id="share-popover" class="share-popover" hidden=move || !open.get()>
                <Show when=move || open.get()>
                    {lazy_body(LazyBody::Share, || view! { <ShareMenuBody/> }.into_any())}
                    <div class="share-theme"><ThemePicker view=view set_view=set_view/></div>
                </Show>
            </div>
        </div>
    }
}

/// Closes the menu when a pointer goes down, or focus lands, anywhere outside `shell`.
fn close_from_outside(shell: NodeRef<Div>, open: ReadSignal<bool>, set_open: WriteSignal<bool>) {
    let close_if_outside = move |target: Option<EventTarget>| {
        let node = target.and_then(|t| t.dyn_into::<Node>().ok());
        if open.get_untracked() && shell.get_untracked().is_some_and(|s| !s.contains(node.as_ref())) {
            set_open.set(false);
        }
    };
    let pointer = window_event_listener(ev::pointerdown, move |e| close_if_outside(e.target()));
    let focus = window_event_listener(ev::focusin, move |e| close_if_outside(e.target()));
    on_cleanup(move || {
        pointer.remove();
        focus.remove();
    });
}

/// What was last copied, or why the text field is shown instead.
#[derive(Clone, PartialEq)]
enum Outcome {
    Idle,
    Copied(&'static str),
    /// The clipboard is unavailable: the text to copy by hand, and what it is.
    Manual(&'static str, String),
}

/// The open menu's body: copy link, the embed's panel and size, copy embed code and the copy
/// status. It changes nothing of the page's state: it reads it and copies text.
#[component]
pub fn ShareMenuBody() -> impl IntoView {
    let PanelContext { inputs, view, your_points, .. } = PanelContext::get();
    let (panel, set_panel) = signal(view.get_untracked().panel);
    let (size, set_size) = signal(EmbedSize::default());
    let (outcome, set_outcome) = signal(Outcome::Idle);
    let copy_link = move |_| {
        let url = format!("{}?{}", page_base(), link_query(&inputs.get(), &view.get(), &your_points.get()));
        copy_text(url, "link", set_outcome);
    };
    let copy_embed = move |_| {
        let src = format!(
            "{}?{}",
            page_base(),
            embed_query(&inputs.get(), &view.get(), &your_points.get(), panel.get())
        );
        copy_text(
            iframe_snippet(&src, &scenario_summary(&inputs.get()), size.get()),
            "embed code",
            set_outcome,
        );
    };
    let panels = Panel::ALL.iter().map(|p| (p.id().to_string(), p.label().to_string())).collect();
    let sizes = EmbedSize::ALL.iter().map(|s| (s.id().to_string(), s.label().to_string())).collect();
    let pick_panel =
        move |id: String| set_panel.set(Panel::ALL.into_iter().find(|p| p.id() == id).unwrap_or_default());
    let pick_size =
        move |id: String| set_size.set(EmbedSize::ALL.into_iter().find(|s| s.id() == id).unwrap_or_default());
    view! {
        <div class="share" role="group" aria-label="Share this state">
            <button id="copy-link" type="button" class="share-button" on:click=copy_link>"Copy link"</button>
            <div class="share-embed">
                <PresetSelect id="embed-panel" label="Embed panel" options=panels
                    selected=Signal::derive(move || panel.get().id().to_string()) on_pick=pick_panel/>
                <PresetSelect id="embed-size" label="Embed size" options=sizes
                    selected=Signal::derive(move || size.get().id().to_string()) on_pick=pick_size/>
                <button id="copy-embed" type="button" class="share-button" on:click=copy_embed>"Copy embed code"</button>
            </div>
            <p id="share-status" class="share-status" role="status">{move || status_text(&outcome.get())}</p>
            <ManualCopy outcome=outcome/>
        </div>
    }
}

/// The status line after a copy.
fn status_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Idle => String::new(),
        Outcome::Copied(what) => format!("Copied the {what}."),
        Outcome::Manual(what, _) => {
            format!("The clipboard is not available here: copy the {what} from the box.")
        }
    }
}

/// The fallback: the text in a read-only box, focused and selected so Ctrl+C (⌘C) copies it.
#[component]
fn ManualCopy(outcome: ReadSignal<Outcome>) -> impl IntoView {
    let text_ref = NodeRef::<Textarea>::new();
    let manual = move || match outcome.get() {
        Outcome::Manual(what, text) => Some((what, text)),
        _ => None,
    };
    // The value is set here, not as a reactive prop, so it is in place before the selection.
    Effect::new(move |_| {
        if let (Some((_, text)), Some(area)) = (manual(), text_ref.get()) {
            area.set_value(&text);
            let _ = area.focus();
            area.select();
        }
    });
    view! {
        <div class="share-manual" hidden=move || manual().is_none()>
            <label for="share-text">{move || manual().map(|(what, _)| format!("The {what}, selected (Ctrl+C or ⌘C copies it)"))}</label>
            <textarea id="share-text" readonly rows="3" node_ref=text_ref></textarea>
        </div>
    }
}

/// The page's address without its query or fragment.
fn page_base() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let end = href.find(['?', '#']).unwrap_or(href.len());
    href[..end].to_string()
}

/// Writes `text` to the clipboard and reports "Copied"; when the clipboard API is missing or
/// refuses (no permission, an insecure page), shows the text to copy by hand instead.
fn copy_text(text: String, what: &'static str, set_outcome: WriteSignal<Outcome>) {
    let Some(clipboard) = clipboard() else {
        set_outcome.set(Outcome::Manual(what, text));
        return;
    };
    let promise = clipboard.write_text(&text);
    leptos::task::spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => set_outcome.set(Outcome::Copied(what)),
            Err(_) => set_outcome.set(Outcome::Manual(what, text)),
        }
    });
}

/// `navigator.clipboard`, where the page has one (secure contexts only).
fn clipboard() -> Option<web_sys::Clipboard> {
    let navigator = web_sys::window()?.navigator();
    let value = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
    (!value.is_undefined() && !value.is_null()).then(|| value.unchecked_into())
}
