//! Sharing the page: the masthead's Share menu (copy link, copy embed code) and embed mode's bar.

pub(crate) mod embed_bar;
pub(crate) mod menu;
