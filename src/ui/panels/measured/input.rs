//! The measured panel's input: paste, choose or drop a file, read it, and say what it gave.

use crate::view::format::thousands;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{DragEvent, File, FileReader, HtmlInputElement};

/// Files larger than this are refused before reading (a detailed vLLM result is a few MB).
pub(crate) const MAX_FILE_BYTES: f64 = 32e6;

/// What the last paste, file or drop gave.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    Idle,
    /// A one-line summary and any remarks.
    Loaded(String, Vec<String>),
    /// What was wrong and where.
    Failed(String),
}

/// The textarea with its button, the file chooser and the drop zone around them.
#[component]
pub(crate) fn MeasuredInput(load: impl Fn(String, Result<String, String>) + Copy + 'static) -> impl IntoView {
    let (text, set_text) = signal(String::new());
    let (dragging, set_dragging) = signal(false);
    let on_file = move |ev: leptos::ev::Event| {
        let input = event_target::<HtmlInputElement>(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            read_file(file, load);
        }
        input.set_value("");
    };
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        let data = ev.data_transfer();
        if let Some(file) = data.as_ref().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            read_file(file, load);
        } else if let Some(t) = data.and_then(|d| d.get_data("text/plain").ok()).filter(|t| !t.is_empty()) {
            load("Dropped text".to_string(), Ok(t));
        }
    };
    let on_dragover = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };
    view! {
        <div id="measured-drop" class="measured-drop" class:dragging=move || dragging.get()
            on:dragover=on_dragover on:dragleave=move |_| set_dragging.set(false) on:drop=on_drop>
            <label for="measured-text">"Paste a result (JSON) or CSV rows (batch, TPOT ms)"</label>
            <textarea id="measured-text" rows="4" spellcheck="false" placeholder="1,7.9\n16,8.2\n64,11.5"
                prop:value=move || text.get() on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            <div class="measured-actions">
                <button type="button" id="measured-plot" on:click=move |_| load("Pasted text".to_string(), Ok(text.get_untracked()))>
                    "Plot and fit"
                </button>
                <label for="measured-file" class="file-label">"Choose a file"</label>
                <input type="file" id="measured-file" accept=".json,.jsonl,.csv,.tsv,.txt,application/json,text/csv"
                    on:change=on_file/>
                <span class="hint">"or drop one here"</span>
            </div>
        </div>
    }
}

/// Reads `file` as text and hands it to `load` under its name; a file too large or unreadable gets
/// a message instead.
pub(crate) fn read_file(file: File, load: impl Fn(String, Result<String, String>) + Copy + 'static) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES {
        let mb = thousands(file.size() / 1e6);
        return load(name, Err(format!("the file is {mb} MB; the page reads files up to 32 MB.")));
    }
    let Ok(reader) = FileReader::new() else {
        return load(name, Err("the browser cannot read files.".into()));
    };
    let (done, failed) = (reader.clone(), name.clone());
    let on_load = Closure::once_into_js(move || match done.result().ok().and_then(|v| v.as_string()) {
        Some(text) => load(name, Ok(text)),
        None => load(name, Err("the file could not be read as text.".to_string())),
    });
    let on_error =
        Closure::once_into_js(move || load(failed, Err("the file could not be read.".to_string())));
    reader.set_onload(Some(on_load.unchecked_ref()));
    reader.set_onerror(Some(on_error.unchecked_ref()));
    if reader.read_as_text(&file).is_err() {
        leptos::logging::warn!("reading a measured file failed to start");
    }
}

/// The last load's summary and remarks, or what was wrong with it.
#[component]
pub(crate) fn StatusLine(status: ReadSignal<Status>) -> impl IntoView {
    move || match status.get() {
        Status::Idle => ().into_any(),
        Status::Loaded(summary, remarks) => view! {
            <div id="measured-status" class="measured-status" role="status">
                <p>{summary}</p>
                <ul>{remarks.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any(),
        Status::Failed(message) => view! {
            <p id="measured-error" class="measured-error" role="alert">{message}</p>
        }
        .into_any(),
    }
}
