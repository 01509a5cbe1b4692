//! Fuzz properties of speculative decoding's keys: any value under `spec`, `draft`, `k`, `accept` or
//! `headcost` (with a drafter set or not) gives settings in range, notices only for those keys, a
//! state that round-trips, and finite speculative numbers.

use proptest::prelude::*;
use proptest::sample::select;

use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::roofline::{analyze, spec_summary};
use goodput_lab::core::spec::{Drafter, Speculation};
use goodput_lab::state::spec::{ACCEPTANCE, DRAFT_TOKENS, HEAD_COST};
use goodput_lab::state::{from_page_query, KEYS};

use super::strategies::{hostile_value, valid_value};
use super::{check, in_field, notices_are_short, round_trips};

/// Speculation's URL keys.
pub const SPEC_KEYS: [&str; 5] = ["spec", "draft", "headcost", "k", "accept"];

/// k, alpha and a head's cost lie in their controls' ranges.
fn speculation_in_range(s: &Speculation) -> Result<(), TestCaseError> {
    in_field(&DRAFT_TOKENS, f64::from(s.draft_tokens))?;
    in_field(&ACCEPTANCE, s.acceptance)?;
    if let Drafter::Head { layer_cost_fraction } = s.drafter {
        in_field(&HEAD_COST, layer_cost_fraction)?;
    }
    Ok(())
}

/// Up to three speculation keys, each with a value it takes or any text, after an optional drafter.
fn spec_query() -> BoxedStrategy<Vec<(&'static str, String)>> {
    let pair = select(SPEC_KEYS.to_vec())
        .prop_flat_map(|k| (Just(k), prop_oneof![2 => valid_value(k), 1 => hostile_value()]));
    let mode = prop_oneof![Just(None), Just(Some("draft")), Just(Some("head"))];
    (mode, proptest::collection::vec(pair, 1..=3))
        .prop_map(|(mode, pairs)| {
            let mut all: Vec<(&str, String)> = mode.map(|m| ("spec", m.to_string())).into_iter().collect();
            all.extend(pairs);
            all
        })
        .boxed()
}

#[test]
fn any_value_under_a_speculation_key_gives_settings_in_range_that_round_trip_and_finite_numbers() {
    assert!(SPEC_KEYS.iter().all(|k| KEYS.contains(k)), "every speculation key is a page key");
    let name = "any_value_under_a_speculation_key_gives_settings_in_range_that_round_trip_and_finite_numbers";
    check(name, spec_query(), |pairs| {
        let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        let (inputs, view, notices) = from_page_query(&query);
        let s = inputs.scenario;
        speculation_in_range(&s.speculation)?;
        notices_are_short(&notices)?;
        prop_assert!(notices.iter().all(|n| SPEC_KEYS.contains(&n.key)), "{query}: {notices:?}");
        round_trips(&inputs, &view)?;
        if let Some(summary) = spec_summary(&s) {
            prop_assert!(summary.tokens_per_step >= 1.0 && summary.tokens_per_step <= 9.0, "{summary:?}");
            let a = analyze(&s);
            let p = evaluate(&s, a.server_batch.max(1));
            let spec = p.step.speculative.expect("on");
            let numbers = [spec.draft_s, spec.verify_s, spec.tpot_s, p.tokens_per_s, p.ttft_s];
            prop_assert!(numbers.iter().all(|x| x.is_finite() && *x >= 0.0), "{query}: {numbers:?}");
        }
        Ok(())
    });
}
