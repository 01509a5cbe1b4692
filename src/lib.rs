//! Goodput Lab: throughput against goodput for LLM serving. The module map, one line each.

pub mod calibration_data; // data/calibration.csv into the core's published rows (native tooling)
pub mod chart; // drawing functions generic over plotters' DrawingBackend, one file per chart
pub mod codec; // the postcard bytes every channel between the wasm modules carries
pub mod core; // the pure model: roofline, presets, batch table, curves
pub mod derivation_text; // the derivation panel's lines as text (pure)
pub mod export; // CSV of the tables and file names that say the scenario (pure)
pub mod format; // numbers and sentences as the page prints them
pub mod panel_protocol; // page <-> lazily loaded panels messages (pure, postcard-encoded)
pub mod search_protocol; // page <-> configuration search workers messages (pure, postcard-encoded)
pub mod share; // the scenario summary, share links and the embed snippet (pure)
pub mod sim_protocol; // page <-> simulator worker messages (pure, postcard-encoded)
pub mod state; // URL and control values -> validated Inputs; Inputs -> URL
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod worker_scope; // the worker side of the module Web Workers (browser only) // Leptos components (browser only)
