//! Both charts draw natively to SVG through the same generic functions the page uses on a canvas.

mod common;

use common::seed;
use goodput_lab::chart::{draw_rate_chart, draw_step_chart, ChartStyle, Palette};
use goodput_lab::core::curves::curves;
use goodput_lab::core::roofline::{analyze, Scenario};
use plotters::prelude::*;

#[derive(Clone, Copy)]
enum Chart {
    Rate,
    Step,
}

fn svg_of(s: &Scenario, chart: Chart) -> String {
    let c = curves(s, &analyze(s));
    let style = ChartStyle { palette: Palette::LIGHT, scale: 1.0 };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 450)).into_drawing_area();
        match chart {
            Chart::Rate => draw_rate_chart(&root, &c, &style),
            Chart::Step => draw_step_chart(&root, &c, &style),
        }
        .expect("chart draws");
    }
    svg
}

fn polyline_count(svg: &str) -> usize {
    svg.matches("<polyline").count()
}

#[test]
fn rate_chart_draws_throughput_goodput_knee_and_pool() {
    let svg = svg_of(&seed(), Chart::Rate);
    assert!(svg.starts_with("<svg"));
    for label in
        ["Requests/s", "Throughput (req/s)", "Goodput (req/s meeting TPOT)", "knee 64", "KV pool 208"]
    {
        assert!(svg.contains(label), "missing {label}");
    }
    assert!(polyline_count(&svg) >= 2, "two series lines");
}

#[test]
fn step_chart_draws_both_terms_and_the_target() {
    let svg = svg_of(&seed(), Chart::Step);
    for label in ["Step time (ms)", "Memory term", "Compute term", "TPOT target 10 ms", "knee 64"] {
        assert!(svg.contains(label), "missing {label}");
    }
}

#[test]
fn charts_follow_the_scenario() {
    let loose = Scenario { tpot_target_s: 0.05, ..seed() };
    let svg = svg_of(&loose, Chart::Step);
    assert!(svg.contains("TPOT target 50 ms") && svg.contains("knee 564"));
    assert_ne!(svg_of(&seed(), Chart::Rate), svg_of(&loose, Chart::Rate));
}

#[test]
fn charts_draw_when_nothing_fits() {
    let mut s = seed();
    s.gpu.hbm_bytes = 1e9;
    let svg = svg_of(&s, Chart::Rate);
    assert!(svg.contains("KV pool 0"));
    assert!(!svg.contains("NaN"));
}
