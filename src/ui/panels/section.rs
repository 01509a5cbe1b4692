//! One contract for a planning section, as egui's `Demo`: a type implements [`PlanningSection`] with
//! its [`Section`] (heading, hint, which panel's open flag opens it and how, its ideal-roofline note,
//! which lazy body it has) and its `body` (what the lazy module mounts and the one-file build draws),
//! and [`section_view`] draws every one of them the same way. The placement, search, simulator and
//! capacity sections are each one such `impl` beside their body, and a new section is one more.

use leptos::prelude::*;

use crate::protocol::panel::LazyBody;
use crate::state::open::{is_open, open_flag, set_open};
use crate::state::view::{Mode, Panel};
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
    /// What its note compares while the page prices on the ideal roofline; `None`: no note (a
    /// section whose figures are the measured engines' whatever the page prices with).
    pub figures: Option<IdealFigures>,
    pub opener: Opener,
    /// Its body, which the lazy module mounts (`crate::ui::shell::lazy_module`).
    pub body: LazyBody,
}

/// A planning section: its declaration and its body.
pub trait PlanningSection: 'static {
    const SECTION: Section;

    /// Draws the body: called by the lazy module, or in place by the one-file build. The page's
    /// module with lazy bodies never calls it, so none of a body's code is linked into the page (a
    /// function pointer kept in the declaration would be: 160 KB gzipped for the four).
    fn body() -> AnyView;
}

/// What draws a section's body where it goes: the lazy module's slot, or the body in place.
type BodySlot = std::sync::Arc<dyn Fn() -> AnyView + Send + Sync>;

/// Section `S`: its heading, ideal note and hint, then its opener and, while open, its body. Only
/// the slot is built per section; the rest is one function for all of them.
pub fn section_view<S: PlanningSection>() -> AnyView {
    let Section { opener, body, panel, .. } = S::SECTION;
    let slot: BodySlot = std::sync::Arc::new(move || match opener {
        Opener::Near => lazy_body_near(body, shown_alone(panel), S::body),
        Opener::Toggle { .. } | Opener::Button { .. } => lazy_body(body, S::body),
    });
    section_frame(S::SECTION, slot)
}

/// True while an embed or a presentation shows `panel` alone: a body that loads near the viewport
/// loads at once then.
fn shown_alone(panel: Option<Panel>) -> Signal<bool> {
    let view = PageState::get().view;
    Signal::derive(move || view.with(|v| v.mode != Mode::Page && Some(v.panel) == panel))
}

/// The section drawn around its body's `slot`.
fn section_frame(section: Section, slot: BodySlot) -> AnyView {
    let Section { id, panel, title, hint, figures, opener, .. } = section;
    let PageState { inputs, set_inputs, view, .. } = PageState::get();
    let open = Memo::new(move |_| panel.is_none_or(|p| is_open(&inputs.get(), &view.get(), p)));
    let flip = move |_| {
        if let Some(p) = panel {
            set_inputs.update(|i| set_open(i, p, !open_flag(i, p)));
        }
    };
    let hint = hint.map(|h| view! { <p class=h.class>{h.text}</p> });
    let toggle = match opener {
        Opener::Toggle { button_id, show, hide } => Some(view! {
            <button id=button_id type="button" aria-expanded=move || open.get().to_string()
                aria-controls=format!("{id}-body") on:click=flip>
                {move || if open.get() { hide } else { show }}
            </button>
        }),
        Opener::Button { .. } | Opener::Near => None,
    };
    let ask = move || match opener {
        Opener::Button { button_id, label } => {
            Some(view! { <button type="button" id=button_id on:click=flip>{label}</button> })
        }
        Opener::Toggle { .. } | Opener::Near => None,
    };
    view! {
        <section id=id class=format!("panel {id}") data-panel=panel.map(Panel::id)
            aria-labelledby=format!("{id}-title")>
            <h2 id=format!("{id}-title")>{title}</h2>
            {figures.map(|figures| view! { <IdealNote id=id figures=figures/> })}
            {hint}
            {toggle}
            <Show when=move || open.get() fallback=ask>{slot()}</Show>
        </section>
    }
    .into_any()
}
