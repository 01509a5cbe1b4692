//! The browser half: Leptos components in feature folders (docs/architecture.md maps them), and the
//! glue that mounts them.

pub(crate) mod canvas;
pub(crate) mod controls;
pub(crate) mod explore;
#[cfg_attr(not(feature = "lazy_panels"), allow(unused))]
pub mod lazy;
pub(crate) mod panels;
pub(crate) mod share;
pub(crate) mod shell;
pub(crate) mod workers;

/// Installs the panic hook (console report, then the error banner) and mounts the app on `<body>`.
pub fn start() {
    shell::panic_banner::install();
    leptos::mount::mount_to_body(shell::app::App);
}
