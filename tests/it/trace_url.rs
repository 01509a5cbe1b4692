//! The `trace` URL key: a small trace round-trips inline through the page's query, a large one (or
//! one with `hash_ids`) is written as its summary and read back as it, and any other value gives a
//! notice and no trace.

use goodput_lab::core::traffic::stats::content_hash;
use goodput_lab::state::trace::read_trace;
use goodput_lab::state::trace::url::{decode_inline, TraceKey, TraceSummary, INLINE_MAX_REQUESTS};
use goodput_lab::state::{from_page_query, page_query, to_query, Inputs};

use crate::trace_readers::fixture;

#[test]
fn a_small_trace_round_trips_inline_through_the_page_query() {
    let t = read_trace(&fixture("plain_sessions.csv")).expect("reads").trace;
    let key = TraceKey::of(&t);
    let TraceKey::Inline(text) = key else { panic!("{key:?} is not inline") };
    assert_eq!(text.as_str(), "i:0-40-10-0_500-20-5-1_2250-70-12-0", "arrivals in ms, sessions numbered");
    let inputs = Inputs { trace: key, ..Inputs::default() };
    let query = to_query(&inputs);
    assert!(query.contains("trace=i%3A0-40-10-0_500-20-5-1_2250-70-12-0"), "{query}");
    let (back, view, notices) = from_page_query(&query);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back.trace, key);
    assert_eq!(page_query(&back, &view), query);
    let decoded = decode_inline(text.as_str()).expect("decodes");
    assert_eq!(content_hash(&decoded), content_hash(&t), "the same requests and blocks");
}

#[test]
fn a_trace_with_hash_ids_or_too_many_requests_is_written_as_its_summary() {
    let mooncake = read_trace(&fixture("mooncake.jsonl")).expect("reads").trace;
    let key = TraceKey::of(&mooncake);
    let summary = TraceSummary { hash: content_hash(&mooncake), requests: 4, duration_ms: 10_535 };
    assert_eq!(key, TraceKey::Summary(summary), "its hash_ids cannot ride inline");
    assert_eq!(key.value().expect("a value"), format!("h:{:016x}:4:10.535", summary.hash));
    let inputs = Inputs { trace: key, ..Inputs::default() };
    let (back, _, notices) = from_page_query(&to_query(&inputs));
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(back.trace, key);
    assert_eq!(summary.describe(), format!("4 requests over 10.535 s (hash {:016x})", summary.hash));
    let rows: String = (0..=INLINE_MAX_REQUESTS).map(|i| format!("{i},10,5\n")).collect();
    let many = read_trace(&format!("arrival_s,prompt_tokens,output_tokens\n{rows}")).expect("reads").trace;
    assert!(matches!(TraceKey::of(&many), TraceKey::Summary(s) if s.requests == 65));
}

#[test]
fn an_unreadable_trace_value_gives_a_notice_and_no_trace() {
    for value in
        ["x", "i:", "i:0-0-5", "i:1-2", "h:12:3:4", "h:0123456789abcdef:0:1", "h:0123456789abcdef:1:-1"]
    {
        let (inputs, _, notices) = from_page_query(&format!("trace={value}"));
        assert_eq!(inputs.trace, TraceKey::None, "{value}");
        assert_eq!(notices.len(), 1, "{value}: {notices:?}");
        assert_eq!(notices[0].key, "trace");
        assert!(
            notices[0].message.starts_with(&format!("trace=“{value}” is not a trace (")),
            "{:?}",
            notices[0]
        );
    }
    let (_, _, notices) = from_page_query("trace=i:0-0-5");
    assert!(notices[0].message.contains("item 1: `prompt_tokens`"), "{:?}", notices[0]);
}

#[test]
fn an_inline_value_out_of_order_is_kept_in_its_canonical_form() {
    let (inputs, _, notices) = from_page_query("trace=i:2000-10-5_0.5-20-6");
    assert!(notices.is_empty(), "{notices:?}");
    let TraceKey::Inline(text) = inputs.trace else { panic!("{:?}", inputs.trace) };
    assert_eq!(text.as_str(), "i:0-20-6_1999.5-10-5", "sorted and shifted to start at 0");
}

#[test]
fn the_page_keeps_decodes_clears_or_asks_for_the_trace_a_key_names() {
    use goodput_lab::state::trace::url::{resolve, Resolve};
    let t = read_trace(&fixture("plain_sessions.csv")).expect("reads").trace;
    let h = content_hash(&t);
    assert_eq!(resolve(&TraceKey::None, Some(h)), Resolve::Clear);
    let summary = TraceSummary::of(&t);
    assert_eq!(resolve(&TraceKey::Summary(summary), Some(h)), Resolve::Keep);
    assert_eq!(resolve(&TraceKey::Summary(summary), None), Resolve::Needed(summary));
    assert_eq!(resolve(&TraceKey::Summary(summary), Some(h ^ 1)), Resolve::Needed(summary));
    let inline = TraceKey::of(&t);
    assert_eq!(resolve(&inline, Some(h)), Resolve::Keep);
    let Resolve::Inline(decoded) = resolve(&inline, None) else { panic!("decodes") };
    assert_eq!(content_hash(&decoded), h);
}
