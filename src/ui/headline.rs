//! The one-sentence lesson above the charts, with live numbers.

use leptos::prelude::*;

use super::page::PageMemos;
use crate::format::headline;

/// The headline; announced politely to screen readers when it changes.
#[component]
pub fn Headline() -> impl IntoView {
    let PageMemos { scenario, analysis, .. } = PageMemos::get();
    view! {
        <p id="headline" class="headline" aria-live="polite">
            {move || headline(&scenario.get(), &analysis.get())}
        </p>
    }
}
