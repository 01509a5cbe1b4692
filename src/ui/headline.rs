//! The one-sentence lesson above the charts, with live numbers.

use leptos::prelude::*;

use crate::core::roofline::{Analysis, Scenario};
use crate::format::headline;

/// The headline; announced politely to screen readers when it changes.
#[component]
pub fn Headline(scenario: Memo<Scenario>, analysis: Memo<Analysis>) -> impl IntoView {
    view! {
        <p id="headline" class="headline" aria-live="polite">
            {move || headline(&scenario.get(), &analysis.get())}
        </p>
    }
}
