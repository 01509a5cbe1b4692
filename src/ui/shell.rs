//! The page's frame and state: the app, its signals and memos as context, the URL, notices, theme and the panic banner.

pub(crate) mod app;
pub(crate) mod notices;
pub(crate) mod page;
pub(crate) mod panic_banner;
pub(crate) mod theme;
pub(crate) mod theme_picker;
pub(crate) mod url;
