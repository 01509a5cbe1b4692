//! The edge for measured step times: a `vllm bench serve` result (one JSON object, an array of them,
//! or JSON lines, one run per concurrency), a GuideLLM report, an AIPerf or GenAI-Perf profile export
//! or a CSV of (batch, TPOT ms), pasted or dropped, into
//! validated [`MeasuredPoint`]s or a message naming the problem and where; and the compact
//! `measured=1:7.9,16:8.2` URL key.
//!
//! A vLLM result has no batch size. Each run's `max_concurrency` (its `--max-concurrency` flag) is
//! taken as the decode batch: with the default unlimited request rate and enough prompts, the
//! benchmark keeps that many requests running for most of the run.

mod aiperf;
mod guidellm;
mod json;
mod upload;

use super::fields::{quoted, trim_decimal};
use super::{Notice, RawQuery};
use crate::core::fit::MeasuredPoint;
use crate::core::units::{ms_to_s, s_to_ms};
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

/// "0.001–100,000 ms", for messages.
fn tpot_range_text() -> String {
    format!("{}–{} ms", trim_decimal(TPOT_MS_RANGE.0), crate::view::format::thousands(TPOT_MS_RANGE.1))
}

/// A TPOT in ms inside [`TPOT_MS_RANGE`].
fn tpot_in_range(tpot_ms: f64) -> bool {
    (TPOT_MS_RANGE.0..=TPOT_MS_RANGE.1).contains(&tpot_ms)
}

/// The points as the URL carries them (TPOT to 1 µs), so a link reproduces the page's fit exactly.
pub fn at_url_precision(points: &[MeasuredPoint]) -> Vec<MeasuredPoint> {
    let text = encode(points);
    text.split(',').filter_map(url_point).collect()
}

/// A finite number, or none.
fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A whole number in 1..=[`MAX_BATCH`] as a batch.
fn whole_batch(x: f64) -> Option<u32> {
    (x.fract() == 0.0 && (1.0..=f64::from(MAX_BATCH)).contains(&x)).then_some(x as u32)
}

/// The URL form: `batch:TPOT ms` pairs joined by commas (`1:7.9,16:8.2`), TPOT to 3 decimals.
pub fn encode(points: &[MeasuredPoint]) -> String {
    let pairs: Vec<String> =
        points.iter().map(|p| format!("{}:{}", p.batch, trim_decimal(s_to_ms(p.tpot_s)))).collect();
    pairs.join(",")
}

/// Reads `measured=` from the query: each valid `batch:TPOT` pair is kept, each bad one is dropped
/// with a notice naming it; more than [`MAX_POINTS`] are cut with a notice.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> Vec<MeasuredPoint> {
    let Some(text) = raw.get(KEY) else { return Vec::new() };
    let mut points = Vec::new();
    for (i, pair) in text.split(',').map(str::trim).filter(|p| !p.is_empty()).enumerate() {
        match url_point(pair) {
            Some(p) if points.len() < MAX_POINTS => points.push(p),
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

/// `batch:TPOT ms` as a point, if both parts are valid.
fn url_point(pair: &str) -> Option<MeasuredPoint> {
    let (batch, tpot) = pair.split_once(':')?;
    let batch = whole_batch(number(batch)?)?;
    let tpot_ms = number(tpot).filter(|t| tpot_in_range(*t))?;
    Some(MeasuredPoint { batch, tpot_s: ms_to_s(tpot_ms) })
}

/// `query` with `&measured=...` appended when there are points. The encoding uses only digits,
/// `.`, `:` and `,`, all legal in a query, so it is written as is (compact and readable).
pub fn with_measured(query: String, points: &[MeasuredPoint]) -> String {
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
