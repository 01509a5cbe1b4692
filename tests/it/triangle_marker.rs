//! The charts' triangle marker (`chart::triangle`) draws exactly what plotters' `TriangleMarker`
//! draws, from constant vertex directions instead of `cos` and `sin`.

use goodput_lab::chart::triangle::{Triangle, VERTEX_DIRECTIONS};
use plotters::coord::Shift;
use plotters::prelude::*;

#[test]
fn vertex_directions_are_plotters_cos_and_sin_bit_for_bit() {
    for (deg, (cos, sin)) in [-90, -210, -330].into_iter().zip(VERTEX_DIRECTIONS) {
        let rad = f64::from(deg) * std::f64::consts::PI / 180.0;
        assert_eq!((cos.to_bits(), sin.to_bits()), (rad.cos().to_bits(), rad.sin().to_bits()), "{deg}°");
    }
}

fn svg_of(draw: impl Fn(&DrawingArea<SVGBackend<'_>, Shift>)) -> String {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
        draw(&area);
        area.present().unwrap();
    }
    svg
}

#[test]
fn the_triangle_is_plotters_triangle_marker_pixel_for_pixel() {
    for size in 0..=40u32 {
        for at in [(0, 0), (1, 1), (17, 250), (399, 3), (-3, 5), (200, 151)] {
            let ours = svg_of(|a| a.draw(&Triangle::new(at, size, RED.filled())).unwrap());
            let plotters = svg_of(|a| a.draw(&TriangleMarker::new(at, size, RED.filled())).unwrap());
            assert!(ours.contains("<polygon"), "{ours}");
            assert_eq!(ours, plotters, "size {size} at {at:?}");
        }
    }
}
