//! The `trace` URL key: a small trace inline, a large one by its summary, so a link says which
//! trace it needs.
//!
//! - Inline, `i:` then one item per request joined by `_`; an item is `arrival_ms-prompt-output`
//!   or `arrival_ms-prompt-output-session` (arrival in ms from the first request, to 3 decimals;
//!   `trace=i:0-512-64_250-900-32-1`). Written when the trace has at most [`INLINE_MAX_REQUESTS`]
//!   requests, the value fits in [`INLINE_MAX_CHARS`] characters, and reading it back gives the
//!   same content hash (its blocks are the ones its sessions synthesize: no `hash_ids`, no named
//!   prefix).
//! - Otherwise the summary, `h:` + the content hash (16 hex digits) + `:` requests + `:` duration
//!   in s (to 1 ms): `trace=h:0123456789abcdef:23608:3600`. The trace itself stays in the page; a
//!   link opened elsewhere says which trace to load and the simulator keeps its own arrivals.
//!
//! A value that is neither falls back to no trace with a notice naming the key and both forms.

use super::assemble::assemble;
use super::values::{id, time_us, tokens, Cell};
use super::{RequestTrace, Row, RowBlocks, Rows, TraceError, TraceFormat, MAX_REQUESTS, MAX_TIME_S};
use crate::core::traffic::stats::content_hash;
use crate::state::fields::{quoted, trim_decimal};
use crate::state::{Notice, RawQuery};
use serde::{Deserialize, Serialize};

/// The URL key.
pub const KEY: &str = "trace";
/// Most requests an inline trace carries.
pub const INLINE_MAX_REQUESTS: usize = 64;
/// The longest inline value, in characters (`i:` included).
pub const INLINE_MAX_CHARS: usize = 1500;

/// An inline trace's value, held by value so the inputs stay `Copy`: at most [`INLINE_MAX_CHARS`]
/// ASCII characters, always the canonical form of a trace that reads back.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct InlineText {
    len: u16,
    bytes: [u8; INLINE_MAX_CHARS],
}

impl InlineText {
    /// The value as written (`i:…`).
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl std::fmt::Debug for InlineText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InlineText({:?})", self.as_str())
    }
}

impl TryFrom<String> for InlineText {
    type Error = String;

    fn try_from(text: String) -> Result<InlineText, String> {
        if text.len() > INLINE_MAX_CHARS || !text.is_ascii() {
            return Err(format!("an inline trace is at most {INLINE_MAX_CHARS} ASCII characters"));
        }
        let mut bytes = [0u8; INLINE_MAX_CHARS];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Ok(InlineText { len: text.len() as u16, bytes })
    }
}

impl From<InlineText> for String {
    fn from(text: InlineText) -> String {
        text.as_str().to_string()
    }
}

/// Which trace a link needs: its content hash, requests and duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceSummary {
    pub hash: u64,
    pub requests: u32,
    /// The last arrival, in whole ms.
    pub duration_ms: u64,
}

impl TraceSummary {
    /// The summary of `trace`.
    pub fn of(trace: &RequestTrace) -> TraceSummary {
        let duration_s = trace.requests.last().map_or(0.0, |r| r.arrival_s);
        TraceSummary {
            hash: content_hash(trace),
            requests: trace.requests.len() as u32,
            duration_ms: (duration_s * 1e3).round() as u64,
        }
    }

    /// "23,608 requests over 3,600 s (hash 0123456789abcdef)".
    pub fn describe(&self) -> String {
        let n = super::grouped(u64::from(self.requests));
        let s = if self.requests == 1 { "" } else { "s" };
        let duration = trim_decimal(self.duration_ms as f64 / 1e3);
        format!("{n} request{s} over {duration} s (hash {:016x})", self.hash)
    }
}

/// The `trace` key's value: none, a trace inline, or the summary of one kept in the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceKey {
    #[default]
    None,
    Inline(InlineText),
    Summary(TraceSummary),
}

impl TraceKey {
    /// The key for `trace`: inline when it fits and reads back to the same content, else its summary.
    pub fn of(trace: &RequestTrace) -> TraceKey {
        let summary = TraceSummary::of(trace);
        if trace.requests.len() <= INLINE_MAX_REQUESTS {
            let text = encode_inline(trace);
            let same = decode_inline(&text).is_ok_and(|back| content_hash(&back) == summary.hash);
            if let (true, Ok(inline)) = (same, InlineText::try_from(text)) {
                return TraceKey::Inline(inline);
            }
        }
        TraceKey::Summary(summary)
    }

    /// The summary of the trace this key names (an inline one decoded).
    pub fn summary(&self) -> Option<TraceSummary> {
        match self {
            TraceKey::None => None,
            TraceKey::Inline(text) => decode_inline(text.as_str()).ok().map(|t| TraceSummary::of(&t)),
            TraceKey::Summary(s) => Some(*s),
        }
    }

    /// The value as the URL carries it, or `None` for no trace.
    pub fn value(&self) -> Option<String> {
        match self {
            TraceKey::None => None,
            TraceKey::Inline(text) => Some(text.as_str().to_string()),
            TraceKey::Summary(s) => {
                Some(format!("h:{:016x}:{}:{}", s.hash, s.requests, trim_decimal(s.duration_ms as f64 / 1e3)))
            }
        }
    }
}

/// The inline form of `trace` (`i:` and its items), whatever its length.
pub fn encode_inline(trace: &RequestTrace) -> String {
    let items: Vec<String> = trace
        .requests
        .iter()
        .map(|r| {
            let at = trim_decimal(r.arrival_s * 1e3);
            let session = r.session.map_or(String::new(), |s| format!("-{s}"));
            format!("{at}-{}-{}{session}", r.prompt_tokens, r.output_tokens)
        })
        .collect();
    format!("i:{}", items.join("_"))
}

/// An inline value (`i:…`) as a trace, read and normalized as a plain trace's lines are.
pub fn decode_inline(text: &str) -> Result<RequestTrace, TraceError> {
    let body = text.trim().strip_prefix("i:").ok_or_else(|| TraceError::file("it does not start with i:"))?;
    let mut rows = Rows::default();
    for (i, item) in body.split('_').enumerate() {
        let n = i as u64 + 1;
        if i >= INLINE_MAX_REQUESTS.min(MAX_REQUESTS) {
            return Err(TraceError::line(n, format!("more than {INLINE_MAX_REQUESTS} requests")));
        }
        let parts: Vec<&str> = item.split('-').collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(TraceError::line(n, "is not arrival_ms-prompt-output[-session]"));
        }
        let row = Row {
            line: n,
            arrival_us: time_us(Cell::Text(parts[0]), n, "arrival_ms", 1e-3)?,
            prompt_tokens: tokens(Cell::Text(parts[1]), n, "prompt_tokens", 1)?,
            output_tokens: tokens(Cell::Text(parts[2]), n, "output_tokens", 1)?,
            session: parts.get(3).map(|s| id(Cell::Text(s), n, "session")).transpose()?.flatten(),
            blocks: RowBlocks::Unnamed,
        };
        rows.push(row)?;
    }
    Ok(assemble(TraceFormat::Plain, rows.finish())?.trace)
}

/// `h:` + 16 hex digits + `:` requests + `:` duration in s.
fn parse_summary(text: &str) -> Option<TraceSummary> {
    let mut parts = text.trim().strip_prefix("h:")?.split(':');
    let (hash, requests, duration) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || hash.len() != 16 {
        return None;
    }
    let hash = u64::from_str_radix(hash, 16).ok()?;
    let requests = requests.parse::<u32>().ok().filter(|n| (1..=MAX_REQUESTS as u32).contains(n))?;
    let duration_s = duration.parse::<f64>().ok().filter(|d| (0.0..=MAX_TIME_S).contains(d))?;
    Some(TraceSummary { hash, requests, duration_ms: (duration_s * 1e3).round() as u64 })
}

/// Reads `trace=`: absent is no trace; an inline trace that reads is kept in its canonical form, a
/// summary as written (to 1 ms); anything else is no trace, with a notice.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> TraceKey {
    let Some(text) = raw.get(KEY) else { return TraceKey::None };
    let why = if text.trim().starts_with("i:") {
        match decode_inline(text) {
            Ok(trace) => match TraceKey::of(&trace) {
                key @ TraceKey::Inline(_) => return key,
                _ => "it does not fit inline".to_string(),
            },
            Err(e) => e.message.replace("line ", "item ").trim_end_matches('.').chars().take(90).collect(),
        }
    } else if let Some(summary) = parse_summary(text) {
        return TraceKey::Summary(summary);
    } else {
        "not i:arrival_ms-prompt-output_… nor h:hash:requests:duration_s".to_string()
    };
    notices.push(Notice {
        key: KEY,
        message: format!("{KEY}={} is not a trace ({why}); no trace.", quoted(text)),
    });
    TraceKey::None
}

/// The query pair, when there is a trace.
pub fn pairs(key: &TraceKey) -> Vec<(&'static str, String)> {
    key.value().map(|v| (KEY, v)).into_iter().collect()
}

/// What the page's trace should become for a `trace` key, given the hash of the trace it holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolve {
    /// No key: no trace.
    Clear,
    /// The trace held is the one the key names.
    Keep,
    /// An inline key for another trace: this one, decoded.
    Inline(RequestTrace),
    /// A summary of a trace the page does not hold: the simulator keeps its own arrivals and the
    /// page says which trace to load.
    Needed(TraceSummary),
}

/// [`Resolve`] for `key` while the page holds a trace of content hash `held` (or none).
pub fn resolve(key: &TraceKey, held: Option<u64>) -> Resolve {
    match key {
        TraceKey::None => Resolve::Clear,
        TraceKey::Summary(s) if held == Some(s.hash) => Resolve::Keep,
        TraceKey::Summary(s) => Resolve::Needed(*s),
        TraceKey::Inline(text) => match decode_inline(text.as_str()) {
            Ok(trace) if held == Some(content_hash(&trace)) => Resolve::Keep,
            Ok(trace) => Resolve::Inline(trace),
            Err(_) => Resolve::Clear,
        },
    }
}
