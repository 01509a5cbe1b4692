//! The browser half: Leptos components, one per file, and the glue that mounts them.

mod animate;
mod app;
mod batch_rows;
mod batch_table;
mod calibration_control;
mod canvas_backend;
mod canvas_calls;
mod capacity;
mod channel;
mod chart_canvas;
mod chart_overlay;
mod controls;
mod custom_fields;
mod derivation;
mod drag;
mod embed_bar;
mod export;
#[cfg(feature = "lazy_panels")]
pub mod extras;
mod frame_draw;
mod headline;
mod ideal_note;
mod keys;
#[cfg(feature = "lazy_panels")]
mod lazy;
mod lessons;
mod linked;
mod measured;
mod notices;
mod page;
mod panic_banner;
mod placement;
mod prefix_controls;
mod published_table;
mod search_chart;
mod search_panel;
mod search_prices;
mod search_runner;
mod search_table;
mod share;
mod sim_charts;
mod sim_controls;
mod sim_flight;
mod sim_panel;
mod sim_placement;
mod sim_runner;
mod sim_table;
mod sim_worker;
mod spec_controls;
mod text_measure;
mod theme;
mod theme_picker;
mod url;
mod widgets;
pub(crate) mod worker;

/// Installs the panic hook (console report, then the error banner) and mounts the app on `<body>`.
pub fn start() {
    panic_banner::install();
    leptos::mount::mount_to_body(app::App);
}
