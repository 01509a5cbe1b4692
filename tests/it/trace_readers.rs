//! The trace readers on hand-written fixtures in each published format (`tests/fixtures/traces/`):
//! the format told from the content, arrivals (normalized to start at 0 s, in order), lengths and
//! block hashes against values written out here, skipped lines counted in remarks, and errors that
//! name the line and the field.

use goodput_lab::core::traffic::blocks::{prefix_block_hash, session_block_hash};
use goodput_lab::core::traffic::{RequestTrace, TraceFormat};
use goodput_lab::state::trace::{read_trace, TraceUpload, MAX_TOKENS};

/// A fixture's text.
pub(crate) fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/traces/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(name: &str) -> TraceUpload {
    read_trace(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn arrivals(t: &RequestTrace) -> Vec<f64> {
    t.requests.iter().map(|r| r.arrival_s).collect()
}

fn lengths(t: &RequestTrace) -> Vec<(u32, u32)> {
    t.requests.iter().map(|r| (r.prompt_tokens, r.output_tokens)).collect()
}

fn blocks(t: &RequestTrace) -> Vec<Vec<u64>> {
    (0..t.requests.len()).map(|i| t.request_blocks(i).to_vec()).collect()
}

#[test]
fn mooncake_reader_keeps_hash_ids_as_512_token_blocks() {
    let up = read("mooncake.jsonl");
    let t = &up.trace;
    assert_eq!(t.format, TraceFormat::Mooncake);
    assert_eq!(t.block_tokens, 512);
    assert_eq!(arrivals(t), vec![0.0, 0.0, 3.052, 10.535], "timestamps are ms");
    assert_eq!(lengths(t), vec![(1100, 52), (600, 20), (1536, 300), (512, 26)]);
    assert_eq!(blocks(t), vec![vec![0, 1, 2], vec![0, 3], vec![0, 1, 4], vec![5]]);
    assert!(up.remarks.is_empty(), "{:?}", up.remarks);
    assert_eq!(up.skipped_rows, 0);
}

#[test]
fn azure_reader_reads_datetimes_to_the_microsecond_and_skips_zero_token_lines_with_a_remark() {
    let up = read("azure_2023.csv");
    let t = &up.trace;
    assert_eq!(t.format, TraceFormat::Azure);
    // 18:15:46.6805900 -> 18:15:50.9951690 is 4.314579 s; -> 18:16:00 is 13.31941 s.
    assert_eq!(arrivals(t), vec![0.0, 4.314579, 13.31941]);
    assert_eq!(lengths(t), vec![(374, 44), (396, 109), (1020, 200)]);
    assert_eq!(up.skipped_rows, 1);
    assert_eq!(up.remarks, vec!["Skipped 1 line with 0 `GeneratedTokens`.".to_string()]);
    assert!(t.blocks.is_empty(), "no sessions, no hashes: no blocks");
}

#[test]
fn burstgpt_reader_skips_failed_requests_with_a_counted_remark_and_sorts_arrivals() {
    let up = read("burstgpt.csv");
    let t = &up.trace;
    assert_eq!(t.format, TraceFormat::BurstGpt);
    // Kept lines at 5, 60, 20, 118 s; sorted and shifted by 5 s.
    assert_eq!(arrivals(t), vec![0.0, 15.0, 55.0, 113.0]);
    assert_eq!(lengths(t), vec![(472, 18), (620, 215), (300, 120), (100, 50)]);
    assert_eq!(up.skipped_rows, 1, "the failed request (0 response tokens)");
    assert!(
        up.remarks.iter().any(|r| r == "Skipped 1 line with 0 `Response tokens` (failed requests)."),
        "{:?}",
        up.remarks
    );
    assert!(up.remarks.iter().any(|r| r.starts_with("1 line was out of order")), "{:?}", up.remarks);
}

#[test]
fn plain_csv_sessions_synthesize_16_token_session_blocks() {
    let up = read("plain_sessions.csv");
    let t = &up.trace;
    assert_eq!((t.format, t.block_tokens), (TraceFormat::Plain, 16));
    assert_eq!(arrivals(t), vec![0.0, 0.5, 2.25]);
    let sessions: Vec<Option<u32>> = t.requests.iter().map(|r| r.session).collect();
    assert_eq!(sessions, vec![Some(0), Some(1), Some(0)], "ids numbered by first appearance");
    let s = session_block_hash;
    // 40 tokens: 2 full blocks; 20: 1; 70: 4 (the partial last block is never shared).
    assert_eq!(
        blocks(t),
        vec![vec![s(0, 0), s(0, 1)], vec![s(1, 0)], vec![s(0, 0), s(0, 1), s(0, 2), s(0, 3)]]
    );
    assert!(up.remarks.iter().any(|r| r.starts_with("Block hashes synthesized from the sessions")));
}

#[test]
fn plain_jsonl_prefix_id_synthesizes_the_prefix_blocks() {
    let t = read("plain_prefix.jsonl").trace;
    assert_eq!(arrivals(&t), vec![0.0, 1.5, 2.0], "arrival_ms is ms");
    let p: Vec<u64> = (0..4).map(|i| prefix_block_hash(0, i)).collect();
    assert_eq!(blocks(&t), vec![p.clone(), p, vec![]], "64 prefix tokens are 4 blocks of 16");
    assert_eq!(t.requests[2].session, None);
}

#[test]
fn plain_csv_hash_ids_lists_are_read_from_spaces_or_semicolons() {
    let t = read("plain_hashes.csv").trace;
    assert_eq!(t.block_tokens, 512);
    assert_eq!(blocks(&t), vec![vec![7, 8], vec![7, 9]]);
    assert_eq!(lengths(&t), vec![(1024, 10), (600, 5)]);
}

#[test]
fn a_bom_crlf_line_ends_and_blank_lines_read_as_the_plain_file_does() {
    let plain = fixture("plain_sessions.csv");
    let hostile = format!("\u{feff}{}\r\n\r\n", plain.replace('\n', "\r\n"));
    assert_eq!(read_trace(&hostile).expect("reads").trace, read("plain_sessions.csv").trace);
    let jsonl = format!("\u{feff}\n{}", fixture("mooncake.jsonl").replace('\n', "\r\n\n"));
    assert_eq!(read_trace(&jsonl).expect("reads").trace, read("mooncake.jsonl").trace);
}

/// The error for `text`: its line, its field and its message.
fn error(text: &str) -> (Option<u64>, Option<String>, String) {
    let e = read_trace(text).expect_err(text);
    (e.line, e.field, e.message)
}

#[test]
fn errors_name_the_line_and_the_field() {
    let (line, field, message) = error(&fixture("bad_mooncake.jsonl"));
    assert_eq!((line, field.as_deref()), (Some(3), Some("input_length")));
    assert_eq!(message, "line 3: `input_length` “abc” is not a whole number from 1 to 16,777,216.");
    let csv = "arrival_s,prompt_tokens,output_tokens\n0,10,5\n1,10,-4\n";
    assert_eq!(error(csv).0, Some(3));
    assert_eq!(error(csv).1.as_deref(), Some("output_tokens"));
    let burst = "Timestamp,Model,Request tokens,Response tokens\n1,ChatGPT,10,5\nNaN,ChatGPT,10,5\n";
    assert_eq!(error(burst).0, Some(3));
    assert_eq!(error(burst).1.as_deref(), Some("Timestamp"));
    let azure = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 25:00:00,10,5\n";
    assert_eq!((error(azure).0, error(azure).1.as_deref()), (Some(2), Some("TIMESTAMP")));
    let missing = "{\"timestamp\": 0, \"input_length\": 10}\n";
    assert_eq!(error(missing).2, "line 1: `output_length` is missing.");
    let header = "when,prompt_tokens,output_tokens\n0,1,1\n";
    assert_eq!((error(header).0, error(header).1.as_deref()), (Some(1), Some("arrival_s")));
    let json = "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n{\"timestamp\": 1,\n";
    assert_eq!((error(json).0, error(json).1), (Some(2), None));
}

#[test]
fn lengths_and_times_outside_the_limits_are_refused_by_line_and_field() {
    let too_long = format!("arrival_s,prompt_tokens,output_tokens\n0,{},5\n", u64::from(MAX_TOKENS) + 1);
    assert_eq!(error(&too_long).1.as_deref(), Some("prompt_tokens"));
    for bad in ["-1", "inf", "1e11", "1.5e400"] {
        let text = format!("arrival_s,prompt_tokens,output_tokens\n{bad},10,5\n");
        assert_eq!((error(&text).0, error(&text).1.as_deref()), (Some(2), Some("arrival_s")), "{bad}");
    }
    let hashes = "{\"timestamp\": 0, \"input_length\": 512, \"output_length\": 5, \"hash_ids\": [1, 2]}\n";
    assert_eq!(error(hashes).1.as_deref(), Some("hash_ids"), "2 hashes for 1 block of 512 tokens");
    let prefix = "{\"arrival_s\": 0, \"prompt_tokens\": 10, \"output_tokens\": 5, \"prefix_id\": 1, \"prefix_tokens\": 11}\n";
    assert_eq!(error(prefix).1.as_deref(), Some("prefix_tokens"));
}

#[test]
fn an_empty_text_and_a_file_of_only_failed_requests_say_so() {
    assert!(error("  \n\u{feff}").2.starts_with("Nothing to read"));
    let failed = "Timestamp,Model,Request tokens,Response tokens\n1,ChatGPT,10,0\n2,ChatGPT,10,0\n";
    let message = error(failed).2;
    assert!(
        message.contains("every data line was skipped") && message.contains("Skipped 2 lines"),
        "{message}"
    );
}

#[test]
fn traces_and_measured_uploads_split_cells_by_the_one_delimiter_rule() {
    use goodput_lab::state::csv_text::delimiter;
    // The first line with text (not a `#` comment) picks comma, else tab, else semicolon.
    assert_eq!(delimiter("# a, comment\n1\t8.5\n16;2"), b'\t');
    assert_eq!(delimiter("\n\narrival_s;prompt_tokens;output_tokens\n0,1,1"), b';');
    assert_eq!(delimiter("batch\n1"), b',');
    let comma =
        read_trace("arrival_s,prompt_tokens,output_tokens\n0,512,128\n1.5,64,8\n").expect("reads").trace;
    for d in ["\t", ";"] {
        let text = format!("# a trace, split by {d:?}\narrival_s{d}prompt_tokens{d}output_tokens\n0{d}512{d}128\n1.5{d}64{d}8\n");
        assert_eq!(read_trace(&text).expect("reads").trace, comma, "{d:?}");
    }
    let points = goodput_lab::state::measured::parse_upload("1,8.5\n16,10.25").unwrap().points;
    let commented =
        goodput_lab::state::measured::parse_upload("# from my sweep, tab-separated\n1\t8.5\n16\t10.25");
    assert_eq!(commented.unwrap().points, points);
}
