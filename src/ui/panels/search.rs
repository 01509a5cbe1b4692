//! The configuration search panel: its page side and lazy body, the frontier chart, the table with its filters, and the price editor.

pub(crate) mod chart;
pub(crate) mod panel;
pub(crate) mod prices;
pub(crate) mod table;
pub(crate) mod view;
