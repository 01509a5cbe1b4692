//! A batch chart drawn as the part under its data and then the part over it, on one surface, is the
//! whole chart, call for call: the page's canvases keep the part under as a bitmap and paint only
//! the part over it while the part under would come out the same (`src/ui/canvas/layers.rs`).

use crate::common::worked_example;
use goodput_lab::chart::batch::{draw, BatchDraw};
use goodput_lab::chart::hold::HeldEnds;
use goodput_lab::chart::recording::{replay, Call, Recording};
use goodput_lab::chart::{ChartStyle, Layer, Palette};
use goodput_lab::core::curves::{curves, Curves};
use goodput_lab::core::roofline::{analyze, CustomCalibration};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::view::batch_chart::BatchChart;
use plotters::prelude::*;

const SIZE: (u32, u32) = (800, 450);

fn style(layer: Layer) -> ChartStyle {
    ChartStyle { palette: Palette::DARK, scale: 1.5, layer }
}

/// The worked example; the same calibrated (the ideal roofline drawn beside it); with a context
/// long enough that the pool ends inside the axis (its shading drawn).
fn scenarios() -> Vec<Scenario> {
    let calibrated = Scenario {
        calibration: CustomCalibration { mbu: 0.8, step_overhead_s: 1e-3 }.into(),
        ..worked_example()
    };
    let long = Scenario { context_tokens: 65_536, ..worked_example() };
    vec![worked_example(), calibrated, long]
}

/// The calls drawing `kind` makes on one recording, for each of `layers` in turn.
fn calls(kind: BatchChart, c: &Curves, on: Ends, layers: &[Layer]) -> Vec<Call> {
    let Ends { marked, held } = on;
    let mark = marked.then(|| c.points[c.points.len() / 2].clone());
    let (recording, calls) = Recording::new(SIZE);
    let root = recording.into_drawing_area();
    for layer in layers {
        let style = style(*layer);
        let what = BatchDraw::new(kind, c, &style).marked(mark.as_ref()).held(held);
        draw(&root, &what).expect("a recording never fails");
    }
    drop(root);
    calls.take()
}

/// The SVG of drawing `kind`, for each of `layers` in turn on one SVG surface.
fn svg(kind: BatchChart, c: &Curves, layers: &[Layer]) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        for layer in layers {
            let style = style(*layer);
            draw(&root, &BatchDraw::new(kind, c, &style)).expect("the chart draws");
        }
    }
    svg
}

const HELD: HeldEnds = HeldEnds { x: Some(300.0), y: Some(80.0) };

/// Whether the middle batch is marked, and the axis ends the chart is drawn on.
#[derive(Clone, Copy, Debug)]
struct Ends {
    marked: bool,
    held: HeldEnds,
}

/// Nothing marked, the chart's own ends.
const FREE: Ends = Ends { marked: false, held: HeldEnds::NONE };
/// The middle batch marked, on [`HELD`] ends.
const MARKED_HELD: Ends = Ends { marked: true, held: HELD };

#[test]
fn under_then_over_on_one_surface_makes_every_call_the_whole_chart_makes() {
    for s in scenarios() {
        let c = curves(&s, &analyze(&s));
        for kind in BatchChart::ALL {
            for marked in [FREE, MARKED_HELD] {
                let whole = calls(kind, &c, marked, &[Layer::Whole]);
                let layered = calls(kind, &c, marked, &[Layer::Under, Layer::Over]);
                assert_eq!(layered, whole, "{kind:?}, mark and held ends {marked:?}");
                let under = calls(kind, &c, marked, &[Layer::Under]).len();
                assert!(
                    under > 10 && under < whole.len(),
                    "{kind:?}: {under} of {} calls under",
                    whole.len()
                );
            }
            assert_eq!(
                svg(kind, &c, &[Layer::Under, Layer::Over]),
                svg(kind, &c, &[Layer::Whole]),
                "{kind:?}"
            );
        }
    }
}

#[test]
fn the_part_under_holds_the_axes_text_and_the_part_over_the_shading_and_the_series() {
    let s = Scenario { context_tokens: 65_536, ..worked_example() };
    let c = curves(&s, &analyze(&s));
    assert!(c.kv_pool_batch < c.axis_max_batch, "the pool ends inside the axis: its shading is drawn");
    let texts = |calls: &[Call]| -> Vec<String> {
        calls
            .iter()
            .filter_map(|call| if let Call::Text(t, ..) = call { Some(t.clone()) } else { None })
            .collect()
    };
    let under = texts(&calls(BatchChart::Rate, &c, FREE, &[Layer::Under]));
    let over = texts(&calls(BatchChart::Rate, &c, FREE, &[Layer::Over]));
    assert!(under.iter().any(|t| t == "Batch size (running sequences)"), "{under:?}");
    assert!(under.iter().any(|t| t == "Throughput (req/s)"), "the legend is under: {under:?}");
    assert!(over.iter().any(|t| t.starts_with("KV pool")), "the pool's label is over: {over:?}");
    assert!(!over.iter().any(|t| t == "Requests/s"), "no axis title over: {over:?}");
}

#[test]
fn the_part_under_is_the_same_for_a_change_that_moves_only_the_data() {
    let base = worked_example();
    let moved = Scenario { tpot_target_s: base.tpot_target_s * 1.2, ..base.clone() };
    let (a, b) = (curves(&base, &analyze(&base)), curves(&moved, &analyze(&moved)));
    assert_eq!(a.axis_max_batch, b.axis_max_batch, "precondition: the batch axis did not move");
    for kind in BatchChart::ALL {
        let held = Ends { marked: false, held: HELD };
        assert_eq!(
            calls(kind, &a, held, &[Layer::Under]),
            calls(kind, &b, held, &[Layer::Under]),
            "{kind:?}"
        );
        assert_ne!(calls(kind, &a, held, &[Layer::Over]), calls(kind, &b, held, &[Layer::Over]), "{kind:?}");
    }
}

#[test]
fn replaying_a_recording_on_svg_writes_the_svg_of_drawing_there_directly() {
    for s in scenarios() {
        let c = curves(&s, &analyze(&s));
        for kind in BatchChart::ALL {
            let mut replayed = String::new();
            {
                let mut svg = SVGBackend::with_string(&mut replayed, SIZE);
                for layer in [Layer::Under, Layer::Over] {
                    let recorded = calls(kind, &c, MARKED_HELD, &[layer]);
                    replay(&recorded, &mut svg).expect("the SVG backend takes every call");
                }
            }
            let mut direct = String::new();
            {
                let root = SVGBackend::with_string(&mut direct, SIZE).into_drawing_area();
                let mark = c.points[c.points.len() / 2].clone();
                let style = style(Layer::Whole);
                let what = BatchDraw::new(kind, &c, &style).marked(Some(&mark)).held(HELD);
                draw(&root, &what).expect("the chart draws");
            }
            assert!(direct.matches("<text").count() > 10, "{kind:?}: the chart has its labels");
            assert_eq!(replayed, direct, "{kind:?}");
        }
    }
}
