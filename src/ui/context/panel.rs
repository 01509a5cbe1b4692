//! The one contract between the page and every panel body: [`PanelContext`], one `Copy` bundle of
//! what a body reads (the page's inputs, view and your points, the core's scenario and analysis,
//! the look) and where its controls send a change ([`Changes`]). The page provides it over its own
//! signals ([`Changes::Page`]); the lazy module provides it, under the same type, over its mirror of
//! the last state the page sent ([`Changes::Channel`]). Bodies read it and take no inputs as props.

use leptos::prelude::*;

use crate::core::fit::YourPoint;
use crate::core::roofline::Analysis;
use crate::core::scenario::Scenario;
use crate::protocol::panel::{changes, PanelState, ToPage};
use crate::state::view::Look;
use crate::state::view::View;
use crate::state::Inputs;
use crate::ui::context::channel::Changes;

/// What a panel body reads, and where its changes go.
#[derive(Clone, Copy)]
pub struct PanelContext {
    pub inputs: ReadSignal<Inputs>,
    pub view: ReadSignal<View>,
    pub your_points: ReadSignal<Vec<YourPoint>>,
    pub scenario: Memo<Scenario>,
    pub analysis: Memo<Analysis>,
    pub look: Signal<Look>,
    pub changes: Changes,
}

impl PanelContext {
    /// The nearest provided context: the page's, or the lazy module's for the body it mounted. A
    /// body outside both is a wiring bug, reported (a panic shows the page's error banner) rather
    /// than guessed: a guess would send a change nowhere or name a download after the wrong scenario.
    pub fn get() -> PanelContext {
        expect_context::<PanelContext>()
    }

    /// The state as the page would send it, read without tracking (the lazy module's exports).
    #[cfg_attr(not(feature = "lazy_panels"), allow(dead_code))]
    pub fn state_untracked(self) -> PanelState {
        PanelState {
            inputs: self.inputs.get_untracked(),
            view: self.view.get_untracked(),
            your_points: self.your_points.get_untracked(),
        }
    }

    /// Sends a person's change to whoever owns the state.
    pub fn send(self, message: ToPage) {
        self.changes.send(message);
    }

    /// Changes the inputs with `f`. On the page the signal changes in place; over the channel the
    /// change travels as the [`ToPage`] messages that carry it ([`changes`]). A change that no
    /// message carries is a wiring bug, caught natively by `tests/it/bound_controls.rs` for every
    /// bound control and reported here in the console should one slip through.
    pub fn update(self, f: impl FnOnce(&mut Inputs)) {
        match self.changes {
            Changes::Page { inputs: (_, set_inputs), .. } => set_inputs.update(f),
            Changes::Channel => {
                let now = self.inputs.get_untracked();
                let mut next = now;
                f(&mut next);
                let messages = changes(&now, &next);
                if messages.is_empty() && next != now {
                    leptos::logging::error!("a panel control changed a field no ToPage message carries");
                }
                messages.into_iter().for_each(|message| self.send(message));
            }
        }
    }
}
