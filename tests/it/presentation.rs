//! Presentation mode's scale and panels: chart text grows with the screen (at least 28 px at
//! 1920 x 1080, drawn to SVG through the same functions the canvas uses) and lesson 7 presents the
//! placement panel (`view=placement`).

use crate::common::{batch_chart_svg, worked_example};
use goodput_lab::chart::batch::BatchDraw;
use goodput_lab::chart::{presentation_zoom, PRESENT_ZOOM_MAX, PRESENT_ZOOM_MIN};
use goodput_lab::core::curves::curves;
use goodput_lab::core::roofline::analyze;
use goodput_lab::state::from_page_query;
use goodput_lab::state::view::{Look, Mode, Panel};
use goodput_lab::view::batch_chart::BatchChart;

/// plotters' SVG backend writes `font-size` as the text's pixel size (what a canvas draws it at)
/// divided by this (plotters-svg 0.3.7, `svg.rs`).
const SVG_FONT_SIZE_DIVISOR: f64 = 1.24;

/// The pixel size of every text in `svg`, as a canvas draws it.
fn text_px(svg: &str) -> Vec<f64> {
    let sizes =
        svg.split("font-size=\"").skip(1).filter_map(|rest| rest.split('"').next()?.parse::<f64>().ok());
    sizes.map(|size| size * SVG_FONT_SIZE_DIVISOR).collect()
}

/// The rate and step charts' text sizes drawn at `(w, h)` CSS pixels less the presentation's lesson
/// bar, caption and sliders, in the projector look at devicePixelRatio 1, presented in a window of
/// that size.
fn presented_text_px((w, h): (u32, u32)) -> Vec<Vec<f64>> {
    let s = worked_example();
    let c = curves(&s, &analyze(&s));
    let style = Look::Projector.style(presentation_zoom((f64::from(w), f64::from(h))));
    let mut out = Vec::new();
    for step in [false, true] {
        let kind = if step { BatchChart::Step } else { BatchChart::Rate };
        let (svg, drawn) = batch_chart_svg(&BatchDraw::new(kind, &c, &style), (w - 70, h - 480));
        drawn.expect("chart draws");
        out.push(text_px(&svg));
    }
    out
}

#[test]
fn presented_at_1920_by_1080_every_chart_text_is_at_least_28_px() {
    for sizes in presented_text_px((1920, 1080)) {
        assert!(sizes.len() > 10, "the chart draws its labels");
        let least = sizes.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(least >= 28.0, "smallest chart text {least} px");
    }
}

#[test]
fn presentation_scale_grows_with_the_screen_from_a_phones_page_size_text_to_a_projectors() {
    assert_eq!(presentation_zoom((1150.0, 650.0)), 1.0);
    assert_eq!(presentation_zoom((390.0, 844.0)), PRESENT_ZOOM_MIN);
    assert!(13.0 * Look::Projector.zoom() * PRESENT_ZOOM_MIN < 14.0, "a phone's tick labels are page-sized");
    assert_eq!(presentation_zoom((1280.0, 720.0)), 720.0 / 650.0, "1920 x 1080 at 150% browser zoom");
    assert!(presentation_zoom((1920.0, 1080.0)) > presentation_zoom((1280.0, 800.0)));
    // The lesser ratio decides: a wide, short window does not overflow its height.
    assert_eq!(presentation_zoom((3840.0, 650.0)), 1.0);
    assert_eq!(presentation_zoom((1e6, 1e6)), PRESENT_ZOOM_MAX);
    for odd in [f64::NAN, f64::INFINITY, 0.0, -5.0] {
        let z = presentation_zoom((odd, odd));
        assert!(z.is_finite() && (PRESENT_ZOOM_MIN..=PRESENT_ZOOM_MAX).contains(&z), "{odd} gives {z}");
    }
}

#[test]
fn lesson_7_presented_opens_the_placement_panel_and_view_placement_round_trips() {
    let (_, view, notices) = from_page_query("present=1&lesson=7");
    assert_eq!((view.mode, view.panel), (Mode::Present, Panel::Placement));
    assert!(notices.is_empty(), "{notices:?}");
    let (_, view, notices) = from_page_query("embed=1&view=placement");
    assert_eq!((view.mode, view.panel), (Mode::Embed, Panel::Placement));
    assert!(notices.is_empty(), "{notices:?}");
    assert!(view.pairs().contains(&("view", "placement".to_string())));
}
