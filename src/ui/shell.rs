//! The page's frame and state: the app, its signals and memos as context, the URL, notices, theme, the panic banner and JS errors' text.

pub(crate) mod app;
pub(crate) mod js_error;
pub(crate) mod notices;
pub(crate) mod page;
pub(crate) mod panic_banner;
pub(crate) mod theme;
pub(crate) mod theme_picker;
pub(crate) mod url;
