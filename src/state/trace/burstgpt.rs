//! BurstGPT's trace (HPMLL/BurstGPT): a CSV of `Timestamp` (s from the trace's start), `Model`,
//! `Request tokens`, `Response tokens`, `Total tokens` and `Log Type`. Its failed requests are lines
//! with 0 `Response tokens`: they are skipped and counted in a remark (as are lines with 0 `Request
//! tokens`), never dropped silently.

use super::values::{time_us, tokens, Fields, Read};
use super::{Row, RowBlocks, TraceError};

/// The column whose presence in the header marks a BurstGPT trace.
pub(super) const MARK: &str = "Request tokens";

/// One line of a BurstGPT trace.
pub(super) fn row(f: &dyn Fields, line: u64) -> Result<Read, TraceError> {
    let arrival_us = time_us(f.required("Timestamp", line)?, line, "Timestamp", 1.0)?;
    let prompt_tokens = tokens(f.required("Request tokens", line)?, line, "Request tokens", 0)?;
    let output_tokens = tokens(f.required("Response tokens", line)?, line, "Response tokens", 0)?;
    if output_tokens == 0 {
        return Ok(Read::Skip("with 0 `Response tokens` (failed requests)"));
    }
    if prompt_tokens == 0 {
        return Ok(Read::Skip("with 0 `Request tokens`"));
    }
    let row =
        Row { line, arrival_us, prompt_tokens, output_tokens, session: None, blocks: RowBlocks::Unnamed };
    Ok(Read::Row(row))
}
