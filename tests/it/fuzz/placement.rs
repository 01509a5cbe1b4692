//! The placement's share of the fuzz tests: its keys (`place`, `xp`, `tpp`, `yd`, `tpd`, `xfer`) give a
//! split inside the control's ranges that round-trips, with a notice exactly when a value is not taken
//! as written; `core::placement::compare` and `disaggregated`, on any validated state and on splits at
//! the edges of their ranges, give finite, non-negative numbers and readable text, and never panic.

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use proptest::test_runner::TestCaseError;

use goodput_lab::core::placement::Percentile;
use goodput_lab::core::placement::{
    compare, decode_parallel, disaggregated, Disaggregated, Operating, PlacementMode, Split,
    GPUS_PER_SIDE_MAX, INSTANCES_MAX,
};
use goodput_lab::core::roofline::TP_CHOICES;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::fields::NumberField;
use goodput_lab::state::placement::{PlacementInputs, DECODE_INSTANCES, PREFILL_INSTANCES, TRANSFER};
use goodput_lab::state::sim::CHUNK;
use goodput_lab::state::{from_page_query, KEYS};
use goodput_lab::view::format::placement::{finding, link_text, rows};

use super::strategies::{edge_scenario, hostile_value, in_range, valid_query, valid_value};
use super::{all_finite, check, in_field, notices_are_short, readable, round_trips};

/// The placement's URL keys.
const PLACEMENT_KEYS: [&str; 6] = ["place", "xp", "tpp", "yd", "tpd", "xfer"];

/// The split's every value lies in the control's range: 1 to 8 instances a side, a TP from the
/// offered choices, a link inside [`TRANSFER`]'s range.
pub fn placement_in_range(p: &PlacementInputs) -> Result<(), TestCaseError> {
    let s = p.split;
    let instances = 1..=INSTANCES_MAX;
    prop_assert!(
        instances.contains(&s.prefill_instances) && instances.contains(&s.decode_instances),
        "{s:?}"
    );
    prop_assert!(TP_CHOICES.contains(&s.prefill_tp) && TP_CHOICES.contains(&s.decode_tp), "{s:?}");
    if let Some(b) = s.link_bytes_per_s {
        in_field(&TRANSFER, b)?;
    }
    Ok(())
}

/// `again`, read back from the page's query for `p`, is the same placement (the link to the
/// three decimals of GB/s the URL carries).
pub fn placement_round_trips(p: &PlacementInputs, again: &PlacementInputs) -> Result<(), TestCaseError> {
    let (a, b) = (p.split, again.split);
    prop_assert_eq!(p.mode, again.mode);
    prop_assert_eq!(
        (a.prefill_instances, a.prefill_tp, a.decode_instances, a.decode_tp),
        (b.prefill_instances, b.prefill_tp, b.decode_instances, b.decode_tp)
    );
    match (a.link_bytes_per_s, b.link_bytes_per_s) {
        (None, None) => Ok(()),
        (Some(x), Some(y)) => {
            prop_assert!(
                (TRANSFER.to_display(x) - TRANSFER.to_display(y)).abs() <= 5e-4 + 1e-9,
                "{x} vs {y}"
            );
            Ok(())
        }
        (x, y) => Err(TestCaseError::fail(format!("link {x:?} read back as {y:?}"))),
    }
}

/// Whether `key` takes `value` as written (no notice): the README's rules, restated here.
fn taken_as_written(key: &str, value: &str) -> bool {
    let t = value.trim();
    let count = |f: &NumberField| {
        let x = t.replace([',', '_'], "").parse::<f64>();
        x.is_ok_and(|x| x.fract() == 0.0 && (f.min..=f.max).contains(&x))
    };
    match key {
        // Every enum key reads its ids in any case (state::read).
        "place" => t.eq_ignore_ascii_case("colo") || t.eq_ignore_ascii_case("disagg"),
        "tpp" | "tpd" => t.parse::<u32>().is_ok_and(|tp| TP_CHOICES.contains(&tp)),
        "xp" => count(&PREFILL_INSTANCES),
        "yd" => count(&DECODE_INSTANCES),
        "xfer" => {
            let number = t.replace([',', '_'], "").parse::<f64>();
            t.eq_ignore_ascii_case("auto") || number.is_ok_and(|x| (TRANSFER.min..=TRANSFER.max).contains(&x))
        }
        _ => unreachable!("{key} is not a placement key"),
    }
}

/// The value a key took as written, as the split holds it.
fn holds_as_written(key: &str, value: &str, p: &PlacementInputs) -> Result<(), TestCaseError> {
    let (t, s) = (value.trim(), p.split);
    let number = || t.replace([',', '_'], "").parse::<f64>().unwrap_or(f64::NAN);
    match key {
        "place" => prop_assert_eq!(p.mode == PlacementMode::Disaggregated, t.eq_ignore_ascii_case("disagg")),
        "tpp" => prop_assert_eq!(f64::from(s.prefill_tp), number()),
        "tpd" => prop_assert_eq!(f64::from(s.decode_tp), number()),
        "xp" => prop_assert_eq!(f64::from(s.prefill_instances), number()),
        "yd" => prop_assert_eq!(f64::from(s.decode_instances), number()),
        _ if t.eq_ignore_ascii_case("auto") => prop_assert_eq!(s.link_bytes_per_s, None),
        _ => prop_assert_eq!(s.link_bytes_per_s, Some(TRANSFER.to_base(number()))),
    }
    Ok(())
}

/// A placement key with a value it takes, one it clamps, or any text.
fn placement_pair() -> BoxedStrategy<(&'static str, String)> {
    let keyed = PLACEMENT_KEYS.iter().map(|&k| {
        let value = prop_oneof![1 => valid_value(k), 1 => hostile_value()];
        (1, (Just(k), value).boxed())
    });
    Union::new_weighted(keyed.collect::<Vec<_>>()).boxed()
}

#[test]
fn any_value_under_a_placement_key_gives_a_split_in_range_and_a_notice_exactly_when_not_taken() {
    assert!(PLACEMENT_KEYS.iter().all(|k| KEYS.contains(k)), "every placement key is a page key");
    let name = "any_value_under_a_placement_key_gives_a_split_in_range_and_a_notice_exactly_when_not_taken";
    check(name, placement_pair(), |(key, value)| {
        let query = serde_urlencoded::to_string([(key, &value)]).unwrap_or_default();
        let (inputs, view, notices) = from_page_query(&query);
        placement_in_range(&inputs.placement)?;
        notices_are_short(&notices)?;
        prop_assert!(notices.iter().all(|n| n.key == key), "{query}: {notices:?}");
        let taken = taken_as_written(key, &value);
        prop_assert_eq!(notices.is_empty(), taken, "{}: {:?}", query, notices);
        if taken {
            holds_as_written(key, &value, &inputs.placement)?;
        }
        round_trips(&inputs, &view)
    });
}

/// A colocated operating point's numbers are finite and not negative.
fn operating_ok(what: &str, p: &Operating) -> Result<(), TestCaseError> {
    let times = [p.tpot_s, p.ttft_s].into_iter().flatten();
    prop_assert!(p.rate_req_per_s >= 0.0 && p.batch >= 0.0, "{what}: {p:?}");
    prop_assert!(times.into_iter().all(|t| t >= 0.0), "{what}: {p:?}");
    Ok(())
}

/// A split's numbers are not negative, and its rate is the slower side's on its GPUs: x prefill
/// instances of TP_p and y decode instances of the shape the split gives them (TP_d, or the page's
/// parallelism when its TP is TP_d: `placement::decode_parallel`).
fn split_ok(what: &str, s: &Scenario, split: &Split, d: &Disaggregated) -> Result<(), TestCaseError> {
    let rates = [d.prefill_s, d.transfer_s, d.prefill_rate_req_per_s, d.decode_rate_req_per_s];
    let more = [d.rate_req_per_s, d.goodput_per_gpu_req_per_s, d.balanced_prefill_per_decode];
    let times = [d.decode_tpot_s, d.ttft_s].into_iter().flatten();
    prop_assert!(rates.into_iter().chain(more).chain(times).all(|x| x >= 0.0), "{what}: {d:?}");
    let (x, y) = (f64::from(split.prefill_instances), f64::from(split.decode_instances));
    let slower = (x * d.prefill_rate_req_per_s).min(y * d.decode_rate_req_per_s);
    prop_assert!(d.rate_req_per_s <= slower * (1.0 + 1e-12), "{what}: {d:?}");
    let decode_gpus = decode_parallel(s, split).gpus();
    let gpus = split.prefill_instances * split.prefill_tp + split.decode_instances * decode_gpus;
    prop_assert_eq!(d.gpus, gpus, "{}", what);
    Ok(())
}

/// Every placement on `s` with `chunk` tokens a step and `split`: finite, non-negative, readable.
fn placements_ok(s: &Scenario, chunk: u32, split: &Split) -> Result<(), TestCaseError> {
    let c = compare(s, chunk, split, &Percentile::P90_FIXED);
    all_finite("comparison", &c)?;
    operating_ok("chunked", &c.chunked)?;
    operating_ok("unchunked", &c.unchunked)?;
    split_ok("split", s, split, &c.disaggregated)?;
    prop_assert_eq!(disaggregated(s, split, &Percentile::P90_FIXED), c.disaggregated);
    if let Some((best, d)) = &c.best_split {
        split_ok("best split", s, best, d)?;
        let searched = split.prefill_instances * split.prefill_tp <= GPUS_PER_SIDE_MAX
            && split.decode_instances * split.decode_tp <= GPUS_PER_SIDE_MAX;
        let (most, this) = (d.goodput_per_gpu_req_per_s, c.disaggregated.goodput_per_gpu_req_per_s);
        prop_assert!(!searched || most >= this * (1.0 - 1e-12), "best {most} below the split's {this}");
    }
    for r in rows(&c, chunk, split, 100.0) {
        readable(
            r.id,
            &format!("{} {} {} {} {} {} {}", r.label, r.rate, r.gpus, r.per_gpu, r.tpot, r.ttft, r.binds),
        )?;
    }
    readable("finding", &finding(&c, split))?;
    // The GPU preset's source is quoted as written (AMD's "Infinity Fabric" is no infinity).
    readable("link", &link_text(s, split).replace(s.gpu.source, ""))
}

#[test]
fn placements_on_any_validated_state_are_finite_and_non_negative() {
    check("placements_on_any_validated_state_are_finite_and_non_negative", valid_query(), |q| {
        let (inputs, _, _) = from_page_query(&q);
        placements_ok(&inputs.scenario, inputs.sim.chunk_tokens, &inputs.placement.split)
    });
}

/// A split at the edges of the control: 1 or 8 instances (or any between), any TP, the GPU's
/// interconnect or a link anywhere in [`TRANSFER`]'s range.
fn edge_split() -> BoxedStrategy<Split> {
    let instances = || prop_oneof![Just(1), Just(INSTANCES_MAX), 1..=INSTANCES_MAX];
    let tp = || select(TP_CHOICES.to_vec());
    let link = prop_oneof![1 => Just(None), 2 => in_range(TRANSFER).prop_map(|x| Some(TRANSFER.to_base(x)))];
    (instances(), tp(), instances(), tp(), link)
        .prop_map(|(prefill_instances, prefill_tp, decode_instances, decode_tp, link_bytes_per_s)| Split {
            prefill_instances,
            prefill_tp,
            decode_instances,
            decode_tp,
            link_bytes_per_s,
        })
        .boxed()
}

#[test]
fn placements_at_the_edges_of_every_range_are_finite_and_non_negative() {
    let chunk = in_range(CHUNK).prop_map(|x| x as u32);
    let input = (edge_scenario(), chunk, edge_split());
    check(
        "placements_at_the_edges_of_every_range_are_finite_and_non_negative",
        input,
        |(s, chunk, split)| placements_ok(&s, chunk, &split),
    );
}
