//! The teaching page above the panels: headline, explore bar, lessons, the batch table and the
//! published runs' table.

pub(crate) mod batch_rows;
pub(crate) mod batch_table;
pub(crate) mod explore_bar;
pub(crate) mod headline;
pub(crate) mod lessons;
pub(crate) mod published_table;
