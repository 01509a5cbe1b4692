//! The Azure LLM inference trace (Azure/AzurePublicDataset, 2023 and 2024): a CSV of `TIMESTAMP` (a
//! date and time, `2023-11-16 18:15:46.6805900`), `ContextTokens` and `GeneratedTokens`. A line with
//! 0 tokens either way is skipped and counted in a remark.

use super::values::{time_us, tokens, Fields, Read};
use super::{Row, RowBlocks, TraceError};

/// The column whose presence in the header marks an Azure trace.
pub(super) const MARK: &str = "ContextTokens";

/// One line of an Azure trace.
pub(super) fn row(f: &dyn Fields, line: u64) -> Result<Read, TraceError> {
    let arrival_us = time_us(f.required("TIMESTAMP", line)?, line, "TIMESTAMP", 1.0)?;
    let prompt_tokens = tokens(f.required("ContextTokens", line)?, line, "ContextTokens", 0)?;
    let output_tokens = tokens(f.required("GeneratedTokens", line)?, line, "GeneratedTokens", 0)?;
    if prompt_tokens == 0 {
        return Ok(Read::Skip("with 0 `ContextTokens`"));
    }
    if output_tokens == 0 {
        return Ok(Read::Skip("with 0 `GeneratedTokens`"));
    }
    let row =
        Row { line, arrival_us, prompt_tokens, output_tokens, session: None, blocks: RowBlocks::Unnamed };
    Ok(Read::Row(row))
}
