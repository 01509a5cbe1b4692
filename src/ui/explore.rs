//! The teaching page above the panels: headline, explore bar, lessons, the batch table and what the charts and table share.

pub(crate) mod batch_rows;
pub(crate) mod batch_table;
pub(crate) mod explore_bar;
pub(crate) mod headline;
pub(crate) mod in_view;
pub(crate) mod lessons;
pub(crate) mod linked;
pub(crate) mod published_table;
