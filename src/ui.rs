//! The browser half: Leptos components in folders by layer (docs/architecture.md maps them, and
//! `tests/it/layers.rs` holds the order): `shell` on top (the page's app and the lazy module's);
//! the features beside it, each naming none of the others (`controls`, `explore`, `panels`,
//! `share`); the parts they build with (`widgets`, `canvas`, `lazy`); the one context they all read
//! (`context`); and at the bottom `workers` and `js_error`, which know no page state.

pub(crate) mod canvas;
pub(crate) mod context;
pub(crate) mod controls;
pub(crate) mod explore;
pub(crate) mod js_error;
#[cfg_attr(not(feature = "lazy_panels"), allow(unused))]
pub mod lazy;
pub(crate) mod panels;
pub(crate) mod share;
pub mod shell;
pub(crate) mod widgets;
pub(crate) mod workers;

/// Installs the panic hook (console report, then the error banner) and mounts the app on `<body>`.
pub fn start() {
    shell::panic_banner::install();
    leptos::mount::mount_to_body(shell::app::App);
}
