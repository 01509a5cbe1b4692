//! The bytes every channel between the page's wasm modules carries: postcard, one place for both
//! protocols ([`crate::protocol::sim`], [`crate::protocol::search`], [`crate::protocol::panel`]).

use serde::{Deserialize, Serialize};

/// What every worker posts, as a string, once its message handler is installed; replies are bytes.
pub const READY: &str = "ready";

/// What a worker says about itself, as a string beside its replies (which are bytes): the closed set
/// of its signals to the page's pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerSignal {
    /// Its message handler is installed: messages posted from now on are heard.
    Ready,
    /// It has answered one more message (after all that message's replies), and its wasm linear
    /// memory is `memory_bytes` now against `start_memory_bytes` when it started listening. A linear
    /// memory never shrinks, so the page retires an idle worker that grew (`crate::ui::workers::pool`).
    Answered { memory_bytes: u64, start_memory_bytes: u64 },
}

impl WorkerSignal {
    /// The signal as the string the worker posts: `ready`, or `answered <memory> <start memory>`.
    pub fn to_text(self) -> String {
        match self {
            WorkerSignal::Ready => READY.to_owned(),
            WorkerSignal::Answered { memory_bytes, start_memory_bytes } => {
                format!("answered {memory_bytes} {start_memory_bytes}")
            }
        }
    }

    /// The signal a posted string carries, or `None` for any other string.
    pub fn parse(text: &str) -> Option<WorkerSignal> {
        if text == READY {
            return Some(WorkerSignal::Ready);
        }
        let mut words = text.strip_prefix("answered ")?.split(' ');
        let memory_bytes = words.next()?.parse().ok()?;
        let start_memory_bytes = words.next()?.parse().ok()?;
        words.next().is_none().then_some(WorkerSignal::Answered { memory_bytes, start_memory_bytes })
    }

    /// True for a worker that has answered all it was sent and whose memory grew since it started.
    pub fn grew(self) -> bool {
        matches!(self, WorkerSignal::Answered { memory_bytes, start_memory_bytes } if memory_bytes > start_memory_bytes)
    }
}

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
