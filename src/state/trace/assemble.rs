//! Every reader's rows normalized the same way into a [`RequestTrace`]: sorted stably by arrival
//! (with a remark when the file was not in order), shifted so the first arrives at 0 s, session and
//! prefix ids numbered 0, 1, … by first appearance in that order, and each prompt's block hashes
//! given (`hash_ids`, 512-token blocks) or synthesized ([`blocks`], 16-token blocks).

use super::grouped;
use super::{
    RequestTrace, Row, RowBlocks, Rows, TraceError, TraceFormat, TraceRequest, TraceUpload, MAX_BLOCKS,
};
use crate::core::traffic::blocks::{self, full_blocks, MOONCAKE_BLOCK_TOKENS, SYNTH_BLOCK_TOKENS};
use std::collections::HashMap;

/// Numbers each distinct text 0, 1, … in order of first appearance.
#[derive(Default)]
struct Ids(HashMap<String, u32>);

impl Ids {
    fn of(&mut self, text: &str) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(text.to_string()).or_insert(next)
    }
}

/// The rows as a validated trace, with the readers' remarks and the ones normalizing adds.
pub(super) fn assemble(format: TraceFormat, read: Rows) -> Result<TraceUpload, TraceError> {
    let Rows { mut rows, skipped, mut remarks, .. } = read;
    if rows.is_empty() {
        let why = if skipped > 0 {
            "every data line was skipped (see above)"
        } else {
            "the trace has no data lines"
        };
        return Err(TraceError::file(format!("No requests: {why}{}", remarks_suffix(&remarks))));
    }
    let out_of_order = rows.windows(2).filter(|w| w[1].arrival_us < w[0].arrival_us).count();
    if out_of_order > 0 {
        rows.sort_by_key(|r| r.arrival_us);
        remarks.push(format!(
            "{} was out of order (an arrival before the line above it); the requests are sorted by arrival, ties \
             in file order.",
            counted(out_of_order, "line")
        ));
    }
    let given = rows.iter().any(|r| matches!(r.blocks, RowBlocks::Given(_)));
    let block_tokens = if given { MOONCAKE_BLOCK_TOKENS } else { SYNTH_BLOCK_TOKENS };
    let trace = build(format, block_tokens, &rows)?;
    if !given && trace.requests.iter().any(|r| r.session.is_some()) {
        remarks.push(format!(
            "Block hashes synthesized from the sessions: a session's context grows append-only, so its block i is \
             the same block in every turn ({SYNTH_BLOCK_TOKENS}-token blocks)."
        ));
    }
    Ok(TraceUpload { trace, remarks, skipped_rows: skipped })
}

/// " (…remarks…)" for a message about a trace whose rows were all skipped.
fn remarks_suffix(remarks: &[String]) -> String {
    if remarks.is_empty() {
        String::new()
    } else {
        format!(" ({})", remarks.join(" ").trim_end_matches('.'))
    }
}

/// "1 line", "3 lines".
pub(super) fn counted(n: usize, noun: &str) -> String {
    format!("{} {noun}{}", grouped(n as u64), if n == 1 { "" } else { "s" })
}

/// The sorted rows as requests and their blocks.
fn build(format: TraceFormat, block_tokens: u32, rows: &[Row]) -> Result<RequestTrace, TraceError> {
    let t0 = rows[0].arrival_us;
    let (mut sessions, mut prefixes) = (Ids::default(), Ids::default());
    let mut requests = Vec::with_capacity(rows.len());
    let mut all: Vec<u64> = Vec::new();
    for row in rows {
        let session = row.session.as_deref().map(|s| sessions.of(s));
        let start = all.len();
        match &row.blocks {
            RowBlocks::Given(hashes) => {
                let most = row.prompt_tokens.div_ceil(block_tokens);
                if hashes.len() > most as usize {
                    let what = format!(
                        "has {} hashes, more than the {most} blocks of {block_tokens} tokens in its {} prompt tokens",
                        hashes.len(),
                        row.prompt_tokens
                    );
                    return Err(TraceError::at(row.line, "hash_ids", what));
                }
                extend(&mut all, hashes.iter().copied(), hashes.len(), row.line)?;
            }
            RowBlocks::Prefix { id, tokens } => {
                let n = full_blocks(*tokens, block_tokens) as usize;
                extend(&mut all, blocks::prefix_blocks(prefixes.of(id), *tokens, block_tokens), n, row.line)?;
            }
            RowBlocks::Unnamed => {
                if let Some(s) = session.filter(|_| block_tokens == SYNTH_BLOCK_TOKENS) {
                    let n = full_blocks(row.prompt_tokens, block_tokens) as usize;
                    extend(
                        &mut all,
                        blocks::session_blocks(s, row.prompt_tokens, block_tokens),
                        n,
                        row.line,
                    )?;
                }
            }
        }
        requests.push(TraceRequest {
            arrival_s: (row.arrival_us - t0) as f64 / 1e6,
            prompt_tokens: row.prompt_tokens,
            output_tokens: row.output_tokens,
            session,
            blocks_start: start as u32,
            blocks_len: (all.len() - start) as u32,
        });
    }
    Ok(RequestTrace { format, block_tokens, requests, blocks: all })
}

/// Appends `n` hashes, or fails on `line` when the trace would hold more than [`MAX_BLOCKS`].
fn extend(
    all: &mut Vec<u64>,
    hashes: impl Iterator<Item = u64>,
    n: usize,
    line: u64,
) -> Result<(), TraceError> {
    if all.len() + n > MAX_BLOCKS {
        let max = grouped(MAX_BLOCKS as u64);
        return Err(TraceError::line(
            line,
            format!("the trace's prompts hold more than {max} prefix blocks"),
        ));
    }
    all.extend(hashes);
    Ok(())
}
