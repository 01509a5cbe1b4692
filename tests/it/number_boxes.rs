//! The sliders' exact-value boxes and drags, natively: a value between two slider stops survives
//! validation and the URL's round trip, a typed value out of range is clamped with a notice (the
//! same reading the URL gets), and a drag holds the batch axis that a release lets go, and the axis
//! ends each chart keeps while it lasts.

use crate::common::{batch_chart_svg, light_style};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::hold::{on_axis, HeldEnds};
use goodput_lab::chart::ChartFrame;
use goodput_lab::core::curves::curves;
use goodput_lab::core::roofline::analyze;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::drag::{AxisHold, DragEvent};
use goodput_lab::state::fields::{CTX, OUT, TPOT, TTFT};
use goodput_lab::state::prefix::PREFIX;
use goodput_lab::state::{from_query, log_stops, to_query, Inputs};
use goodput_lab::view::batch_chart::BatchChart;

#[test]
fn an_output_length_between_two_stops_survives_validation_and_the_url() {
    let stops = log_stops(OUT.min as u32, OUT.max as u32);
    assert!(stops.contains(&256) && stops.contains(&320) && !stops.contains(&300), "{stops:?}");
    let (inputs, notices) = from_query("out=300");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.scenario.output_tokens, 300);
    assert!(to_query(&inputs).contains("&out=300&"), "{}", to_query(&inputs));
    assert_eq!(from_query(&to_query(&inputs)).0, inputs);
}

#[test]
fn exact_context_ttft_tpot_and_prefix_values_round_trip_unsnapped() {
    let (inputs, notices) = from_query("in=3000&ttft=333.5&tpot=12.5&prefix=777");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(inputs.scenario.prompt_tokens(), 3000);
    assert_eq!(inputs.scenario.prefix.prefix_tokens, 777);
    assert!((inputs.scenario.ttft_target_s - 0.3335).abs() < 1e-12);
    assert!((inputs.scenario.tpot_target_s - 0.0125).abs() < 1e-12);
    let query = to_query(&inputs);
    for pair in ["in=3000", "ttft=333.5", "tpot=12.5", "prefix=777"] {
        assert!(query.contains(pair), "{pair} missing from {query}");
    }
    assert_eq!(from_query(&query).0, inputs);
}

#[test]
fn a_typed_value_past_the_top_is_clamped_with_a_notice_naming_its_key() {
    let mut notices = Vec::new();
    let used = OUT.read(Some("20000"), 256.0, &mut notices);
    assert_eq!(used, 16_384.0);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].key, "out");
    assert_eq!(notices[0].message, "out=20000 is outside 1–16384 tokens; using 16384 tokens.");
}

#[test]
fn a_typed_value_that_is_not_a_whole_number_keeps_the_current_value_with_a_notice() {
    let mut notices = Vec::new();
    assert_eq!(OUT.read(Some("300.5"), 300.0, &mut notices), 300.0);
    assert_eq!(OUT.read(Some("lots"), 300.0, &mut notices), 300.0);
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(notices.iter().all(|n| n.message.contains("not a whole number")), "{notices:?}");
}

#[test]
fn a_continuous_field_takes_a_decimal_typed_in_display_units() {
    let mut notices = Vec::new();
    let tpot = TPOT.read(Some("12.5"), 0.01, &mut notices);
    let ttft = TTFT.read(Some("333.5"), 2.0, &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    assert!((tpot - 0.0125).abs() < 1e-12 && (ttft - 0.3335).abs() < 1e-12, "{tpot} {ttft}");
}

#[test]
fn a_typed_context_past_the_models_maximum_is_clamped_to_it_with_the_reason() {
    let mut notices = Vec::new();
    let max = f64::from(Inputs::default().context_tokens_max());
    let used = CTX.read_capped(Some("500000"), 2048.0, (max, "the most Llama 3.1 8B accepts"), &mut notices);
    assert_eq!(used, max);
    assert_eq!(notices.len(), 1);
    assert!(notices[0].message.contains("the most Llama 3.1 8B accepts"), "{}", notices[0].message);
    let mut none = Vec::new();
    assert_eq!(PREFIX.read_capped(Some("300"), 0.0, (2048.0, "the context length"), &mut none), 300.0);
    assert!(none.is_empty());
}

#[test]
fn a_press_holds_the_axis_it_saw_until_a_release() {
    let free = AxisHold::default();
    assert!(!free.is_held());
    assert_eq!(free.axis(512), 512);
    let held = free.after(DragEvent::Press, 256);
    assert!(held.is_held());
    assert_eq!(held.axis(1024), 256);
    // A second press during the drag (another pointer) keeps the first hold.
    assert_eq!(held.after(DragEvent::Press, 1024).axis(2048), 256);
    let released = held.after(DragEvent::Release, 1024);
    assert_eq!(released, AxisHold::default());
    assert_eq!(released.axis(1024), 1024);
}

#[test]
fn a_section_out_of_view_waits_only_while_a_drag_holds_the_axis() {
    let free = AxisHold::default();
    let held = free.after(DragEvent::Press, 256);
    // No drag: every section follows, in view or not, reported or not.
    for in_view in [None, Some(true), Some(false)] {
        assert!(free.shows_live(in_view), "{in_view:?}");
    }
    // A drag: only a section known to be out of view waits; one not reported yet counts as in view.
    assert!(held.shows_live(Some(true)));
    assert!(held.shows_live(None));
    assert!(!held.shows_live(Some(false)));
    // The release lets it catch up.
    assert!(held.after(DragEvent::Release, 256).shows_live(Some(false)));
}

/// The worked example at a TPOT target (ms) whose knee sets the axis.
fn at_tpot(ms: f64) -> Scenario {
    let mut s = Inputs::default().scenario;
    s.tpot_target_s = ms * 1e-3;
    s
}

#[test]
fn curves_on_a_held_axis_reach_its_end_and_keep_the_knee() {
    let s = at_tpot(30.0);
    let a = analyze(&s);
    let free = curves(&s, &a);
    let held_end = free.axis_max_batch / 2;
    let held = on_axis(free.clone(), &s, &a, (&[], None), held_end);
    assert_eq!(held.axis_max_batch, held_end);
    assert_eq!(held.points.last().map(|p| p.batch), Some(held_end));
    assert!(held.points.iter().all(|p| p.batch <= held_end));
    if a.knee_batch <= held_end {
        assert!(held.points.iter().any(|p| p.batch == a.knee_batch));
    }
    assert_eq!(
        (held.server_batch, held.knee_batch, held.kv_pool_batch),
        (free.server_batch, free.knee_batch, free.kv_pool_batch)
    );
    let wider = on_axis(free.clone(), &s, &a, (&[], None), free.axis_max_batch * 2);
    assert_eq!(wider.points.last().map(|p| p.batch), Some(free.axis_max_batch * 2));
    assert_eq!(on_axis(free.clone(), &s, &a, (&[], None), free.axis_max_batch), free);
}

/// The frames of the three charts drawn (SVG) on the `held` ends.
fn frames_held(s: &Scenario, held: HeldEnds) -> [ChartFrame; 3] {
    let c = curves(s, &analyze(s));
    let style = light_style();
    BatchChart::ALL.map(|kind| {
        let (_, frame) = batch_chart_svg(&BatchDraw::new(kind, &c, &style).held(held), (800, 450));
        frame.unwrap_or_else(|e| panic!("{kind:?} draws: {e}"))
    })
}

#[test]
fn held_ends_replace_each_charts_own_and_none_leaves_them() {
    let s = at_tpot(10.0);
    let own = frames_held(&s, HeldEnds::NONE);
    let c = curves(&s, &analyze(&s));
    assert!(own[..2].iter().all(|f| f.x_range.1 == f64::from(c.axis_max_batch)));
    let held = HeldEnds { x: Some(12_345.0), y: Some(678.0) };
    let [rate, step, speed] = frames_held(&s, held);
    for (name, f, mine) in [("rate", rate, own[0]), ("step", step, own[1]), ("interactivity", speed, own[2])]
    {
        assert_eq!(f.y_range.1, 678.0, "{name}");
        assert_ne!(mine.y_range.1, 678.0, "{name}");
    }
    // The batch charts' x comes from their curves (on_axis holds it); the speed axis is held here.
    assert_eq!((rate.x_range.1, step.x_range.1), (own[0].x_range.1, own[1].x_range.1));
    assert_eq!(speed.x_range.1, 12_345.0);
}
