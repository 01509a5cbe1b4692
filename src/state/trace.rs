//! The edge for traffic traces: pasted or dropped text in any of the published formats (Mooncake's
//! JSON lines, the Azure LLM inference trace CSV, BurstGPT's CSV, a plain CSV or JSON lines) into
//! one validated [`RequestTrace`] with remarks beside it, or a [`TraceError`] naming the line and
//! the field; and the `trace` URL key ([`url`]). Nothing read here is sent anywhere.
//!
//! The format is told from the content ([`read_trace`]); Azure's and BurstGPT's columns are rows of
//! one table (`columns`), the others' in their own files, and every reader yields [`Row`]s, which [`assemble`] normalizes the same way for all: sorted by
//! arrival (stably, with a remark when the file was not), shifted so the first arrives at 0 s,
//! arrivals kept to 1 µs, session and prefix ids numbered by first appearance, block hashes given or
//! synthesized (`core::traffic::blocks`).

mod assemble;
mod columns;
mod csv_rows;
mod json_lines;
mod mooncake;
mod plain;
pub mod url;
mod values;

pub use crate::core::traffic::{RequestTrace, TraceFormat, TraceRequest};
use std::fmt;

/// Most requests one trace may hold.
pub const MAX_REQUESTS: usize = 1_000_000;
/// The longest prompt or output accepted, in tokens (2^24).
pub const MAX_TOKENS: u32 = 1 << 24;
/// The latest arrival accepted, in s from the clock's zero (10^10 s: epoch seconds fit easily).
pub const MAX_TIME_S: f64 = 1e10;
/// Most block hashes one trace may hold in all (2^24, 128 MB of hashes).
pub const MAX_BLOCKS: usize = 1 << 24;

/// The format's name, as the trace panel shows it.
pub fn format_label(format: TraceFormat) -> &'static str {
    match format {
        TraceFormat::Mooncake => "Mooncake trace (JSON lines)",
        TraceFormat::Azure => "Azure LLM inference trace (CSV)",
        TraceFormat::BurstGpt => "BurstGPT trace (CSV)",
        TraceFormat::Plain => "plain trace",
    }
}

/// A count with its thousands grouped by commas (`16,777,216`).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A trace read from a file, and what is worth knowing about it.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceUpload {
    pub trace: RequestTrace,
    /// Non-fatal remarks: rows skipped (and how many), arrivals sorted, block hashes synthesized.
    pub remarks: Vec<String>,
    /// Data rows left out, each counted in a remark (a failed request with 0 response tokens).
    pub skipped_rows: usize,
}

/// Why a trace could not be read: the line (1-based) and the field when there is one, and the
/// whole message, which names both ("line 7: `input_length` “abc” is not a whole number …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub line: Option<u64>,
    pub field: Option<String>,
    pub message: String,
}

impl TraceError {
    /// A problem with `field` on `line`: "line N: `field` what.".
    pub fn at(line: u64, field: &str, what: impl fmt::Display) -> TraceError {
        let message = format!("line {line}: `{field}` {what}.");
        TraceError { line: Some(line), field: Some(field.to_string()), message }
    }

    /// A problem with `line` as a whole: "line N: what.".
    pub fn line(line: u64, what: impl fmt::Display) -> TraceError {
        TraceError { line: Some(line), field: None, message: format!("line {line}: {what}.") }
    }

    /// A problem with the whole file.
    pub fn file(what: impl fmt::Display) -> TraceError {
        TraceError { line: None, field: None, message: format!("{what}.") }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The prompt's prefix blocks as a line gives them.
#[derive(Clone, Debug, PartialEq)]
enum RowBlocks {
    /// None given: synthesized from the session, if any.
    Unnamed,
    /// `hash_ids`, as given.
    Given(Vec<u64>),
    /// A named shared prefix of so many tokens.
    Prefix { id: String, tokens: u32 },
}

/// One data line, read but not yet normalized.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    pub line: u64,
    /// On the file's own clock, in µs.
    pub arrival_us: i64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    pub session: Option<String>,
    pub blocks: RowBlocks,
}

/// What one format's reader gives: its rows, the data lines it skipped (each kind counted in a
/// remark) and its remarks.
#[derive(Debug, Default)]
struct Rows {
    pub rows: Vec<Row>,
    pub skipped: usize,
    pub remarks: Vec<String>,
    /// Each reason to skip a line, with its count, in order of first use.
    skips: Vec<(&'static str, usize)>,
}

impl Rows {
    /// Takes one line's outcome: its request, or one more line skipped for its reason.
    fn take(&mut self, read: values::Read) -> Result<(), TraceError> {
        match read {
            values::Read::Row(row) => self.push(row),
            values::Read::Skip(reason) => {
                self.skipped += 1;
                match self.skips.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, n)) => *n += 1,
                    None => self.skips.push((reason, 1)),
                }
                Ok(())
            }
        }
    }

    /// The rows with a remark for each reason lines were skipped: "Skipped 3 lines with …".
    pub(super) fn finish(mut self) -> Rows {
        for (reason, n) in std::mem::take(&mut self.skips) {
            self.remarks.push(format!("Skipped {} {reason}.", assemble::counted(n, "line")));
        }
        self
    }

    /// Adds `row`, or fails on `line` past [`MAX_REQUESTS`].
    pub(super) fn push(&mut self, row: Row) -> Result<(), TraceError> {
        if self.rows.len() >= MAX_REQUESTS {
            let max = grouped(MAX_REQUESTS as u64);
            return Err(TraceError::line(row.line, format!("the trace has more than {max} requests")));
        }
        self.rows.push(row);
        Ok(())
    }
}

/// Reads a trace from text, its format told from the content: JSON lines whose first object has
/// `input_length` are Mooncake's, other JSON lines plain; a CSV whose header names `ContextTokens`
/// is Azure's, one naming `Request tokens` BurstGPT's, any other a plain CSV.
pub fn read_trace(text: &str) -> Result<TraceUpload, TraceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(first) = text.lines().map(|l| l.trim().trim_matches('\u{feff}')).find(|l| !l.is_empty()) else {
        return Err(TraceError::file(
            "Nothing to read: paste or drop a trace (Mooncake JSON lines, an Azure or BurstGPT CSV, or a CSV of \
             arrival_s, prompt_tokens, output_tokens)",
        ));
    };
    let (format, rows) = if first.starts_with('{') {
        json_lines::read(text)?
    } else if first.starts_with('[') {
        return Err(TraceError::line(1, "a JSON array; a trace is JSON lines, one request object per line"));
    } else {
        csv_rows::read(text)?
    };
    assemble::assemble(format, rows)
}
