//! The simulator panel: its page side and lazy body, controls, charts, the placement chart and the text tables.

pub(crate) mod charts;
pub(crate) mod controls;
pub(crate) mod fleet;
pub(crate) mod panel;
pub(crate) mod placement;
pub(crate) mod table;
pub(crate) mod trace;
