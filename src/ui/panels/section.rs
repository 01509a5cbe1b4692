//! One contract for a planning section, as egui's `Demo`: a [`Section`] declares its heading, hint,
//! which panel's open flag opens it and how, its ideal-roofline note, and its lazy body (what the
//! lazy module mounts and the one-file build draws); [`PlanningSection`] draws every one of them the
//! same way. The placement, search, simulator and capacity sections are each one `Section` constant
//! beside their body, and a new section is one more.

use leptos::prelude::*;

use crate::protocol::panel::LazyBody;
use crate::state::open::{is_open, open_flag, set_open};
use crate::state::view::Panel;
use crate::ui::context::page::PageState;
use crate::ui::lazy::body::{lazy_body, lazy_body_near};
use crate::ui::panels::ideal_note::{IdealFigures, IdealNote};

/// How a section's body opens.
#[derive(Clone, Copy, Debug)]
pub enum Opener {
    /// A button that shows and hides the body (`aria-expanded`, controlling `{section}-body`).
    Toggle { button_id: &'static str, show: &'static str, hide: &'static str },
    /// A button shown while the body is closed; the body, once open, has no close.
    Button { button_id: &'static str, label: &'static str },
    /// No button: the section is always open and its body loads when it first comes near the viewport.
    Near,
}

/// The paragraph under a section's heading.
#[derive(Clone, Copy, Debug)]
pub struct Hint {
    /// Its class (the style sheet places the simulator's intro apart from the others' hints).
    pub class: &'static str,
    pub text: &'static str,
}

/// One planning section, declared.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    /// The `<section>`'s id, the prefix of its title's and its ideal note's ids.
    pub id: &'static str,
    /// The `view=` panel it is, whose open flag and rule ([`is_open`]) open it; `None`: none.
    pub panel: Option<Panel>,
    pub title: &'static str,
    pub hint: Option<Hint>,
    /// What its note compares while the page prices on the ideal roofline.
    pub figures: IdealFigures,
    pub opener: Opener,
    /// Its body, which the lazy module mounts (`crate::ui::shell::lazy_module`).
    pub body: LazyBody,
    /// Draws the body (in the lazy module, or in place in the one-file build).
    pub draw_body: fn() -> AnyView,
}

/// Any [`Section`]: its heading, ideal note and hint, then its opener and, while open, its body.
#[component]
pub fn PlanningSection(section: &'static Section) -> impl IntoView {
    let Section { id, panel, title, hint, figures, opener, body, draw_body } = *section;
    let PageState { inputs, set_inputs, view, .. } = PageState::get();
    let open = Memo::new(move |_| panel.is_none_or(|p| is_open(&inputs.get(), &view.get(), p)));
    let flip = move |_| {
        if let Some(p) = panel {
            set_inputs.update(|i| set_open(i, p, !open_flag(i, p)));
        }
    };
    let hint = hint.map(|h| view! { <p class=h.class>{h.text}</p> });
    let content = match opener {
        Opener::Near => lazy_body_near(body, Signal::derive(|| false), draw_body),
        Opener::Toggle { button_id, show, hide } => view! {
            <button id=button_id type="button" aria-expanded=move || open.get().to_string()
                aria-controls=format!("{id}-body") on:click=flip>
                {move || if open.get() { hide } else { show }}
            </button>
            <Show when=move || open.get()>{lazy_body(body, draw_body)}</Show>
        }
        .into_any(),
        Opener::Button { button_id, label } => {
            let ask = move || view! { <button type="button" id=button_id on:click=flip>{label}</button> };
            view! { <Show when=move || open.get() fallback=ask>{lazy_body(body, draw_body)}</Show> }
                .into_any()
        }
    };
    view! {
        <section id=id class=format!("panel {id}") data-panel=panel.map(Panel::id)
            aria-labelledby=format!("{id}-title")>
            <h2 id=format!("{id}-title")>{title}</h2>
            <IdealNote id=id figures=figures/>
            {hint}
            {content}
        </section>
    }
}
