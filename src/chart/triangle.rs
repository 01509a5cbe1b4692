//! The filled triangle marker (published measurements, their legend entry): plotters'
//! `TriangleMarker` drawn the same way, pixel for pixel, but from its three vertex directions as
//! constants instead of `cos` and `sin`, which in wasm link libm's trigonometry (about 7 KB of the
//! page's module, nothing else in it calls them).

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// The vertex directions plotters computes for its triangle, `(cos, sin)` of -90°, -210° and -330°
/// (`deg * PI / 180` radians), bit for bit (tests/it/charts.rs holds them equal).
pub const VERTEX_DIRECTIONS: [(f64, f64); 3] = [
    (6.123233995736766e-17, -1.0),
    (-0.8660254037844386, 0.5000000000000001),
    (0.8660254037844384, 0.5000000000000004),
];

/// A filled triangle of `size` pixels from its centre to each vertex, pointing up, at `at`.
pub struct Triangle<C> {
    at: C,
    size: u32,
    style: ShapeStyle,
}

impl<C> Triangle<C> {
    pub fn new(at: C, size: u32, style: impl Into<ShapeStyle>) -> Self {
        Triangle { at, size, style: style.into() }
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a Triangle<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for Triangle<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        if let Some((x, y)) = points.next() {
            let size = f64::from(self.size as i32);
            let vertex = |(cos, sin): (f64, f64)| {
                ((cos * size + f64::from(x)).ceil() as i32, (sin * size + f64::from(y)).ceil() as i32)
            };
            backend.fill_polygon(VERTEX_DIRECTIONS.map(vertex), &self.style.color.to_backend_color())?;
        }
        Ok(())
    }
}
