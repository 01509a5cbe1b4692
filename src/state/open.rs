//! Which panels are open: one rule from the `sim`, `search` and `place` keys and the view. A panel
//! a presentation or an embed shows (`view=`) is open; otherwise the simulator opens with `sim`,
//! the search with `search`, the placement comparison with any `place=` (or a disaggregated
//! placement); every other panel is always shown. Each of the three has one open flag (`open` on
//! its inputs), read by [`open_flag`] and written by [`set_open`].

use super::view::{Mode, Panel, View};
use super::Inputs;
use crate::core::placement::PlacementMode;

/// Whether `panel` is open for `inputs` and `view`.
pub fn is_open(inputs: &Inputs, view: &View, panel: Panel) -> bool {
    let shown_by_view = view.mode != Mode::Page && view.panel == panel;
    shown_by_view
        || match panel {
            Panel::Placement => {
                open_flag(inputs, panel) || inputs.placement.mode == PlacementMode::Disaggregated
            }
            Panel::Sim | Panel::Search => open_flag(inputs, panel),
            Panel::Rate
            | Panel::Step
            | Panel::Interactivity
            | Panel::Table
            | Panel::Derivation
            | Panel::Accuracy => true,
        }
}

/// Whether `panel` has an open flag: it stays closed on the page until asked for.
pub fn has_open_flag(panel: Panel) -> bool {
    matches!(panel, Panel::Sim | Panel::Search | Panel::Placement)
}

/// The open flag of `panel` (`sim=1`, `search=1`, `place=`); false for a panel that has none.
pub fn open_flag(inputs: &Inputs, panel: Panel) -> bool {
    match panel {
        Panel::Sim => inputs.sim.open,
        Panel::Search => inputs.search.open,
        Panel::Placement => inputs.placement.open,
        Panel::Rate
        | Panel::Step
        | Panel::Interactivity
        | Panel::Table
        | Panel::Derivation
        | Panel::Accuracy => false,
    }
}

/// Sets the open flag of `panel` (a panel without one, always shown, is left as it is).
pub fn set_open(inputs: &mut Inputs, panel: Panel, open: bool) {
    match panel {
        Panel::Sim => inputs.sim.open = open,
        Panel::Search => inputs.search.open = open,
        Panel::Placement => inputs.placement.open = open,
        Panel::Rate
        | Panel::Step
        | Panel::Interactivity
        | Panel::Table
        | Panel::Derivation
        | Panel::Accuracy => {}
    }
}
