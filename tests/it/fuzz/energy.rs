//! The energy keys' share of the fuzz tests: any value under `kwh`, `pue` or `hostw` gives a power
//! price inside the boxes' ranges that round-trips, with a notice naming the key exactly when the
//! value is not taken as written, and the batch table's and the capacity plan's energy figures stay
//! finite and non-negative.

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;

use goodput_lab::core::capacity::{plan_at, unit_point, Placing};
use goodput_lab::core::energy::{batch_energy, EnergyPrice};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::placement::{Percentile, PlacementMode, Split};
use goodput_lab::state::energy::{HOSTW, KWH, PUE};
use goodput_lab::state::fields::NumberField;
use goodput_lab::state::{from_page_query, KEYS, WORKED_EXAMPLE};

use super::strategies::{hostile_value, valid_value};
use super::{all_finite, check, in_field, notices_are_short, round_trips};

/// The energy keys and their fields.
const ENERGY_KEYS: [(&str, NumberField); 3] = [("kwh", KWH), ("pue", PUE), ("hostw", HOSTW)];

/// Whether `value` is taken as written: a finite number (commas and underscores dropped) in range.
fn taken_as_written(f: &NumberField, value: &str) -> bool {
    let x = value.trim().replace([',', '_'], "").parse::<f64>();
    x.is_ok_and(|x| x.is_finite() && (f.min..=f.max).contains(&x))
}

/// The price's every value lies in its box's range.
fn energy_in_range(e: &EnergyPrice) -> Result<(), TestCaseError> {
    in_field(&KWH, e.usd_per_kwh)?;
    in_field(&PUE, e.pue)?;
    in_field(&HOSTW, e.host_w_per_gpu)
}

/// The worked example's knee and a plan for 100 req/s at `e`: every figure finite, none negative.
fn figures_ok(e: &EnergyPrice) -> Result<(), TestCaseError> {
    let s = WORKED_EXAMPLE;
    let knee = batch_energy(&s, &evaluate(&s, 64), e);
    all_finite("knee energy", &knee)?;
    prop_assert!(knee.energy_j_per_token > 0.0 && knee.energy_usd_per_million_tokens >= 0.0, "{knee:?}");
    let placing = Placing {
        mode: PlacementMode::Colocated,
        split: Split::default(),
        chunk_tokens: 512,
        percentile: Percentile::P90_FIXED,
    };
    let unit = unit_point(&s, &placing).expect("the worked example serves");
    let plan = plan_at(&unit, 100.0, 2.5, &s, e).expect("a plan");
    all_finite("plan", &plan)?;
    prop_assert!(plan.energy.power_w > 0.0 && plan.cost_per_million_tokens >= 0.0, "{plan:?}");
    Ok(())
}

#[test]
fn any_value_under_an_energy_key_gives_a_price_in_range_a_notice_exactly_when_not_taken_and_finite_figures() {
    assert!(ENERGY_KEYS.iter().all(|(k, _)| KEYS.contains(k)), "every energy key is a page key");
    let name = "any_value_under_an_energy_key_gives_a_price_in_range_a_notice_exactly_when_not_taken_and_finite_figures";
    let pair = (select(ENERGY_KEYS.to_vec()), any::<bool>()).prop_flat_map(|((k, f), valid)| {
        let value = if valid { valid_value(k) } else { hostile_value() };
        (Just(k), Just(f), value)
    });
    check(name, pair, |(key, field, value)| {
        let query = serde_urlencoded::to_string([(key, &value)]).unwrap_or_default();
        let (inputs, view, notices) = from_page_query(&query);
        energy_in_range(&inputs.energy)?;
        notices_are_short(&notices)?;
        prop_assert!(notices.iter().all(|n| n.key == key), "{query}: {notices:?}");
        let taken = taken_as_written(&field, &value);
        prop_assert_eq!(notices.is_empty(), taken, "{}: {:?}", query, notices);
        figures_ok(&inputs.energy)?;
        round_trips(&inputs, &view)
    });
}
