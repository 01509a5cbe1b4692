//! Which panels are open: one rule from the `sim`, `search` and `place` keys and the view. A panel
//! a presentation or an embed shows (`view=`) is open; otherwise the simulator opens with `sim`,
//! the search with `search`, the placement comparison with any `place=` (or a disaggregated
//! placement); every other panel is always shown.

use super::view::{Mode, Panel, View};
use super::Inputs;
use crate::core::placement::PlacementMode;

/// Whether `panel` is open for `inputs` and `view`.
pub fn is_open(inputs: &Inputs, view: &View, panel: Panel) -> bool {
    let shown_by_view = view.mode != Mode::Page && view.panel == panel;
    shown_by_view
        || match panel {
            Panel::Sim => inputs.sim.open,
            Panel::Search => inputs.search.open,
            Panel::Placement => {
                inputs.placement.open || inputs.placement.mode == PlacementMode::Disaggregated
            }
            Panel::Rate | Panel::Step | Panel::Interactivity | Panel::Table | Panel::Derivation => true,
        }
}
