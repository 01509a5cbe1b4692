//! The search panel's URL keys: validated once, with a notice for each bad value, and written back
//! only where they differ from the defaults.

use goodput_lab::core::placement::PlacementMode;
use goodput_lab::core::precision::Precision;
use goodput_lab::core::presets::GPU_PRICES;
use goodput_lab::state::search::SortKey;
use goodput_lab::state::{from_query, to_query, Inputs};

#[test]
fn search_keys_round_trip_through_the_url() {
    let query = "search=1&ssort=cost&sgpu=b200&sw=fp8&skv=fp8&splace=disagg&prices=b200:4.5,h100-sxm:2";
    let (inputs, notices) = from_query(query);
    assert!(notices.is_empty(), "{notices:?}");
    let s = inputs.search;
    assert!(s.open);
    assert_eq!(s.sort, SortKey::UsdPerMillionTokens);
    assert_eq!(s.filters.gpu_index, Some(9));
    assert_eq!(s.filters.weight_precision, Some(Precision::Fp8));
    assert_eq!(s.filters.kv_precision, Some(Precision::Fp8));
    assert_eq!(s.filters.placement, Some(PlacementMode::Disaggregated));
    assert_eq!(s.usd_per_gpu_hour[9], 4.5);
    assert_eq!(s.usd_per_gpu_hour[0], 2.0);
    assert_eq!(s.usd_per_gpu_hour[1], GPU_PRICES[1].usd_per_gpu_hour);
    let written = to_query(&inputs);
    assert!(written.contains("prices=h100-sxm%3A2%2Cb200%3A4.5"), "{written}");
    assert_eq!(from_query(&written).0, inputs);
}

#[test]
fn the_default_search_writes_no_key() {
    let written = to_query(&Inputs::default());
    for key in ["search=", "ssort=", "sgpu=", "sw=", "skv=", "splace=", "prices="] {
        assert!(!written.contains(key), "{key} in {written}");
    }
}

#[test]
fn bad_search_values_fall_back_with_a_notice_each() {
    let (inputs, notices) =
        from_query("search=maybe&ssort=fast&sgpu=h900&sw=int3&splace=both&prices=x100:3,b200:abc");
    let keys: Vec<&str> = notices.iter().map(|n| n.key).collect();
    assert_eq!(keys, ["search", "ssort", "sgpu", "sw", "splace", "prices", "prices"], "{notices:?}");
    let s = inputs.search;
    assert!(!s.open);
    assert_eq!(s.sort, SortKey::GoodputPerGpu);
    assert_eq!(s.filters, Default::default());
    assert_eq!(s.usd_per_gpu_hour, GPU_PRICES.map(|p| p.usd_per_gpu_hour));
}

#[test]
fn the_search_spec_carries_the_pages_load_prices_budget_and_link() {
    let (inputs, _) = from_query("rate=40&chunk=1024&xfer=50&prices=l4:0.3&ctx=4096");
    let spec = inputs.search_spec();
    assert_eq!(spec.load_req_per_s, 40.0);
    assert_eq!(spec.chunk_tokens, 1024);
    assert_eq!(spec.link_bytes_per_s, Some(50e9));
    assert_eq!(spec.usd_per_gpu_hour[8], 0.3);
    assert_eq!(spec.scenario.context_tokens, 4096);
}
