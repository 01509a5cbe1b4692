//! View models: what the page prints, as pure functions of the core's results (natively tested).

pub mod batch_chart; // the batch charts' text alternatives and the panel each is
pub mod derivation_text; // the derivation panel's lines as text
pub mod export; // CSV of the tables and file names that say the scenario
pub mod format; // numbers and sentences as the page prints them
pub mod search_chart; // the search chart's points, frontier and text alternative
pub mod share; // the scenario summary, share links and the embed snippet
