//! Lazy bodies: panel bodies that live in a second wasm module (`goodput_lazy`, built with the
//! `lazy_panels` feature) the page fetches when a panel first opens. `page` is the page's side
//! (the element a body mounts into), `module` the second module's side, `channel` the typed
//! messages between them (`crate::protocol::panel`).

pub(crate) mod body;
pub(crate) mod channel;
#[cfg(feature = "lazy_panels")]
pub mod module;
#[cfg(feature = "lazy_panels")]
pub(crate) mod page;
