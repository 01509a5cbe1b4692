//! Fuzz properties of the trace readers and the `trace` URL key. Hostile files (random bytes,
//! truncated lines, huge, negative and NaN numbers, missing fields, wrong types, a BOM, CRLF, blank)
//! never panic, and an error names its line; valid files in every format (failed BurstGPT requests,
//! zero-token Azure lines and out-of-order arrivals among them) read into a trace that keeps every
//! `RequestTrace` invariant and loses nothing: requests + skipped lines (each counted in a remark) =
//! data lines. Any value under `trace` gives no trace with a short notice, or a trace that
//! round-trips.

use proptest::prelude::*;
use proptest::sample::select;

use goodput_lab::core::traffic::RequestTrace;
use goodput_lab::state::from_page_query;
use goodput_lab::state::trace::url::TraceKey;
use goodput_lab::state::trace::{read_trace, MAX_TOKENS};

use super::strategies::hostile_value;
use super::{check, notices_are_short, round_trips};

/// Every invariant `RequestTrace` documents.
fn invariants(t: &RequestTrace) -> Result<(), TestCaseError> {
    prop_assert!(!t.requests.is_empty());
    prop_assert_eq!(t.requests[0].arrival_s, 0.0);
    for (i, r) in t.requests.iter().enumerate() {
        prop_assert!(r.arrival_s.is_finite() && r.arrival_s >= 0.0, "{r:?}");
        prop_assert!(i == 0 || r.arrival_s >= t.requests[i - 1].arrival_s, "unsorted at {i}");
        prop_assert!(
            (1..=MAX_TOKENS).contains(&r.prompt_tokens) && (1..=MAX_TOKENS).contains(&r.output_tokens)
        );
        let end = u64::from(r.blocks_start) + u64::from(r.blocks_len);
        prop_assert!(end <= t.blocks.len() as u64, "blocks {r:?} past {}", t.blocks.len());
    }
    Ok(())
}

/// One data line in each format: (Mooncake, Azure, BurstGPT, plain CSV), and whether BurstGPT's or
/// Azure's is a skipped one (0 tokens).
fn line() -> impl Strategy<Value = (u32, u32, u32, u8, u8)> {
    (0u32..100_000, 1u32..20_000, 0u32..4_000, 0u8..6, 0u8..4)
}

/// A valid file in one of four formats, its data lines' count and how many of them are to be skipped.
fn valid_file() -> impl Strategy<Value = (String, usize, usize)> {
    (0u8..4, prop::collection::vec(line(), 1..40), any::<bool>()).prop_map(|(format, lines, crlf)| {
        let mut skipped = 0;
        let mut text = match format {
            0 => String::new(),
            1 => "TIMESTAMP,ContextTokens,GeneratedTokens\n".to_string(),
            2 => "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n".to_string(),
            _ => "arrival_s,prompt_tokens,output_tokens,session\n".to_string(),
        };
        for (t_ms, prompt, output, session, _) in &lines {
            let out = if format == 1 || format == 2 { *output } else { output + 1 };
            skipped += usize::from(out == 0);
            text += &match format {
                0 => format!("{{\"timestamp\": {t_ms}, \"input_length\": {prompt}, \"output_length\": {out}, \"hash_ids\": [{session}]}}\n"),
                1 => format!("2024-05-10 00:{:02}:{:02}.{:07},{prompt},{out}\n", t_ms / 60_000 % 60, t_ms / 1000 % 60, t_ms % 1000 * 10_000),
                2 => format!("{}.{:03},ChatGPT,{prompt},{out},{},Conversation log\n", t_ms / 1000, t_ms % 1000, prompt + out),
                _ => format!("{}.{:03},{prompt},{out},s{session}\n", t_ms / 1000, t_ms % 1000),
            };
        }
        if crlf {
            text = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        }
        (text, lines.len(), skipped)
    })
}

#[test]
fn valid_trace_files_keep_every_invariant_and_lose_no_line() {
    check(
        "valid_trace_files_keep_every_invariant_and_lose_no_line",
        valid_file(),
        |(text, lines, skipped)| {
            match read_trace(&text) {
                Ok(up) => {
                    invariants(&up.trace)?;
                    prop_assert_eq!(up.trace.requests.len() + up.skipped_rows, lines, "{}", text);
                    prop_assert_eq!(up.skipped_rows, skipped);
                    prop_assert!(
                        skipped == 0 || up.remarks.iter().any(|r| r.starts_with("Skipped ")),
                        "{:?}",
                        up.remarks
                    );
                }
                Err(e) => {
                    prop_assert!(skipped == lines, "only a file of skipped lines may fail: {e}\n{text}")
                }
            }
            Ok(())
        },
    );
}

/// Pieces of hostile trace text: numbers that are not, wrong types, broken JSON and CSV.
const PIECES: [&str; 24] = [
    "NaN",
    "-1",
    "1e400",
    "inf",
    "99999999999",
    "\"abc\"",
    "null",
    "[1, -2]",
    "{",
    "}",
    ",",
    "\"",
    "\n",
    "\r\n",
    "\u{feff}",
    "[",
    "\"hash_ids\": 7",
    "\"timestamp\": ",
    "\"input_length\": ",
    "2023-13-40 25:61:61",
    "\t",
    "arrival_s,prompt_tokens,output_tokens",
    "Timestamp,Request tokens,Response tokens",
    "TIMESTAMP,ContextTokens",
];

/// Hostile text: random characters, a valid file cut short or with pieces spliced in, or pieces alone.
fn hostile_file() -> BoxedStrategy<String> {
    let spliced =
        (valid_file(), prop::collection::vec((any::<prop::sample::Index>(), select(PIECES.to_vec())), 0..6))
            .prop_map(|((text, _, _), pieces)| {
                let mut chars: Vec<char> = text.chars().collect();
                for (at, piece) in pieces {
                    let i = at.index(chars.len() + 1);
                    chars.splice(i..i, piece.chars());
                }
                chars.into_iter().collect::<String>()
            });
    let cut = (valid_file(), any::<prop::sample::Index>())
        .prop_map(|((text, _, _), at)| text.chars().take(at.index(text.chars().count() + 1)).collect());
    prop_oneof![
        2 => spliced,
        1 => cut,
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => prop::collection::vec(select(PIECES.to_vec()), 0..12).prop_map(|p| p.concat()),
    ]
    .boxed()
}

#[test]
fn hostile_trace_files_never_panic_and_every_error_names_its_line() {
    check("hostile_trace_files_never_panic_and_every_error_names_its_line", hostile_file(), |text| {
        match read_trace(&text) {
            Ok(up) => invariants(&up.trace)?,
            Err(e) => {
                let blank = text.chars().all(|c| c.is_whitespace() || c == '\u{feff}');
                let whole_file =
                    e.message.starts_with("No requests") || e.message.starts_with("Nothing to read");
                prop_assert!(
                    e.line.is_some() || (whole_file && (blank || e.message.starts_with("No requests"))),
                    "{e:?}"
                );
                if let Some(line) = e.line {
                    prop_assert!(e.message.starts_with(&format!("line {line}: ")), "{}", e.message);
                }
                if let Some(field) = &e.field {
                    prop_assert!(e.message.contains(&format!("`{field}`")), "{}", e.message);
                }
            }
        }
        Ok(())
    });
}

/// Values for `trace`: inline items (valid or not), summaries (valid or not), or any text.
fn trace_value() -> BoxedStrategy<String> {
    let item = (0u32..100_000, 0u32..5_000, 0u32..5_000, prop::option::of(0u32..4))
        .prop_map(|(t, p, o, s)| format!("{t}-{p}-{o}{}", s.map_or(String::new(), |s| format!("-{s}"))));
    let inline = prop::collection::vec(item, 0..80).prop_map(|items| format!("i:{}", items.join("_")));
    let summary =
        (any::<u64>(), 0u32..2_000_000, any::<f64>()).prop_map(|(h, n, d)| format!("h:{h:016x}:{n}:{d}"));
    prop_oneof![3 => inline, 2 => summary, 2 => hostile_value()].boxed()
}

#[test]
fn any_value_under_the_trace_key_gives_a_trace_that_round_trips_or_a_notice_and_none() {
    let name = "any_value_under_the_trace_key_gives_a_trace_that_round_trips_or_a_notice_and_none";
    check(name, trace_value(), |value| {
        let query =
            serde_urlencoded::to_string([("sim", "1"), ("trace", value.as_str())]).unwrap_or_default();
        let (inputs, view, notices) = from_page_query(&query);
        notices_are_short(&notices)?;
        prop_assert!(notices.iter().all(|n| n.key == "trace"), "{notices:?}");
        prop_assert_eq!(inputs.trace == TraceKey::None, !notices.is_empty(), "{}: {:?}", value, notices);
        round_trips(&inputs, &view)?;
        Ok(())
    });
}
