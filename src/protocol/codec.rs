//! The bytes every channel between the page's wasm modules carries: postcard, one place for both
//! protocols ([`crate::protocol::sim`], [`crate::protocol::search`], [`crate::protocol::panel`]).

use serde::{Deserialize, Serialize};

/// What every worker posts, as a string, once its message handler is installed; replies are bytes.
pub const READY: &str = "ready";

/// A job or reply that names the request it belongs to (its `seq`): a worker pool hears only the
/// replies to the request it last posted.
pub trait Numbered {
    fn seq(&self) -> u32;
}

/// `message` as bytes (empty if it could not be encoded, which decodes to `None`).
pub fn to_bytes<T: Serialize>(message: &T) -> Vec<u8> {
    postcard::to_allocvec(message).unwrap_or_default()
}

/// The message in `bytes`, or `None` for bytes that are not one (a module of another build).
pub fn from_bytes<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}
