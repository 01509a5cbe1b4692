//! Bugs the properties found, each pinned by the smallest case that showed it.

use goodput_lab::core::fit::{fit, YourPoint};
use goodput_lab::core::sim::{sweep, SimConfig};
use goodput_lab::state::{from_page_query, from_query, measured, page_query, parse_raw};

#[test]
fn a_notice_quotes_an_enormous_or_tiny_number_in_a_few_characters() {
    // Was: all 308 digits of the number, then "tpot=0 is outside" for 1e-7.
    let (_, notices) = from_query("ctx=3.9716383426663e307&tpot=0.0000001");
    let messages: Vec<&str> = notices.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "ctx=3.972e307 is outside 128–131072 tokens, the most Llama 3.1 8B accepts; using 131072 tokens.",
            "tpot=1e-7 is outside 1–500 ms; using 1 ms.",
        ]
    );
}

#[test]
fn measured_tpot_outside_0_001_to_100000_ms_is_refused_naming_the_range() {
    // Was: 1e-324 ms read as a point of 0 s that the next reload dropped, and 1e300 ms accepted.
    let mut notices = Vec::new();
    let points = measured::read(&parse_raw("measured=1:0.0004,2:1e300,3:8.2"), &mut notices);
    assert_eq!(points.iter().map(|p| (p.batch, (p.tpot_s * 1e6).round())).collect::<Vec<_>>(), [(3, 8200.0)]);
    assert_eq!(notices.len(), 2);
    assert!(notices.iter().all(|n| n.message.contains("TPOT 0.001–100,000 ms")), "{notices:?}");
    let csv = measured::parse_upload("batch,tpot_ms\n1,0.0004").unwrap_err();
    assert_eq!(csv, "line 2: TPOT 4e-4 ms is outside 0.001–100,000 ms.");
    let json = measured::parse_upload(r#"{"max_concurrency": 4, "mean_tpot_ms": 1e300}"#).unwrap_err();
    assert_eq!(json, "JSON result 1: mean_tpot_ms 1e300 is outside 0.001–100,000 ms.");
}

#[test]
fn a_fit_of_the_most_points_at_the_longest_and_shortest_accepted_step_times_is_finite() {
    // Was: R² = 1 - inf / inf = NaN for a point at 1e308 ms; the accepted range keeps the sums finite.
    let (inputs, _) = from_query("");
    let (shortest_ms, longest_ms) = measured::TPOT_MS_RANGE;
    let points: Vec<YourPoint> = (1..=measured::MAX_POINTS as u32)
        .map(|batch| YourPoint::new(batch, if batch % 2 == 0 { longest_ms } else { shortest_ms } / 1e3))
        .collect();
    let f = fit(&inputs.scenario, &points).expect("the step times grow with the batch on average");
    assert!(f.r_squared.is_some_and(f64::is_finite) && f.rms_residual_s.is_finite(), "{f:?}");
}

#[test]
fn closing_the_simulator_in_a_lesson_that_opened_it_survives_a_reload() {
    // Was: the link dropped `sim=`, so lesson 6 reopened with the simulator shown.
    let (inputs, view, notices) = from_page_query("lesson=6&sim=0");
    assert!(notices.is_empty(), "{notices:?}");
    assert!(!inputs.sim.open);
    let query = page_query(&inputs, &view);
    assert!(query.contains("&sim=0&") && query.ends_with("&lesson=6"), "{query}");
    let (again, view_again, _) = from_page_query(&query);
    assert_eq!((again, view_again), (inputs, view));
}

#[test]
fn a_closed_loop_run_that_refuses_every_request_reports_a_departure_rate_of_zero() {
    // Was: every request refused at t = 0, so n / max(0, MIN_POSITIVE) = infinity.
    let (inputs, _) = from_query("gpu=tpu-v5e&load=closed");
    let s = inputs.scenario;
    let c = SimConfig { requests: 6, rate_points: 3, ..inputs.sim.config(&s) };
    for p in sweep(&c).points {
        assert_eq!((p.rejected, p.departure_rate_req_per_s, p.mean_in_system), (6, 0.0, 0.0), "{p:?}");
    }
}
