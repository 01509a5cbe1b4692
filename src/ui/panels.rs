//! The planning panels below the charts, one file or folder each: their page side (heading, open button, ideal note) and their lazy bodies.

pub(crate) mod accuracy;
pub(crate) mod capacity;
pub(crate) mod derivation;
pub(crate) mod ideal_note;
pub(crate) mod measured;
pub(crate) mod placement;
pub(crate) mod search;
pub(crate) mod section;
pub(crate) mod sim;
