//! A plain trace, CSV (with a header) or JSON lines: an arrival (`arrival_s` in s, `arrival_ms` in
//! ms, or `timestamp` in s or as a date and time), `prompt_tokens` and `output_tokens` (or
//! `input_tokens`, `input_length` and `output_length`), and optionally a `session` (or `session_id`,
//! `conversation_id`), the prompt's `hash_ids` (a JSON array, or numbers separated by spaces or
//! semicolons in a CSV cell; 512-token blocks, as Mooncake's), or a shared prefix: `prefix_id` and
//! its `prefix_tokens` (at most the prompt).

use super::values::{hashes, id, time_us, tokens, Fields, Read};
use super::{Row, RowBlocks, TraceError};

/// The arrival's names, each with its unit in s.
pub(super) const TIME: [(&str, f64); 3] = [("arrival_s", 1.0), ("arrival_ms", 1e-3), ("timestamp", 1.0)];
/// The prompt length's names.
pub(super) const PROMPT: [&str; 3] = ["prompt_tokens", "input_tokens", "input_length"];
/// The output length's names.
pub(super) const OUTPUT: [&str; 2] = ["output_tokens", "output_length"];
/// The session's names.
pub(super) const SESSION: [&str; 3] = ["session", "session_id", "conversation_id"];

/// One line of a plain trace.
pub(super) fn row(f: &dyn Fields, line: u64) -> Result<Read, TraceError> {
    let time = TIME.iter().find_map(|(name, unit)| f.get(name).map(|c| (*name, *unit, c)));
    let (name, unit, cell) = time.ok_or_else(|| TraceError::at(line, "arrival_s", "is missing"))?;
    let arrival_us = time_us(cell, line, name, unit)?;
    let (name, cell) = f.any(&PROMPT).ok_or_else(|| TraceError::at(line, "prompt_tokens", "is missing"))?;
    let prompt_tokens = tokens(cell, line, name, 1)?;
    let (name, cell) = f.any(&OUTPUT).ok_or_else(|| TraceError::at(line, "output_tokens", "is missing"))?;
    let output_tokens = tokens(cell, line, name, 1)?;
    let session = match f.any(&SESSION) {
        Some((name, cell)) => id(cell, line, name)?,
        None => None,
    };
    let blocks = blocks(f, line, prompt_tokens)?;
    Ok(Read::Row(Row { line, arrival_us, prompt_tokens, output_tokens, session, blocks }))
}

/// The line's `hash_ids`, or its `prefix_id` with `prefix_tokens`, or neither.
fn blocks(f: &dyn Fields, line: u64, prompt_tokens: u32) -> Result<RowBlocks, TraceError> {
    if let Some(cell) = f.get("hash_ids") {
        return Ok(RowBlocks::Given(hashes(cell, line, "hash_ids")?));
    }
    let Some(prefix) = f.get("prefix_id").map(|c| id(c, line, "prefix_id")).transpose()?.flatten() else {
        return Ok(RowBlocks::Unnamed);
    };
    let tokens = tokens(f.required("prefix_tokens", line)?, line, "prefix_tokens", 0)?;
    if tokens > prompt_tokens {
        let what = format!("{tokens} is more than the prompt's {prompt_tokens} tokens");
        return Err(TraceError::at(line, "prefix_tokens", what));
    }
    Ok(RowBlocks::Prefix { id: prefix, tokens })
}
