//! The CSV traces with fixed columns as a table of column mappings, read by one reader ([`row`]):
//! which column marks the format in the header, which holds the arrival (and its unit), the prompt
//! and the output tokens, and which zero-token lines are skipped (counted in a remark, in the order
//! checked).
//!
//! - The Azure LLM inference trace (Azure/AzurePublicDataset, 2023 and 2024): `TIMESTAMP` (a date
//!   and time, `2023-11-16 18:15:46.6805900`), `ContextTokens` and `GeneratedTokens`.
//! - BurstGPT's trace (HPMLL/BurstGPT): `Timestamp` (s from the trace's start), `Model`, `Request
//!   tokens`, `Response tokens`, `Total tokens` and `Log Type`. Its failed requests are lines with 0
//!   `Response tokens`: skipped and counted, never dropped silently.

use super::values::{time_us, tokens, Fields, Read};
use super::{Row, RowBlocks, TraceError, TraceFormat};

/// Which length a zero-token skip looks at.
#[derive(Clone, Copy, Debug)]
pub(super) enum Length {
    Prompt,
    Output,
}

/// One format's columns.
#[derive(Debug)]
pub(super) struct Columns {
    pub format: TraceFormat,
    /// The column whose presence in the header marks the format.
    pub mark: &'static str,
    /// The arrival's column and its unit in s (a date and time reads too).
    pub time: (&'static str, f64),
    pub prompt: &'static str,
    pub output: &'static str,
    /// The lines with 0 tokens of a length that are skipped, in the order checked, and the remark's reason.
    pub zero_skips: [(Length, &'static str); 2],
}

/// Every fixed-column format, in the order their marks are looked for.
pub(super) const FORMATS: [Columns; 2] = [
    Columns {
        format: TraceFormat::Azure,
        mark: "ContextTokens",
        time: ("TIMESTAMP", 1.0),
        prompt: "ContextTokens",
        output: "GeneratedTokens",
        zero_skips: [
            (Length::Prompt, "with 0 `ContextTokens`"),
            (Length::Output, "with 0 `GeneratedTokens`"),
        ],
    },
    Columns {
        format: TraceFormat::BurstGpt,
        mark: "Request tokens",
        time: ("Timestamp", 1.0),
        prompt: "Request tokens",
        output: "Response tokens",
        zero_skips: [
            (Length::Output, "with 0 `Response tokens` (failed requests)"),
            (Length::Prompt, "with 0 `Request tokens`"),
        ],
    },
];

/// One line of a trace with the columns `c`.
pub(super) fn row(c: &Columns, f: &dyn Fields, line: u64) -> Result<Read, TraceError> {
    let (time, unit) = c.time;
    let arrival_us = time_us(f.required(time, line)?, line, time, unit)?;
    let prompt_tokens = tokens(f.required(c.prompt, line)?, line, c.prompt, 0)?;
    let output_tokens = tokens(f.required(c.output, line)?, line, c.output, 0)?;
    for (length, reason) in c.zero_skips {
        let n = match length {
            Length::Prompt => prompt_tokens,
            Length::Output => output_tokens,
        };
        if n == 0 {
            return Ok(Read::Skip(reason));
        }
    }
    let row =
        Row { line, arrival_us, prompt_tokens, output_tokens, session: None, blocks: RowBlocks::Unnamed };
    Ok(Read::Row(row))
}
