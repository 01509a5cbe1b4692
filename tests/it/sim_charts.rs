//! The simulator's two charts, attainment and served throughput against request rate, draw natively
//! to SVG from real sweeps: curves, target, goodput marker and labels follow the sweep and the view.

use crate::common::worked_example;
use goodput_lab::chart::{
    draw_attainment_chart, draw_sim_throughput_chart, AttainmentView, ChartStyle, Palette, IDEAL_OPACITY,
};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{sweep, Counting, GoodputBound, LoadMode, SimConfig, Sweep};
use goodput_lab::state::sim::SimInputs;
use goodput_lab::view::format::significant;
use plotters::prelude::{IntoDrawingArea, RGBColor, SVGBackend};

#[derive(Clone, Copy)]
enum Chart {
    Attainment,
    Throughput,
}

const BOTH_CHARTS: [Chart; 2] = [Chart::Attainment, Chart::Throughput];

/// The page's default sweep on the worked example, 300 requests per rate to keep it quick.
fn config() -> SimConfig {
    SimInputs { requests: 300, ..SimInputs::default() }.config(&worked_example())
}

/// A TTFT target no request can meet: even the lowest rate misses.
fn unreachable_ttft() -> SimConfig {
    SimConfig { scenario: Scenario { ttft_target_s: 1e-6, ..worked_example() }, ..config() }
}

fn svg_with(s: &Sweep, view: &AttainmentView, chart: Chart, palette: Palette) -> String {
    let style = ChartStyle { palette, scale: 1.0, layer: goodput_lab::chart::Layer::Whole };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 450)).into_drawing_area();
        match chart {
            Chart::Attainment => draw_attainment_chart(&root, s, view, &style),
            Chart::Throughput => draw_sim_throughput_chart(&root, s, view, &style),
        }
        .expect("chart draws");
    }
    svg
}

fn svg_of(s: &Sweep, view: &AttainmentView, chart: Chart) -> String {
    svg_with(s, view, chart, Palette::LIGHT)
}

/// The sweep of `c` and both charts drawn from it.
fn charts_of(c: &SimConfig) -> (Sweep, String, String) {
    let s = sweep(c);
    let view = AttainmentView::from(c);
    let (attainment, throughput) =
        (svg_of(&s, &view, Chart::Attainment), svg_of(&s, &view, Chart::Throughput));
    (s, attainment, throughput)
}

/// Every `<text>` element's content, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|el| el.split_once('>').and_then(|(_, rest)| rest.split_once("</text>")))
        .map(|(content, _)| content.trim().to_string())
        .collect()
}

/// The x pixel and `text-anchor` of the `<text>` element reading `text`.
fn text_anchor(svg: &str, text: &str) -> Option<(i32, String)> {
    let el = svg.split("<text").skip(1).find(|el| {
        el.split_once('>')
            .and_then(|(_, rest)| rest.split_once("</text>"))
            .is_some_and(|(c, _)| c.trim() == text)
    })?;
    let attr = |name: &str| Some(el.split_once(&format!("{name}=\""))?.1.split_once('"')?.0.to_string());
    Some((attr("x")?.parse().ok()?, attr("text-anchor")?))
}

fn has_text(svg: &str, text: &str) -> bool {
    texts(svg).iter().any(|t| t == text)
}

/// The goodput marker's labels: texts "Goodput ... req/s" (the legend's goodput entry is not one).
fn goodput_marker_labels(svg: &str) -> Vec<String> {
    texts(svg).into_iter().filter(|t| t.starts_with("Goodput ") && t.ends_with(" req/s")).collect()
}

/// SVG's spelling of a colour, as plotters writes it in `fill` and `stroke`.
fn svg_color(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The points, in pixels, of every solid `<polyline` stroked with `c` at `width` pixels.
fn polylines(svg: &str, c: RGBColor, width: u32) -> Vec<Vec<(i32, i32)>> {
    let head =
        format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"{}\" stroke-width=\"{width}\"", svg_color(c));
    svg.split(&head)
        .skip(1)
        .filter_map(|el| el.split_once("points=\"").and_then(|(_, rest)| rest.split_once('"')))
        .map(|(points, _)| {
            points
                .split_whitespace()
                .filter_map(|xy| xy.split_once(','))
                .filter_map(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
                .collect()
        })
        .collect()
}

/// The centres, in pixels, of the `<circle` elements filled with `c`.
fn filled_circles(svg: &str, c: RGBColor) -> Vec<(i32, i32)> {
    let fill = format!("fill=\"{}\"", svg_color(c));
    let attr = |el: &str, name: &str| -> Option<i32> {
        el.split_once(&format!("{name}=\""))?.1.split_once('"')?.0.parse().ok()
    };
    svg.split("<circle")
        .skip(1)
        .filter_map(|el| el.split_once('>').map(|(attrs, _)| attrs))
        .filter(|attrs| attrs.contains(&fill))
        .filter_map(|attrs| Some((attr(attrs, "cx")?, attr(attrs, "cy")?)))
        .collect()
}

/// The faded `<polyline` dashes stroked with `c`: a dashed line of that colour.
fn faded_dashes(svg: &str, c: RGBColor) -> usize {
    svg.matches(&format!("<polyline fill=\"none\" opacity=\"{IDEAL_OPACITY}\" stroke=\"{}\"", svg_color(c)))
        .count()
}

/// The y pixel of a horizontal dashed line in `c` (the attainment target's).
fn dashed_line_y(svg: &str, c: RGBColor) -> Option<i32> {
    let head = format!("<polyline fill=\"none\" opacity=\"{IDEAL_OPACITY}\" stroke=\"{}\"", svg_color(c));
    let (_, rest) = svg.split_once(&head)?;
    let (_, points) = rest.split_once("points=\"")?;
    points.split_whitespace().next()?.split_once(',')?.1.parse().ok()
}

/// The x pixel of the goodput marker: the vertical line in the goodput colour.
fn goodput_marker_x(svg: &str) -> Option<i32> {
    let vertical =
        |line: &Vec<(i32, i32)>| line.len() == 2 && line[0].0 == line[1].0 && line[0].1 != line[1].1;
    polylines(svg, Palette::LIGHT.goodput, 2).iter().find(|line| vertical(line)).map(|line| line[0].0)
}

#[test]
fn attainment_chart_draws_three_labelled_curves_against_the_offered_rate() {
    let (s, svg, _) = charts_of(&config());
    for label in [
        "Meets both targets",
        "Meets TTFT",
        "Meets TPOT",
        "Offered requests/s",
        "Attainment (% of requests)",
        "100%",
        "0%",
    ] {
        assert!(has_text(&svg, label), "missing {label}");
    }
    let p = Palette::LIGHT;
    assert_eq!(filled_circles(&svg, p.goodput).len(), s.points.len(), "a dot per simulated rate");
    assert_eq!(polylines(&svg, p.goodput, 4).len(), 1, "meeting both targets: one thick curve");
    assert_eq!(polylines(&svg, p.ttft, 2).len(), 1, "TTFT alone: one thin solid curve");
    assert!(faded_dashes(&svg, p.tpot) > 10, "TPOT alone is dashed, so it reads in greyscale");
}

#[test]
fn attainment_chart_marks_goodput_at_the_sweeps_rate() {
    let c = config();
    let (s, svg, _) = charts_of(&c);
    assert_eq!(s.bound, GoodputBound::Exact, "the default sweep crosses the target");
    let expected = format!("Goodput {} req/s", significant(s.goodput_req_per_s));
    assert_eq!(goodput_marker_labels(&svg), std::slice::from_ref(&expected));
    // The marker stands between the last rate meeting the target and the first missing it.
    let view = AttainmentView::from(&c);
    let first_miss = s.points.iter().position(|pt| !view.meets_target(pt)).expect("some rate misses");
    assert!(first_miss > 0, "some rate meets the target");
    let dots = filled_circles(&svg, Palette::LIGHT.goodput);
    let x = goodput_marker_x(&svg).expect("a goodput marker");
    assert!(dots[first_miss - 1].0 <= x && x <= dots[first_miss].0, "marker at {x} between the two rates");
    // Its label sits on its left, over the rates that meet the target, clear of the falling curves.
    let (label_x, anchor) = text_anchor(&svg, &expected).expect("the label");
    assert!(anchor == "end" && label_x < x, "label ends at {label_x}, left of the marker at {x}");
}

#[test]
fn attainment_target_line_follows_the_view() {
    let (_, svg, _) = charts_of(&config());
    assert!(has_text(&svg, "Target 90%"));
    assert!(faded_dashes(&svg, Palette::LIGHT.target) > 10, "the target line is dashed");
    let (_, svg, _) = charts_of(&SimConfig { attainment_target: 0.8, ..config() });
    assert!(has_text(&svg, "Target 80%") && !has_text(&svg, "Target 90%"));
    let (_, svg, _) = charts_of(&SimConfig { attainment_target: 0.995, ..config() });
    assert!(has_text(&svg, "Target 99.5%"));
}

#[test]
fn token_counting_relabels_the_curves_and_reads_token_attainment() {
    // A 256-token step budget keeps every step's GEMMs memory-bound, so the steps meet TPOT and
    // only first tokens are late (at 512 the prompt chunks' steps miss TPOT too).
    let by_requests = SimConfig { chunk_tokens: 256, ..config() };
    let by_tokens = SimConfig { counting: Counting::Tokens, ..by_requests.clone() };
    let (s, attainment, throughput) = charts_of(&by_tokens);
    for label in [
        "Meets both targets (by tokens)",
        "Meets TTFT (by tokens)",
        "Meets TPOT (by tokens)",
        "Attainment (% of tokens)",
    ] {
        assert!(has_text(&attainment, label), "missing {label}");
    }
    assert!(!has_text(&attainment, "Meets both targets"), "no request-counted label left");
    assert!(texts(&throughput).iter().any(|t| t.starts_with("Goodput by tokens")));
    // Counting tokens hides the slow first tokens: the default sweep meets 90% by tokens at every
    // rate, so every dot stands above the target line, where by requests some fall below it.
    assert_eq!(s.bound, GoodputBound::AtLeast);
    let p = Palette::LIGHT;
    let above_target = |svg: &str| {
        let target_y = dashed_line_y(svg, p.target).expect("the target line");
        filled_circles(svg, p.goodput).iter().filter(|&&(_, y)| y < target_y).count()
    };
    assert_eq!(above_target(&attainment), s.points.len());
    assert!(above_target(&charts_of(&by_requests).1) < s.points.len());
    let goodput = polylines(&throughput, p.goodput, 4);
    let rising = goodput[0].windows(2).all(|w| w[1].1 < w[0].1);
    assert!(rising, "goodput is the rate at every rate: it never drops to 0");
}

#[test]
fn a_sweep_where_every_rate_meets_the_target_marks_goodput_as_a_lower_bound() {
    let light_load = SimConfig { rate_max_req_per_s: 5.0, ..config() };
    let (s, attainment, throughput) = charts_of(&light_load);
    assert_eq!(s.bound, GoodputBound::AtLeast);
    let expected = format!("Goodput ≥ {} req/s", significant(s.goodput_req_per_s));
    assert_eq!(goodput_marker_labels(&attainment), std::slice::from_ref(&expected));
    assert_eq!(goodput_marker_labels(&throughput), [expected]);
}

#[test]
fn a_sweep_where_no_rate_meets_the_target_shows_a_note_instead_of_a_marker() {
    let (s, attainment, throughput) = charts_of(&unreachable_ttft());
    assert_eq!(s.bound, GoodputBound::BelowLowest, "a 1 µs TTFT target is never met");
    for svg in [&attainment, &throughput] {
        assert!(has_text(svg, "No rate swept meets the target"));
        assert!(goodput_marker_labels(svg).is_empty(), "no goodput marker");
        assert_eq!(goodput_marker_x(svg), None);
    }
}

#[test]
fn closed_load_plots_achieved_rates_without_the_offered_diagonal() {
    let closed = SimConfig { load: LoadMode::Closed, ..config() };
    let (_, attainment, throughput) = charts_of(&closed);
    for svg in [&attainment, &throughput] {
        assert!(has_text(svg, "Achieved requests/s (closed loop)"));
        assert!(!has_text(svg, "Offered requests/s"));
    }
    assert!(!has_text(&throughput, "Offered rate (y = x)"));
    assert_eq!(faded_dashes(&throughput, Palette::LIGHT.text), 0, "no diagonal");
}

#[test]
fn throughput_chart_draws_served_goodput_and_the_offered_diagonal() {
    let (s, _, svg) = charts_of(&config());
    for label in [
        "Served throughput (req/s)",
        "Goodput (rate if it meets the target, else 0)",
        "Offered rate (y = x)",
        "Offered requests/s",
        "Requests/s",
    ] {
        assert!(has_text(&svg, label), "missing {label}");
    }
    let p = Palette::LIGHT;
    assert_eq!(filled_circles(&svg, p.throughput).len(), s.points.len(), "a dot per simulated rate");
    assert_eq!(polylines(&svg, p.throughput, 2).len(), 1, "the served curve");
    assert!(faded_dashes(&svg, p.text) > 10, "the offered diagonal is dashed");
    assert_eq!(goodput_marker_labels(&svg), [format!("Goodput {} req/s", significant(s.goodput_req_per_s))]);
}

#[test]
fn throughput_chart_goodput_is_the_rate_where_attainment_meets_the_target_else_zero() {
    let c = config();
    let (s, _, svg) = charts_of(&c);
    let view = AttainmentView::from(&c);
    let goodput = polylines(&svg, Palette::LIGHT.goodput, 4);
    assert_eq!(goodput.len(), 1, "one goodput curve");
    let line = &goodput[0];
    assert_eq!(line.len(), s.points.len(), "a vertex per rate");
    let zero_y = line.iter().map(|&(_, y)| y).max().expect("vertices");
    for ((_, y), pt) in line.iter().zip(&s.points) {
        assert_eq!(*y == zero_y, !view.meets_target(pt), "at {} req/s", pt.rate_req_per_s);
    }
    // The passing rates lie on the offered diagonal: goodput there is the rate itself.
    let rising: Vec<i32> = line.iter().filter(|&&(_, y)| y < zero_y).map(|&(_, y)| y).collect();
    assert!(rising.len() > 1 && rising.windows(2).all(|w| w[1] < w[0]));
}

#[test]
fn both_sim_charts_share_the_rate_axis() {
    let (_, attainment, throughput) = charts_of(&config());
    let a = goodput_marker_x(&attainment).expect("marker on the attainment chart");
    let t = goodput_marker_x(&throughput).expect("marker on the throughput chart");
    assert!((a - t).abs() <= 1, "goodput at the same x: {a} and {t}");
    let p = Palette::LIGHT;
    let xs = |svg: &str, c| filled_circles(svg, c).into_iter().map(|(x, _)| x).collect::<Vec<_>>();
    assert_eq!(xs(&attainment, p.goodput), xs(&throughput, p.throughput), "the same rates at the same x");
}

#[test]
fn sim_charts_print_no_nan_or_infinity() {
    let configs = [
        config(),
        unreachable_ttft(),
        SimConfig { counting: Counting::Tokens, ..config() },
        SimConfig { load: LoadMode::Closed, ..config() },
        SimConfig { rate_max_req_per_s: 5.0, ..config() },
    ];
    for c in configs {
        let s = sweep(&c);
        for chart in BOTH_CHARTS {
            for palette in [Palette::LIGHT, Palette::DARK] {
                let svg = svg_with(&s, &AttainmentView::from(&c), chart, palette);
                assert!(!svg.contains("NaN") && !svg.contains("inf"), "{:?} {:?}", c.load, s.bound);
            }
        }
    }
}

#[test]
fn sim_charts_draw_an_empty_or_single_point_sweep() {
    let c = config();
    let full = sweep(&c);
    let view = AttainmentView::from(&c);
    let empty = Sweep { points: Vec::new(), goodput_req_per_s: 0.0, at_goodput: None, ..full.clone() };
    let single = Sweep { points: full.points[..1].to_vec(), ..full.clone() };
    let not_a_number = Sweep { goodput_req_per_s: f64::NAN, ..empty.clone() };
    for bound in [GoodputBound::Exact, GoodputBound::AtLeast, GoodputBound::BelowLowest] {
        for s in [&empty, &single, &not_a_number] {
            let s = Sweep { bound, ..s.clone() };
            for chart in BOTH_CHARTS {
                let svg = svg_of(&s, &view, chart);
                assert!(svg.starts_with("<svg") && has_text(&svg, "Offered requests/s"));
                assert!(!svg.contains("NaN") && !svg.contains("inf"), "{bound:?}, {} points", s.points.len());
                let dot = match chart {
                    Chart::Attainment => Palette::LIGHT.goodput,
                    Chart::Throughput => Palette::LIGHT.throughput,
                };
                assert_eq!(filled_circles(&svg, dot).len(), s.points.len(), "a dot per rate, if any");
            }
        }
    }
}

/// WCAG contrast ratio of two colours.
fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let channel = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let lum = |c: RGBColor| 0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2);
    let (hi, lo) = (lum(a).max(lum(b)), lum(a).min(lum(b)));
    (hi + 0.05) / (lo + 0.05)
}

#[test]
fn sim_chart_colours_keep_three_to_one_contrast_in_both_themes() {
    for p in [Palette::LIGHT, Palette::DARK] {
        for (name, c) in [
            ("goodput", p.goodput),
            ("ttft", p.ttft),
            ("tpot", p.tpot),
            ("target", p.target),
            ("throughput", p.throughput),
        ] {
            let ratio = contrast(c, p.background);
            assert!(ratio >= 3.0, "{name} against the background: {ratio:.2}:1");
        }
        assert!(p.ttft != p.goodput && p.tpot != p.goodput && p.ttft != p.tpot, "three distinct curves");
    }
}

/// The x pixel where the first rate swept sits on the attainment chart: the curves' left end.
fn first_point_x(svg: &str) -> i32 {
    let both = polylines(svg, Palette::LIGHT.goodput, 4);
    both.iter().flat_map(|line| line.iter().map(|p| p.0)).min().expect("the curve meeting both targets")
}

#[test]
fn the_target_label_sits_over_the_right_end_when_every_curve_ends_below_the_target() {
    // The default sweep: every curve ends far below 90% at its highest rate, while its first rate
    // already meets the target at the top and falls through the left end of the line.
    let c = config();
    let (s, svg, _) = charts_of(&c);
    let last = s.points.last().unwrap().requests;
    assert!(last.both.max(last.ttft).max(last.tpot) <= 0.7, "{last:?}");
    let (x, anchor) = text_anchor(&svg, "Target 90%").expect("the label");
    assert_eq!(anchor, "end", "it ends at the line's right end");
    assert!(x > goodput_marker_x(&svg).expect("the marker"), "right of the goodput marker");
    // A sweep whose highest rate still meets the target keeps the label at the left end, over
    // the lowest rates (the curves run above the line there).
    let low = SimConfig { rate_max_req_per_s: 0.5 * s.goodput_req_per_s, ..c };
    let (s_low, svg_low, _) = charts_of(&low);
    assert!(s_low.points.iter().all(|pt| pt.requests.both >= 0.9), "every rate meets the target");
    let (x, anchor) = text_anchor(&svg_low, "Target 90%").expect("the label");
    assert_eq!(anchor, "start");
    assert!(x < first_point_x(&svg_low) + 20, "at the line's left end");
}
