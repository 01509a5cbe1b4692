//! The browser half: Leptos components, one per file, and the glue that mounts them.

mod animate;
mod app;
mod batch_table;
mod capacity;
mod chart_canvas;
mod chart_overlay;
mod controls;
mod custom_fields;
mod derivation;
mod embed_bar;
mod export;
#[cfg(feature = "islands")]
pub mod extras;
mod headline;
mod island;
mod keys;
#[cfg(feature = "islands")]
mod lazy;
mod lessons;
mod linked;
mod measured;
mod notices;
mod share;
mod sim_charts;
mod sim_controls;
mod sim_panel;
mod sim_runner;
mod sim_table;
mod sim_worker;
mod theme;
mod theme_picker;
mod url;
mod widgets;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
