//! The derivation panel: the worked example's arithmetic with the current numbers, one `formula = numbers =
//! result` line each, following every control through the app's scenario and analysis memos.

use leptos::prelude::*;

use super::page::PageMemos;
use crate::core::derivation::derive;
use crate::derivation_text::{lines, Line};

/// The panel (`view=derivation`).
#[component]
pub fn DerivationPanel() -> impl IntoView {
    let PageMemos { scenario, analysis, .. } = PageMemos::get();
    let printed = Memo::new(move |_| {
        let scenario = scenario.get();
        lines(&scenario, &derive(&scenario, &analysis.get()))
    });
    view! {
        <section id="derivation" class="panel derivation" data-panel="derivation" aria-labelledby="derivation-title">
            <h2 id="derivation-title">"The arithmetic"</h2>
            <p class="derivation-intro">
                "Every number of the worked example, recomputed for the current settings: formula = numbers = result."
            </p>
            <ol class="derivation-lines">
                {move || printed.get().into_iter().map(line_view).collect_view()}
            </ol>
        </section>
    }
}

/// One line: its label, then `formula = numbers = result`, then a note in words.
fn line_view(l: Line) -> impl IntoView {
    let numbers = (!l.numbers.is_empty()).then(|| view! { " = " <span class="numbers">{l.numbers}</span> });
    let result = (!l.result.is_empty()).then(|| view! { " = " <strong class="result">{l.result}</strong> });
    let note = (!l.note.is_empty()).then(|| view! { <span class="note">{l.note}</span> });
    view! {
        <li data-line=l.id>
            <span class="label">{l.label}</span>
            <span class="equation"><span class="formula">{l.formula}</span>{numbers}{result}</span>
            {note}
        </li>
    }
}
