//! Notices for values the page could not use as given (a bad URL), each dismissable.

use leptos::prelude::*;

use crate::state::Notice;

/// The list of notices, hidden once empty.
#[component]
pub fn Notices(initial: Vec<Notice>) -> impl IntoView {
    let (notices, set_notices) = signal(initial);
    let dismiss = move |_| set_notices.set(Vec::new());
    view! {
        <Show when=move || !notices.get().is_empty()>
            <div id="notices" class="notices" role="status">
                <p class="notices-title">"Some values in the link could not be used:"</p>
                <ul>
                    {move || notices.get().into_iter().map(|notice| view! {
                        <li class="notice" data-key=notice.key>{notice.message}</li>
                    }).collect_view()}
                </ul>
                <button type="button" class="dismiss" on:click=dismiss>"Dismiss"</button>
            </div>
        </Show>
    }
}
