//! The linked charts natively: the frame a chart returns inverts its pixels back to batches, the
//! marked batch is drawn where the frame says, the table grows a row for a hovered batch with the
//! roofline's numbers, and the animate control's sweeps have the promised ends and pace.

use crate::common::{assert_close, batch_chart_svg, light_style, worked_example};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::{ChartFrame, Palette};
use goodput_lab::core::curves::{curves, Curves};
use goodput_lab::core::goodput::{evaluate, BatchPoint};
use goodput_lab::core::nearest::batch_at_speed;
use goodput_lab::core::roofline::analyze;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::table::{batch_table, with_batches};
use goodput_lab::state::animation::{batch_animation, tpot_animation, REDUCED_TICK_MS};
use goodput_lab::view::batch_chart::BatchChart;
use plotters::prelude::*;

const SIZE: (u32, u32) = (800, 450);

/// The chart as SVG plus the frame its drawing function returned.
fn draw(s: &Scenario, chart: BatchChart, mark: Option<u32>) -> (String, ChartFrame) {
    let c = curves(s, &analyze(s));
    let style = light_style();
    let marked = mark.map(|b| evaluate(s, b));
    let (svg, frame) = batch_chart_svg(&BatchDraw::new(chart, &c, &style).marked(marked.as_ref()), SIZE);
    (svg, frame.expect("chart draws"))
}

fn curves_of(s: &Scenario) -> Curves {
    curves(s, &analyze(s))
}

/// The `points` of every two-point vertical `<polyline` stroked in `color`: (x, top y, bottom y).
fn vertical_lines(svg: &str, color: RGBColor) -> Vec<(i32, i32, i32)> {
    let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2);
    svg.split("<polyline")
        .skip(1)
        .filter_map(|el| {
            let attrs = el.split("/>").next()?;
            if !attrs.contains(&stroke) {
                return None;
            }
            let points = attrs.split("points=\"").nth(1)?.split('"').next()?;
            let xy: Vec<(i32, i32)> = points
                .split_whitespace()
                .filter_map(|p| p.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))))
                .collect();
            match xy.as_slice() {
                [(x0, y0), (x1, y1)] if x0 == x1 && y0 != y1 => Some((*x0, *y0.min(y1), *y0.max(y1))),
                _ => None,
            }
        })
        .collect()
}

/// Circles stroked (not filled) in `color`: (cx, cy, r).
fn rings(svg: &str, color: RGBColor) -> Vec<(i32, i32, i32)> {
    let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", color.0, color.1, color.2);
    svg.split("<circle")
        .skip(1)
        .filter_map(|el| {
            let attrs = el.split("/>").next()?;
            if !attrs.contains(&stroke) || !attrs.contains("fill=\"none\"") {
                return None;
            }
            let num = |key: &str| attrs.split(&format!("{key}=\"")).nth(1)?.split('"').next()?.parse().ok();
            Some((num("cx")?, num("cy")?, num("r")?))
        })
        .collect()
}

#[test]
fn every_batch_on_the_worked_example_axis_survives_a_round_trip_through_its_pixel() {
    let s = worked_example();
    let axis_end = curves_of(&s).axis_max_batch;
    for chart in [BatchChart::Rate, BatchChart::Step] {
        let (_, frame) = draw(&s, chart, None);
        assert_eq!(frame.x_range, (0.0, f64::from(axis_end)), "{chart:?}: the x axis is the batch axis");
        for b in 1..=axis_end {
            let px = frame.x_to_px(f64::from(b));
            assert_eq!(frame.batch_at(f64::from(px)), b, "{chart:?}: batch {b} at pixel {px}");
        }
    }
}

#[test]
fn a_batch_axis_wider_than_its_pixels_rounds_to_a_batch_drawn_in_the_same_column() {
    let s = Scenario { context_tokens: 128, ..worked_example() };
    let (_, frame) = draw(&s, BatchChart::Rate, None);
    let axis_end = frame.x_range.1 as u32;
    let width_px = f64::from(frame.x_px.1 - frame.x_px.0);
    assert!(f64::from(axis_end) > 2.0 * width_px, "more batches ({axis_end}) than pixels ({width_px})");
    for b in (1..=axis_end).step_by(7) {
        let px = frame.x_to_px(f64::from(b));
        let back = frame.batch_at(f64::from(px));
        assert!((frame.x_to_px(f64::from(back)) - px).abs() <= 1, "batch {b} -> pixel {px} -> batch {back}");
    }
}

#[test]
fn pixels_outside_the_plot_clamp_to_the_axis_ends() {
    let (_, frame) = draw(&worked_example(), BatchChart::Rate, None);
    assert_eq!(frame.batch_at(-500.0), 1);
    assert_eq!(frame.batch_at(f64::from(frame.x_px.0)), 1, "batch 0 is not a batch");
    assert_eq!(frame.batch_at(1e6), frame.x_range.1 as u32);
    assert_eq!(frame.batch_at(f64::NAN), 1);
}

#[test]
fn the_frame_is_where_the_marked_batch_line_is_drawn() {
    let s = worked_example();
    for chart in [BatchChart::Rate, BatchChart::Step] {
        let (svg, frame) = draw(&s, chart, Some(40));
        assert!(svg.contains("marked 40"), "{chart:?}: the mark's label");
        let text = Palette::LIGHT.text;
        let lines = vertical_lines(&svg, text);
        let want = (frame.x_to_px(40.0), frame.y_px.1, frame.y_px.0);
        assert!(
            lines.contains(&want),
            "{chart:?}: a line at {want:?} (plot top to bottom); text-coloured lines: {lines:?}"
        );
        let (unmarked, _) = draw(&s, chart, None);
        assert!(!unmarked.contains("marked"));
        assert!(
            !vertical_lines(&unmarked, text).iter().any(|l| l.0 == want.0),
            "{chart:?}: no line without a mark"
        );
    }
}

#[test]
fn the_mark_line_moves_with_the_marked_batch() {
    let s = worked_example();
    for (batch, chart) in
        [(96, BatchChart::Rate), (16, BatchChart::Rate), (150, BatchChart::Step), (1, BatchChart::Step)]
    {
        let (svg, frame) = draw(&s, chart, Some(batch));
        // Text-coloured lines across the whole plot height inside it: only the mark's (ticks are short,
        // the y axis sits just left of the plot).
        let full: Vec<i32> = vertical_lines(&svg, Palette::LIGHT.text)
            .into_iter()
            .filter(|l| (l.1, l.2) == (frame.y_px.1, frame.y_px.0) && l.0 >= frame.x_px.0)
            .map(|l| l.0)
            .collect();
        assert_eq!(full, [frame.x_to_px(f64::from(batch))], "{chart:?} marked {batch}");
    }
}

#[test]
fn a_mark_past_the_axis_draws_nothing_and_no_nan() {
    let (svg, _) = draw(&worked_example(), BatchChart::Rate, Some(100_000));
    assert!(!svg.contains("marked") && !svg.contains("NaN"));
}

#[test]
fn the_interactivity_chart_rings_the_marked_batch_at_its_point() {
    let s = worked_example();
    let (svg, frame) = draw(&s, BatchChart::Interactivity, Some(96));
    let p: BatchPoint = evaluate(&s, 96);
    let at = (frame.x_to_px(p.tokens_per_s_per_user), frame.y_to_px(p.tokens_per_s_per_gpu));
    let found = rings(&svg, Palette::LIGHT.text);
    assert!(found.iter().any(|r| (r.0, r.1) == at && r.2 == 10), "a ring at {at:?}: {found:?}");
    assert!(svg.contains("marked 96"));
    let (unmarked, _) = draw(&s, BatchChart::Interactivity, None);
    assert!(rings(&unmarked, Palette::LIGHT.text).is_empty() && !unmarked.contains("marked"));
}

#[test]
fn the_interactivity_frame_maps_the_knee_point_to_its_drawn_ring() {
    let s = worked_example();
    let (svg, frame) = draw(&s, BatchChart::Interactivity, None);
    let knee = evaluate(&s, 64);
    let at = (frame.x_to_px(knee.tokens_per_s_per_user), frame.y_to_px(knee.tokens_per_s_per_gpu));
    assert!(rings(&svg, Palette::LIGHT.knee).iter().any(|r| (r.0, r.1) == at), "knee ring at {at:?}");
}

#[test]
fn the_batch_at_a_speed_inverts_the_speed_of_every_batch_in_the_pool() {
    for s in [worked_example(), Scenario { tpot_target_s: 0.05, context_tokens: 8192, ..worked_example() }] {
        let pool = analyze(&s).kv_pool_batch;
        for b in 1..=pool {
            assert_eq!(batch_at_speed(&s, evaluate(&s, b).tokens_per_s_per_user, pool), b);
        }
        assert_eq!(batch_at_speed(&s, 1e9, pool), 1, "faster than batch 1: batch 1");
        assert_eq!(batch_at_speed(&s, 0.0, pool), pool, "slower than the pool: the pool");
        assert_eq!(batch_at_speed(&s, f64::NAN, pool), 1);
    }
}

#[test]
fn pointing_at_an_interactivity_point_picks_a_batch_drawn_in_that_column() {
    let s = worked_example();
    let (_, frame) = draw(&s, BatchChart::Interactivity, None);
    let pool = analyze(&s).kv_pool_batch;
    for b in 1..=pool {
        let px = frame.x_to_px(evaluate(&s, b).tokens_per_s_per_user);
        let back = batch_at_speed(&s, frame.x_at(f64::from(px)), pool);
        let back_px = frame.x_to_px(evaluate(&s, back).tokens_per_s_per_user);
        assert!((back_px - px).abs() <= 1, "batch {b} at pixel {px} -> batch {back} at {back_px}");
    }
}

/// The worked example's step time in s, from the worked example's own arithmetic: (16.06 GB + B x 268 MB) / 3.35 TB/s.
fn worked_example_step_s(batch: f64) -> f64 {
    let kv_per_seq = 2048.0 * 2.0 * 32.0 * 8.0 * 128.0 * 2.0;
    (8.03e9 * 2.0 + batch * kv_per_seq) / 3.35e12
}

#[test]
fn a_hovered_batch_between_rows_gets_its_own_row_in_order_with_the_roofline_numbers() {
    let s = worked_example();
    let a = analyze(&s);
    let listed = batch_table(&s, &a);
    let rows = with_batches(&listed, &s, &a, &[40]);
    let batches: Vec<u32> = rows.iter().map(|r| r.point.batch).collect();
    assert_eq!(batches, [1, 16, 32, 40, 64, 96, 128, 208]);
    let row = rows[3];
    assert_close(row.point.step.step_s, worked_example_step_s(40.0), 1e-3, "step at 40");
    assert_close(row.point.tokens_per_s, 40.0 / worked_example_step_s(40.0), 1e-3, "tokens/s at 40");
    assert_close(
        row.point.throughput_req_per_s,
        40.0 / (256.0 * worked_example_step_s(40.0)),
        1e-3,
        "req/s at 40",
    );
    assert!(row.point.meets_tpot && !row.is_knee && !row.is_kv_pool && row.fits_kv_pool);
    assert!(
        rows[2].point.step.step_s < row.point.step.step_s
            && row.point.step.step_s < rows[4].point.step.step_s
    );
}

#[test]
fn listed_or_empty_extra_batches_leave_the_table_as_it_is() {
    let s = worked_example();
    let a = analyze(&s);
    let listed = batch_table(&s, &a);
    assert_eq!(with_batches(&listed, &s, &a, &[64, 208, 0]), listed);
    let two = with_batches(&listed, &s, &a, &[300, 40, 300]);
    assert_eq!(two.len(), listed.len() + 2, "40 and 300, once each");
    assert!(!two.last().expect("rows").fits_kv_pool, "300 is past the pool");
}

#[test]
fn the_batch_sweep_runs_from_one_to_past_the_pool_in_six_to_ten_seconds() {
    let s = worked_example();
    let a = analyze(&s);
    let plan = batch_animation(&a, false);
    assert_eq!(plan.steps.first(), Some(&1));
    assert!(*plan.steps.last().expect("steps") > a.kv_pool_batch, "ends past the KV pool");
    assert!(plan.steps.windows(2).all(|w| w[0] < w[1]), "rises");
    assert!((6.0..=10.0).contains(&plan.duration_s()), "{} s", plan.duration_s());
    let wide = analyze(&Scenario { context_tokens: 128, ..worked_example() });
    let wide_plan = batch_animation(&wide, false);
    assert!(
        (6.0..=10.0).contains(&wide_plan.duration_s())
            && *wide_plan.steps.last().unwrap() > wide.kv_pool_batch
    );
}

#[test]
fn with_reduced_motion_the_batch_sweep_steps_through_the_table_once_a_second() {
    let s = worked_example();
    let a = analyze(&s);
    let plan = batch_animation(&a, true);
    assert_eq!(plan.interval_ms, REDUCED_TICK_MS);
    assert_eq!(plan.steps, [1, 16, 32, 64, 96, 128, 208, curves_of(&s).axis_max_batch]);
}

#[test]
fn the_tpot_sweep_starts_at_one_ms_and_ends_where_the_kv_pool_binds() {
    let s = worked_example();
    let a = analyze(&s);
    for reduced in [false, true] {
        let plan = tpot_animation(&s, &a, reduced);
        assert_close(plan.steps[0], 1e-3, 1e-9, "first target");
        assert_eq!(
            analyze(&Scenario { tpot_target_s: plan.steps[0], ..s }).knee_batch,
            0,
            "1 ms: nothing meets it"
        );
        let last = *plan.steps.last().expect("steps");
        let at_end = analyze(&Scenario { tpot_target_s: last, ..s });
        assert!(at_end.knee_batch > at_end.kv_pool_batch, "the knee has passed the pool at {last} s");
        assert!(plan.steps.windows(2).all(|w| w[0] < w[1]), "rises");
        assert!(plan.steps.iter().all(|t| (t * 1e3 - (t * 1e3).round()).abs() < 1e-9), "whole ms");
        assert!((6.0..=10.0).contains(&plan.duration_s()), "{} s", plan.duration_s());
    }
    assert_eq!(tpot_animation(&s, &a, true).steps.len(), 8);
}
