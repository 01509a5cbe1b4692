//! The page <-> worker protocol: requests carry their sequence number and validated inputs, both
//! directions round-trip through postcard, progress comes before the result, and the trade-off shows the step budget's two sides.

use goodput_lab::sim_protocol::{
    compute, decode, decode_request, encode, encode_request, respond, Reply, Request, CHUNK_BUDGETS,
};
use goodput_lab::state::from_query;

#[test]
fn a_request_carries_its_sequence_number_and_inputs() {
    let (inputs, _) = from_query("ctx=4096&sim=1&model=custom&m_layers=40&gpu=custom&g_bw=4.8&mbu=70");
    let request = Request { seq: 42, inputs };
    assert_eq!(decode_request(&encode_request(&request)), request);
    let default = Request { seq: 0, inputs: Default::default() };
    assert_eq!(decode_request(b"garbage"), default, "a malformed request is request 0 of the defaults");
    assert_eq!(decode_request(&[]), default);
}

#[test]
fn respond_posts_progress_then_the_result_of_the_same_request() {
    let mut replies = Vec::new();
    let (inputs, _) = from_query("sim=1&requests=200&points=4");
    respond(&Request { seq: 7, inputs }, |bytes| replies.push(decode(&bytes).expect("decodes")));
    let (last, progress) = replies.split_last().expect("replies");
    let Reply::Done { seq, result } = last else { panic!("the last reply is the result") };
    assert_eq!(*seq, 7);
    assert_eq!(result.sweep.points.len(), 4);
    assert!(!progress.is_empty());
    let dones: Vec<u32> = progress
        .iter()
        .map(|r| match r {
            Reply::Progress { seq: 7, done, total } if done <= total => *done,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert!(dones.windows(2).all(|w| w[1] == w[0] + 1), "progress counts up by one: {dones:?}");
}

#[test]
fn replies_round_trip_and_garbage_decodes_to_none() {
    let (inputs, _) = from_query("sim=1&requests=200&points=4");
    let reply = Reply::Done { seq: 3, result: Box::new(compute(&inputs, |_, _| {})) };
    assert_eq!(decode(&encode(&reply)), Some(reply));
    assert_eq!(decode(&[0xff, 0xff, 0xff]), None);
    assert_eq!(decode(&[]), None);
}

#[test]
fn bigger_step_budgets_trade_ttft_for_tpot_in_the_page_comparison() {
    let (inputs, _) = from_query("sim=1&requests=1000");
    let r = compute(&inputs, |_, _| {});
    assert_eq!(r.chunks.iter().map(|c| c.chunk_tokens).collect::<Vec<_>>(), CHUNK_BUDGETS);
    let at = |budget: u32| r.chunks.iter().find(|c| c.chunk_tokens == budget).expect("budget run").point;
    let (small, big) = (at(256), at(4096));
    assert!(
        small.ttft.p90_s.unwrap() > big.ttft.p90_s.unwrap(),
        "small budgets wait longer for the first token"
    );
    assert!(small.tpot.p90_s.unwrap() < big.tpot.p90_s.unwrap(), "big budgets stretch every decode step");
    let expected = r.sweep.goodput_req_per_s / 2.0;
    assert!((r.chunk_level - expected).abs() < 1e-9, "the comparison runs at half the goodput rate");
    assert!(r.requests_simulated > r.sweep.requests_simulated, "the comparison's requests are counted");
}
