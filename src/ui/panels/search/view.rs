//! What the search body's parts (chart, table, panel) share, provided as context by the body.

use leptos::prelude::*;

use crate::ui::workers::search_runner::SearchRun;

/// What the body's parts share: the run, the shown rows (indices into the run's rows, filtered and
/// sorted) and the hovered row (an index into the run's rows), for the linked hover.
#[derive(Clone, Copy)]
pub struct SearchView {
    pub run: SearchRun,
    pub shown: Memo<Vec<usize>>,
    pub hovered: RwSignal<Option<usize>>,
}
