//! Lazy bodies: panel bodies that live in a second wasm module (`goodput_lazy`, built with the
//! `lazy_panels` feature) the page fetches when a panel first opens: `body` where a body goes on
//! the page, `page` the element it mounts into, `exports` the module's exports as typed functions.
//! The second module's own side is `crate::ui::shell::lazy_module`; the messages are
//! `crate::protocol::panel`, carried by `crate::ui::context::channel`.

pub(crate) mod body;
#[cfg(feature = "lazy_panels")]
pub(crate) mod exports;
#[cfg(feature = "lazy_panels")]
pub(crate) mod page;
