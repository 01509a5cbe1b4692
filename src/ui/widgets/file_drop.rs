//! The file-drop widget every upload shares: a textarea with its button, a file chooser (one file
//! or several) and a drop zone around them; files are read as text in their order, a file too large
//! or unreadable carrying a message instead.

use crate::view::format::thousands;
use leptos::prelude::*;
use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{DragEvent, File, FileList, FileReader, HtmlInputElement};

/// Files larger than this are refused before reading (a detailed vLLM result is a few MB).
pub(crate) const MAX_FILE_BYTES: f64 = 32e6;

/// One file of a load action: its name, and its text or why it could not be read.
pub(crate) type FileText = (String, Result<String, String>);

/// One drop zone's ids and words.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DropSpec {
    pub drop_id: &'static str,
    pub text_id: &'static str,
    pub text_label: &'static str,
    pub rows: u32,
    pub placeholder: &'static str,
    pub button_id: &'static str,
    pub button_label: &'static str,
    pub file_id: &'static str,
    pub file_label: &'static str,
    /// Several files per choice or drop, or only the first.
    pub multiple: bool,
    pub accept: &'static str,
    pub hint: &'static str,
}

/// The textarea with its button, the file chooser and the drop zone around them; `load` takes the
/// pasted text, the dropped text or the files read.
#[component]
pub(crate) fn FileDrop(spec: DropSpec, load: impl Fn(Vec<FileText>) + Copy + 'static) -> impl IntoView {
    let (text, set_text) = signal(String::new());
    let (dragging, set_dragging) = signal(false);
    let take = move |list: Option<FileList>| {
        let mut files = files_of(list);
        files.truncate(if spec.multiple { files.len() } else { 1 });
        files
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input = event_target::<HtmlInputElement>(&ev);
        let files = take(input.files());
        if !files.is_empty() {
            read_files(files, load);
        }
        input.set_value("");
    };
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        let data = ev.data_transfer();
        let files = take(data.as_ref().and_then(|d| d.files()));
        if !files.is_empty() {
            read_files(files, load);
        } else if let Some(t) = data.and_then(|d| d.get_data("text/plain").ok()).filter(|t| !t.is_empty()) {
            load(vec![("Dropped text".to_string(), Ok(t))]);
        }
    };
    let on_dragover = move |ev: DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };
    view! {
        <div id=spec.drop_id class="measured-drop" class:dragging=move || dragging.get()
            on:dragover=on_dragover on:dragleave=move |_| set_dragging.set(false) on:drop=on_drop>
            <label for=spec.text_id>{spec.text_label}</label>
            <textarea id=spec.text_id rows=spec.rows spellcheck="false" placeholder=spec.placeholder
                prop:value=move || text.get() on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
            <div class="measured-actions">
                <button type="button" id=spec.button_id on:click=move |_| load(vec![("Pasted text".to_string(), Ok(text.get_untracked()))])>
                    {spec.button_label}
                </button>
                <label for=spec.file_id class="file-label">{spec.file_label}</label>
                <input type="file" id=spec.file_id multiple=spec.multiple accept=spec.accept on:change=on_file/>
                <span class="hint">{spec.hint}</span>
            </div>
        </div>
    }
}

/// The files of a chooser or a drop, in their order.
fn files_of(list: Option<FileList>) -> Vec<File> {
    list.map_or_else(Vec::new, |l| (0..l.length()).filter_map(|i| l.get(i)).collect())
}

/// Reads `files` as text one after another and hands them to `load` together, in their order; a
/// file too large or unreadable carries a message instead of its text.
pub(crate) fn read_files(files: Vec<File>, load: impl Fn(Vec<FileText>) + Copy + 'static) {
    read_from(files.into(), Vec::new(), load);
}

fn read_from(
    mut rest: VecDeque<File>,
    mut done: Vec<FileText>,
    load: impl Fn(Vec<FileText>) + Copy + 'static,
) {
    match rest.pop_front() {
        None => load(done),
        Some(file) => read_one(
            file,
            Box::new(move |name, text| {
                done.push((name, text));
                read_from(rest, done, load);
            }),
        ),
    }
}

/// Reads one file as text and calls `then` once with its name and text (or what went wrong).
fn read_one(file: File, then: Box<dyn FnOnce(String, Result<String, String>)>) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES {
        let mb = thousands(file.size() / 1e6);
        return then(name, Err(format!("the file is {mb} MB; the page reads files up to 32 MB.")));
    }
    let Ok(reader) = FileReader::new() else {
        return then(name, Err("the browser cannot read files.".into()));
    };
    let slot = Rc::new(Cell::new(Some(then)));
    let (on_load_slot, done, loaded_name) = (slot.clone(), reader.clone(), name.clone());
    let on_load = Closure::once_into_js(move || {
        let text = done.result().ok().and_then(|v| v.as_string());
        let text = text.ok_or_else(|| "the file could not be read as text.".to_string());
        if let Some(then) = on_load_slot.take() {
            then(loaded_name, text);
        }
    });
    let on_error = Closure::once_into_js(move || {
        if let Some(then) = slot.take() {
            then(name, Err("the file could not be read.".to_string()));
        }
    });
    reader.set_onload(Some(on_load.unchecked_ref()));
    reader.set_onerror(Some(on_error.unchecked_ref()));
    if reader.read_as_text(&file).is_err() {
        leptos::logging::warn!("reading a measured file failed to start");
    }
}
