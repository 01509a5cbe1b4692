//! Mooncake's published trace (kvcache-ai/Mooncake, `FAST25-release/traces`): JSON lines of
//! `timestamp` (ms since the trace's start), `input_length`, `output_length` and `hash_ids` (the
//! prompt's 512-token blocks, equal ids for equal prefixes); a `session_id` some converted traces
//! add is kept.

use super::values::{hashes, id, time_us, tokens, Fields, Read};
use super::{Row, RowBlocks, TraceError};

/// The field whose presence in the first object marks a Mooncake trace.
pub(super) const MARK: &str = "input_length";

/// One line of a Mooncake trace.
pub(super) fn row(f: &dyn Fields, line: u64) -> Result<Read, TraceError> {
    let arrival_us = time_us(f.required("timestamp", line)?, line, "timestamp", 1e-3)?;
    let prompt_tokens = tokens(f.required("input_length", line)?, line, "input_length", 1)?;
    let output_tokens = tokens(f.required("output_length", line)?, line, "output_length", 1)?;
    let blocks = match f.get("hash_ids") {
        Some(cell) => RowBlocks::Given(hashes(cell, line, "hash_ids")?),
        None => RowBlocks::Unnamed,
    };
    let session = f.get("session_id").map(|c| id(c, line, "session_id")).transpose()?.flatten();
    Ok(Read::Row(Row { line, arrival_us, prompt_tokens, output_tokens, session, blocks }))
}
