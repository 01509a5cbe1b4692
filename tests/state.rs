//! URL state: every control round-trips through the query string, and bad values fall back with a
//! notice instead of failing.

use goodput_lab::core::roofline::Precision;
use goodput_lab::state::{from_query, log_stops, nearest_stop_index, to_query, Inputs};

#[test]
fn empty_query_gives_the_seed_defaults_without_notices() {
    let (inputs, notices) = from_query("");
    assert_eq!(inputs, Inputs::default());
    assert!(notices.is_empty());
    assert_eq!(to_query(&inputs), "model=llama-3.1-8b&gpu=h100-sxm&ctx=2048&kv=bf16&tpot=10&out=256");
}

#[test]
fn a_url_with_every_key_opens_that_state() {
    let (inputs, notices) = from_query("?model=llama-3.1-8b&gpu=h100-sxm&ctx=8192&kv=fp8&tpot=25.5&out=512");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.context_tokens, 8192);
    assert_eq!(inputs.kv_precision, Precision::Fp8);
    assert!((inputs.tpot_target_s - 0.0255).abs() < 1e-12);
    assert_eq!(inputs.output_tokens, 512);
}

#[test]
fn every_key_round_trips() {
    let query = "model=llama-3.1-8b&gpu=h100-sxm&ctx=3000&kv=fp8&tpot=7.5&out=99";
    let (inputs, notices) = from_query(query);
    assert!(notices.is_empty());
    assert_eq!(to_query(&inputs), query);
    assert_eq!(from_query(&to_query(&inputs)).0, inputs);
}

#[test]
fn garbage_values_fall_back_to_defaults_with_one_notice_each() {
    let (inputs, notices) = from_query("model=gpt-9&gpu=toaster&ctx=lots&kv=int3&tpot=NaN&out=-");
    assert_eq!(inputs, Inputs::default());
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["model", "gpu", "kv", "ctx", "out", "tpot"]);
    assert!(notices[0].message.contains("gpt-9") && notices[0].message.contains("Llama 3.1 8B"));
}

#[test]
fn out_of_range_numbers_are_clamped_with_a_notice() {
    let (inputs, notices) = from_query("ctx=1&tpot=0&out=10000000");
    assert_eq!(inputs.context_tokens, 128);
    assert_eq!(inputs.tpot_target_s, 0.001);
    assert_eq!(inputs.output_tokens, 16_384);
    assert_eq!(notices.len(), 3);
    assert!(notices.iter().all(|n| n.message.contains("outside")));
}

#[test]
fn markup_in_a_value_is_quoted_as_text_and_truncated() {
    let long = "<script>alert(1)</script>".repeat(5);
    let (_, notices) = from_query(&format!("model={long}"));
    assert!(notices[0].message.contains("“<script>alert(1)</script><script>alert(1…”"));
}

#[test]
fn context_slider_stops_are_log_spaced_and_include_the_seed() {
    let stops = log_stops(128, 131_072);
    assert_eq!((stops[0], *stops.last().unwrap()), (128, 131_072));
    assert!(stops.contains(&2048) && stops.contains(&256));
    for pair in stops.windows(2) {
        let ratio = f64::from(pair[1]) / f64::from(pair[0]);
        assert!(ratio > 1.1 && ratio <= 1.26, "{pair:?}");
    }
    assert_eq!(stops[nearest_stop_index(&stops, 2048)], 2048);
    assert_eq!(stops[nearest_stop_index(&stops, 3000)], 3072);
}

#[test]
fn output_slider_reaches_one_and_the_seed_256() {
    let stops = log_stops(1, 16_384);
    assert_eq!(stops[0], 1);
    assert!(stops.contains(&256));
}
