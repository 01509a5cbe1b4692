//! The one context every feature folder reads: the page's signals and memos (`page`), what a panel
//! body reads and where its changes go (`panel`, over the transport in `channel`), what the charts
//! and the table share (`linked`), the look (`theme`) and whether a part is in view (`in_view`).

pub(crate) mod channel;
pub(crate) mod in_view;
pub(crate) mod linked;
pub(crate) mod page;
pub(crate) mod panel;
pub(crate) mod theme;
