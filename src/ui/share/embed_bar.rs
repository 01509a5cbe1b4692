//! Embed mode's only chrome: the scenario in one line and a link that opens the full page with
//! the same state in a new tab. Also opens the simulator when an embed (or a presentation) starts on it.

use leptos::prelude::*;

use crate::state::view::Mode;
use crate::ui::context::page::PageState;
use crate::view::share::{full_page_query, scenario_summary};

/// Shown only with `embed=1`; with `view=sim` (embedded or presented) it opens the simulator so its
/// charts draw.
#[component]
pub fn EmbedBar() -> impl IntoView {
    let page = PageState::get();
    let PageState { inputs, view, your_points: measured, .. } = page;
    page.open_sim_if_shown();
    let full_page =
        move || format!("{}?{}", page_path(), full_page_query(&inputs.get(), &view.get(), &measured.get()));
    view! {
        <Show when=move || view.get().mode == Mode::Embed>
            <div id="embed-bar" class="embed-bar">
                <p id="embed-summary" class="embed-summary">{move || scenario_summary(&inputs.get())}</p>
                <a id="embed-open" class="embed-open" href=full_page target="_blank" rel="noopener">
                    "Open in Goodput Lab"<span class="visually-hidden">" (opens in a new tab)"</span>
                </a>
            </div>
        </Show>
    }
}

/// The page's path (no query or fragment), so the link works under any sub-path.
fn page_path() -> String {
    web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default()
}
