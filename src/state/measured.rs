//! The edge for measured step times: a `vllm bench serve` result (one JSON object, an array of them,
//! or JSON lines, one run per concurrency), a GuideLLM report, an AIPerf or GenAI-Perf profile export
//! or a CSV of (batch, TPOT ms), pasted or dropped, into
//! validated [`YourPoint`]s or a message naming the problem and where; several files at once
//! ([`add_files`]); and the compact `measured=1:7.9,16:8.2@1792/512` URL key (a run's mean lengths
//! after `@`, when its file stated them; links from before them read as they did).
//!
//! A vLLM result has no batch size. Each run's `max_concurrency` (its `--max-concurrency` flag) is
//! taken as the decode batch: with the default unlimited request rate and enough prompts, the
//! benchmark keeps that many requests running for most of the run.

mod aiperf;
mod files;
mod guidellm;
mod guidellm_csv;
mod json;
mod points_csv;
mod upload;

use super::fields::{compact, quoted, trim_decimal};
use super::number::thousands;
use super::{Notice, RawQuery};
use crate::core::fit::{RunLengths, YourPoint};
use crate::core::units::{ms_to_s, s_to_ms};
pub use files::{add_files, article, FileOutcome, Loaded};
pub use points_csv::PROFILE_CSV_MESSAGE;
pub use upload::{parse_upload, Upload};

/// The URL key.
pub const KEY: &str = "measured";
/// Most points one upload or URL may carry.
pub const MAX_POINTS: usize = 200;
/// The largest batch accepted, as the `mark=` key.
pub const MAX_BATCH: u32 = super::view::MARK_MAX;
/// The vLLM field read as the batch.
pub const BATCH_FIELD: &str = "max_concurrency";
/// The vLLM field read as the TPOT.
pub const TPOT_FIELD: &str = "mean_tpot_ms";
/// The measured TPOTs accepted, in ms: from the URL's resolution (1 µs, so a point never reads back
/// as 0 and vanishes from a link) to 100 s per token (far past any server; it keeps the fit's sums of
/// squares finite).
pub const TPOT_MS_RANGE: (f64, f64) = (0.001, 100_000.0);

/// A run's mean prompt and answer lengths accepted, in tokens: 1 to the longest context the page
/// takes. Outside it the run keeps its point and the page's lengths stand in.
pub const LENGTH_TOKENS_RANGE: (f64, f64) = (1.0, 1_048_576.0);

/// "0.001–100,000 ms", for messages.
fn tpot_range_text() -> String {
    format!("{}–{} ms", trim_decimal(TPOT_MS_RANGE.0), thousands(TPOT_MS_RANGE.1))
}

/// A TPOT in ms inside [`TPOT_MS_RANGE`].
fn tpot_in_range(tpot_ms: f64) -> bool {
    (TPOT_MS_RANGE.0..=TPOT_MS_RANGE.1).contains(&tpot_ms)
}

/// The points as the URL carries them (TPOT to 1 µs), so a link reproduces the page's fit exactly.
pub fn at_url_precision(points: &[YourPoint]) -> Vec<YourPoint> {
    let text = encode(points);
    text.split(',').filter_map(|pair| url_point(pair).map(|(p, _)| p)).collect()
}

/// A run's mean lengths, if both are numbers inside [`LENGTH_TOKENS_RANGE`].
pub fn run_lengths(isl_tokens_mean: f64, osl_tokens_mean: f64) -> Option<RunLengths> {
    let ok = |x: f64| (LENGTH_TOKENS_RANGE.0..=LENGTH_TOKENS_RANGE.1).contains(&x);
    (ok(isl_tokens_mean) && ok(osl_tokens_mean)).then_some(RunLengths { isl_tokens_mean, osl_tokens_mean })
}

/// "1 errored request", "2 errored requests": a count and its noun, plural unless it is 1.
pub fn counted(n: f64, noun: &str) -> String {
    format!("{} {noun}{}", compact(n), if n == 1.0 { "" } else { "s" })
}

/// A finite number, or none.
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A whole number in 1..=[`MAX_BATCH`] as a batch.
fn whole_batch(x: f64) -> Option<u32> {
    (x.fract() == 0.0 && (1.0..=f64::from(MAX_BATCH)).contains(&x)).then_some(x as u32)
}

/// The URL form: `batch:TPOT ms` pairs joined by commas (`1:7.9,16:8.2`), TPOT to 3 decimals, each
/// followed by `@ISL/OSL` (mean tokens, 3 decimals) when the run's lengths are known.
pub fn encode(points: &[YourPoint]) -> String {
    let pairs: Vec<String> = points
        .iter()
        .map(|p| {
            let lengths = p.lengths.map_or(String::new(), |l| {
                format!("@{}/{}", trim_decimal(l.isl_tokens_mean), trim_decimal(l.osl_tokens_mean))
            });
            format!("{}:{}{lengths}", p.batch, trim_decimal(s_to_ms(p.tpot_s)))
        })
        .collect();
    pairs.join(",")
}

/// Reads `measured=` from the query: each valid `batch:TPOT` pair is kept, each bad one is dropped
/// with a notice naming it; more than [`MAX_POINTS`] are cut with a notice.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> Vec<YourPoint> {
    let Some(text) = raw.get(KEY) else { return Vec::new() };
    let mut points = Vec::new();
    for (i, pair) in text.split(',').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
        match url_point(pair) {
            Some((p, lengths_read)) if points.len() < MAX_POINTS => {
                if !lengths_read {
                    notices.push(Notice { key: KEY, message: lengths_notice(i, pair) });
                }
                points.push(p);
            }
            Some(_) => {
                let message = format!("{KEY}= has more than {MAX_POINTS} points; the rest are ignored.");
                notices.push(Notice { key: KEY, message });
                break;
            }
            None => {
                let message = format!(
                    "{KEY}= point {} {} is not batch:TPOT in ms (16:8.2, TPOT {}); it is ignored.",
                    i + 1,
                    quoted(pair),
                    tpot_range_text()
                );
                notices.push(Notice { key: KEY, message });
            }
        }
    }
    points
}

/// The notice for point `i` whose `@ISL/OSL` could not be read.
fn lengths_notice(i: usize, pair: &str) -> String {
    let (lo, hi) = LENGTH_TOKENS_RANGE;
    format!(
        "{KEY}= point {} {}: the lengths after @ are not ISL/OSL in tokens ({}–{}); the page's lengths stand in.",
        i + 1,
        quoted(pair),
        trim_decimal(lo),
        thousands(hi)
    )
}

/// `batch:TPOT ms[@ISL/OSL]` as a point, if the batch and TPOT are valid, and whether the lengths
/// (if any) were read: unreadable lengths leave the point without them.
fn url_point(pair: &str) -> Option<(YourPoint, bool)> {
    let (head, lengths) = match pair.split_once('@') {
        Some((head, lengths)) => (head, Some(lengths)),
        None => (pair, None),
    };
    let (batch, tpot) = head.split_once(':')?;
    let batch = whole_batch(number(batch)?)?;
    let tpot_ms = number(tpot).filter(|t| tpot_in_range(*t))?;
    let read = lengths.map(|l| {
        let (isl, osl) = l.split_once('/')?;
        run_lengths(number(isl)?, number(osl)?)
    });
    let point = YourPoint { batch, tpot_s: ms_to_s(tpot_ms), lengths: read.flatten() };
    Some((point, read.is_none_or(|r| r.is_some())))
}

/// `query` with `&measured=...` appended when there are points. The encoding uses only digits,
/// `.`, `:` and `,`, all legal in a query, so it is written as is (compact and readable).
pub fn with_measured(query: String, points: &[YourPoint]) -> String {
    if points.is_empty() {
        return query;
    }
    let pair = format!("{KEY}={}", encode(points));
    if query.is_empty() {
        pair
    } else {
        format!("{query}&{pair}")
    }
}
