//! The measured panel's input: paste, choose or drop one file or several, read them in order, and
//! say what each gave.

use crate::state::measured::FileOutcome;
pub(crate) use crate::ui::widgets::file_drop::FileText;
use crate::ui::widgets::file_drop::{DropSpec, FileDrop};
use leptos::prelude::*;

/// What the last paste, choice or drop gave: each file's outcome in order, and a note (the cap).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    Idle,
    Files(Vec<FileOutcome>, Option<String>),
}

/// The measured panel's drop zone: several files at once, each load adding its points.
#[component]
pub(crate) fn MeasuredInput(load: impl Fn(Vec<FileText>) + Copy + 'static) -> impl IntoView {
    let spec = DropSpec {
        drop_id: "measured-drop",
        text_id: "measured-text",
        text_label: "Paste a result (JSON) or CSV rows (batch, TPOT ms)",
        rows: 4,
        placeholder: "1,7.9\n16,8.2\n64,11.5",
        button_id: "measured-plot",
        button_label: "Plot and fit",
        file_id: "measured-file",
        file_label: "Choose files",
        multiple: true,
        accept: ".json,.jsonl,.csv,.tsv,.txt,application/json,text/csv",
        hint: "or drop them here; each load adds its points",
    };
    view! { <FileDrop spec=spec load=load/> }
}

/// Each file's summary and remarks (a status), then what was wrong with any (an alert).
#[component]
pub(crate) fn StatusLine(status: ReadSignal<Status>) -> impl IntoView {
    move || {
        let Status::Files(files, note) = status.get() else { return ().into_any() };
        let (mut read, mut failed) = (Vec::new(), Vec::new());
        for file in files {
            match file {
                FileOutcome::Read { summary, remarks } => read.push(view! {
                    <p>{summary}</p>
                    <ul>{remarks.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
                }),
                FileOutcome::Failed(message) => failed.push(view! { <p>{message}</p> }),
            }
        }
        let note = note.map(|n| view! { <p class="warn">{n}</p> });
        let any_read = !read.is_empty() || note.is_some();
        view! {
            {any_read.then(|| view! { <div id="measured-status" class="measured-status" role="status">{read}{note}</div> })}
            {(!failed.is_empty()).then(|| view! { <div id="measured-error" class="measured-error" role="alert">{failed}</div> })}
        }
        .into_any()
    }
}
