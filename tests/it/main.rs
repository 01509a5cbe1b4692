//! The native integration tests as one test binary: each former `tests/<name>.rs` is the module
//! `<name>` here, so `cargo test` links the library into one executable instead of one per file.
//! Shared helpers live in `common`; the property tests' submodules live under `fuzz/`.

mod common;

mod architecture;
mod architecture_doc;
mod batch_chart_view;
mod batch_table;
mod bound_controls;
mod calibration;
mod calibration_panels;
mod calibration_references;
mod calibration_summary;
mod capacity_answers;
mod charts;
mod derivation;
mod explore;
mod export;
mod fit;
mod fuzz;
mod keys;
mod lesson_disaggregation;
mod lesson_speculative;
mod lessons;
mod measured;
mod measured_formats;
mod module_graph;
mod number_boxes;
mod panel_open;
mod panel_protocol;
mod path_batch;
mod per_operator;
mod placement;
mod prefix;
mod presentation;
mod presets;
mod roofline;
mod search;
mod search_state;
mod search_ui;
mod share;
mod sim;
mod sim_charts;
mod sim_decode_line;
mod sim_finishing;
mod sim_placement;
mod sim_plan;
mod sim_protocol;
mod sim_speculative;
mod sim_steady;
mod speculative;
mod state;
mod triangle_marker;
mod url_flags;
mod wasm_prebuild;
mod what_if;
