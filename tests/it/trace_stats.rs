//! A trace's statistics against a hand computation, the reuse ceiling on the Mooncake fixture, the
//! synthesized block hashes and the content hash against an FNV-1a 64 written out here.

use goodput_lab::core::traffic::blocks::{prefix_block_hash, session_block_hash};
use goodput_lab::core::traffic::stats::{content_hash, TraceStats};
use goodput_lab::core::traffic::{RequestTrace, TraceFormat, TraceRequest};
use goodput_lab::state::trace::read_trace;

use crate::trace_readers::fixture;

/// FNV-1a 64 as published: offset basis 14695981039346656037, prime 1099511628211.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 14_695_981_039_346_656_037;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(1_099_511_628_211);
    }
    h
}

fn request(arrival_s: f64, prompt_tokens: u32, output_tokens: u32) -> TraceRequest {
    TraceRequest::unhashed(arrival_s, prompt_tokens, output_tokens)
}

/// Arrivals 0, 1, 2, 4 s; prompts 100..400; outputs 10, 10, 30, 50; sessions 7, 7, 9, none.
fn four() -> RequestTrace {
    let mut requests =
        vec![request(0.0, 100, 10), request(1.0, 200, 10), request(2.0, 300, 30), request(4.0, 400, 50)];
    requests[0].session = Some(7);
    requests[1].session = Some(7);
    requests[2].session = Some(9);
    RequestTrace { format: TraceFormat::Plain, block_tokens: 16, requests, blocks: Vec::new() }
}

#[test]
fn a_traces_length_percentiles_are_the_simulators_nearest_ranks() {
    for n in [1_u32, 2, 3, 7, 10, 99, 100, 101, 1001] {
        // Prompts n, n - 1, …, 1 in arrival order: the sorted values are 1..=n.
        let requests = (0..n).map(|i| request(f64::from(i), n - i, 1)).collect();
        let trace =
            RequestTrace { format: TraceFormat::Plain, block_tokens: 16, requests, blocks: Vec::new() };
        let p = TraceStats::of(&trace).prompt_tokens;
        let values: Vec<f64> = (1..=n).map(f64::from).collect();
        let sim = goodput_lab::core::sim::percentiles(&values);
        for (got, want, q) in [(p.p50, sim.p50_s, 0.5), (p.p90, sim.p90_s, 0.9), (p.p99, sim.p99_s, 0.99)] {
            let rank = goodput_lab::core::sim::nearest_rank(q, n as usize);
            assert_eq!((Some(f64::from(got)), got as usize), (want, rank), "n = {n}, q = {q}");
        }
    }
}

#[test]
fn statistics_match_a_hand_computation() {
    let s = TraceStats::of(&four());
    assert_eq!((s.requests, s.sessions, s.duration_s), (4, 2, 4.0));
    assert_eq!(s.rate_req_per_s, Some(0.75), "3 gaps over 4 s");
    let p = s.prompt_tokens;
    // Nearest rank: p50 is the 2nd of 4, p90 and p99 the 4th.
    assert_eq!((p.mean, p.p50, p.p90, p.p99, p.max), (250.0, 200, 400, 400, 400));
    let o = s.output_tokens;
    assert_eq!((o.mean, o.p50, o.p90, o.max), (25.0, 10, 50, 50));
    // Gaps 1, 1, 2: mean 4/3; variance (1/9 + 1/9 + 4/9) / 3 = 2/9; CV = (√2 / 3) / (4 / 3) = √2 / 4.
    assert!((s.inter_arrival_mean_s - 4.0 / 3.0).abs() < 1e-12);
    assert!((s.inter_arrival_cv - 2f64.sqrt() / 4.0).abs() < 1e-12, "{}", s.inter_arrival_cv);
    assert_eq!(s.reuse_ceiling, 0.0, "no blocks");
}

#[test]
fn a_single_request_or_a_burst_at_one_instant_has_no_rate_and_no_spread() {
    let mut t = four();
    t.requests.iter_mut().for_each(|r| r.arrival_s = 0.0);
    let s = TraceStats::of(&t);
    assert_eq!((s.rate_req_per_s, s.inter_arrival_mean_s, s.inter_arrival_cv), (None, 0.0, 0.0));
    t.requests.truncate(1);
    assert_eq!(TraceStats::of(&t).requests, 1);
}

#[test]
fn the_mooncake_fixtures_reuse_ceiling_is_the_share_of_prompt_tokens_in_blocks_seen_before() {
    let t = read_trace(&fixture("mooncake.jsonl")).expect("reads").trace;
    // Blocks [0,1,2] [0,3] [0,1,4] [5] of 512 tokens: the 2nd reuses block 0 (512 of its 600
    // tokens), the 3rd blocks 0 and 1 (1,024 of 1,536); prompts total 1,100 + 600 + 1,536 + 512.
    let expected = (512.0 + 1024.0) / (1100.0 + 600.0 + 1536.0 + 512.0);
    assert!((TraceStats::of(&t).reuse_ceiling - expected).abs() < 1e-12);
    // The plain sessions fixture: the third request (70 tokens) finds its session's 2 earlier blocks.
    let sessions = read_trace(&fixture("plain_sessions.csv")).expect("reads").trace;
    assert!((TraceStats::of(&sessions).reuse_ceiling - 32.0 / 130.0).abs() < 1e-12);
}

#[test]
fn session_and_prefix_block_hashes_are_fnv1a_over_a_tag_the_id_and_the_index() {
    let mut bytes = vec![b'S'];
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(5u32.to_le_bytes());
    assert_eq!(session_block_hash(3, 5), fnv(&bytes));
    bytes[0] = b'P';
    assert_eq!(prefix_block_hash(3, 5), fnv(&bytes));
    assert_ne!(session_block_hash(3, 5), prefix_block_hash(3, 5));
    assert_ne!(session_block_hash(3, 5), session_block_hash(5, 3));
}

#[test]
fn the_content_hash_is_fnv1a_over_the_documented_bytes() {
    let mut t = four();
    t.requests.truncate(1);
    t.requests[0].arrival_s = 0.0;
    t.blocks = vec![42];
    t.requests[0].blocks_len = 1;
    let mut bytes: Vec<u8> = Vec::new();
    bytes.extend(16u32.to_le_bytes()); // block tokens
    bytes.extend(1u64.to_le_bytes()); // requests
    bytes.extend(0u64.to_le_bytes()); // arrival, µs
    bytes.extend(100u32.to_le_bytes());
    bytes.extend(10u32.to_le_bytes());
    bytes.push(1);
    bytes.extend(7u32.to_le_bytes()); // session 7
    bytes.extend(1u32.to_le_bytes()); // one block
    bytes.extend(42u64.to_le_bytes());
    assert_eq!(content_hash(&t), fnv(&bytes));
}

#[test]
fn the_content_hash_is_stable_and_moves_with_every_field_but_the_format() {
    let base = four();
    let h = content_hash(&base);
    assert_eq!(h, content_hash(&base.clone()));
    assert_eq!(h, content_hash(&RequestTrace { format: TraceFormat::Azure, ..base.clone() }));
    let changes: [fn(&mut RequestTrace); 6] = [
        |t| t.requests[1].arrival_s += 1e-6,
        |t| t.requests[2].prompt_tokens += 1,
        |t| t.requests[3].output_tokens -= 1,
        |t| t.requests[3].session = Some(0),
        |t| t.block_tokens = 512,
        |t| t.requests.truncate(3),
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut t = base.clone();
        change(&mut t);
        assert_ne!(content_hash(&t), h, "change {i}");
    }
}
