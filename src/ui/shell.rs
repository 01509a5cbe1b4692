//! The top of the browser half: the page's app (`app`) and the lazy module's (`lazy_module`, the
//! bodies it mounts), the URL writer, notices and the panic banner. Only this folder names the
//! feature folders.

pub(crate) mod app;
#[cfg(feature = "lazy_panels")]
pub mod lazy_module;
pub(crate) mod notices;
pub(crate) mod panic_banner;
pub(crate) mod url;
