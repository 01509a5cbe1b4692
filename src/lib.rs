//! Goodput Lab: throughput against goodput for LLM serving. The module map, one line each.

pub mod calibration_data; // data/calibration.csv into the core's published rows (native tooling)
pub mod chart; // drawing functions generic over plotters' DrawingBackend, one file per chart
pub use goodput_core as core; // the pure model (its own crate, src/core/): roofline, presets, batch table, curves, simulator
pub mod protocol; // the closed message sets between modules and workers (pure, postcard-encoded)
pub mod state; // URL and control values -> validated Inputs; Inputs -> URL
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui; // Leptos components in feature folders (browser only)
pub mod view; // view models: what the page prints (pure)
pub mod wide_ep_data; // data/wide-ep.csv into the core's wide-EP rows (native tooling)
#[cfg(target_arch = "wasm32")]
pub mod worker_scope; // the worker side of the module Web Workers (browser only)
