//! [`UrlId`]: how an enum the page's links name is spelled there, one short id per variant and back.
//! The core's own choices (precisions, engines, placement, the simulator's load, counting and
//! lengths) implement it beside their definitions; the state layer reads every enum-valued URL key
//! through it (`state::read`).

/// An enum with one id per variant, as a link (and the page's menus) carries it.
///
/// Assumes ids are lowercase ASCII and unique within the enum (tests/it/url_flags.rs checks both, and
/// that every id reads back as its variant), so a reader may lowercase what was typed.
pub trait UrlId: Copy + PartialEq + Sized + 'static {
    /// Every variant, in menu order.
    const VARIANTS: &'static [Self];

    /// The variant's id.
    fn url_id(self) -> &'static str;

    /// The variant whose id is exactly `id`, if any.
    fn from_url_id(id: &str) -> Option<Self> {
        Self::VARIANTS.iter().copied().find(|variant| variant.url_id() == id)
    }
}
