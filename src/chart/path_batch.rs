//! Strokes batched into one path for a canvas backend (`ui::canvas_backend`): consecutive lines and polylines of the same colour and
//! width become subpaths of one `Path2D`, stroked once. A chart's grid is some 180 one-segment
//! lines; drawn one by one each costs four calls across the wasm boundary (beginPath, moveTo,
//! lineTo, stroke) and one canvas draw operation to record and rasterise.
//!
//! The result is the same as separate strokes, except where two subpaths overlap: a translucent
//! colour is laid there once, not twice (grid lines crossing).

use std::fmt::Write;

/// A stroke's colour ((red, green, blue), alpha) and width: what subpaths must share.
pub type StrokeKey = ((u8, u8, u8), f64, u32);

/// The subpaths waiting to be stroked, as SVG path data, and the stroke they share.
#[derive(Default)]
pub struct PathBatch {
    key: Option<StrokeKey>,
    data: String,
}

impl PathBatch {
    /// Whether a stroke with `key` can join the waiting subpaths (or none wait).
    pub fn accepts(&self, key: StrokeKey) -> bool {
        self.key.is_none_or(|k| k == key)
    }

    /// Adds a polyline through `points` (a move to the first, lines to the rest) stroked with `key`;
    /// call only when [`Self::accepts`] it.
    pub fn add(&mut self, key: StrokeKey, points: impl IntoIterator<Item = (f64, f64)>) {
        self.key = Some(key);
        for (k, (x, y)) in points.into_iter().enumerate() {
            self.data.push(if k == 0 { 'M' } else { 'L' });
            push_number(&mut self.data, x);
            self.data.push(' ');
            push_number(&mut self.data, y);
        }
    }

    /// The waiting path data and its stroke, leaving the batch empty; `None` when nothing waits.
    pub fn take(&mut self) -> Option<(StrokeKey, String)> {
        let key = self.key.take()?;
        Some((key, std::mem::take(&mut self.data)))
    }
}

/// Writes `v` as SVG path data reads it: whole and half pixels without float formatting (the
/// backend's coordinates are whole pixels, moved half a pixel for crisp lines).
pub fn push_number(out: &mut String, v: f64) {
    let twice = v * 2.0;
    if twice.fract() == 0.0 && twice.abs() < 1e9 {
        let twice = twice as i64;
        if twice % 2 == 0 {
            let _ = write!(out, "{}", twice / 2);
        } else {
            // (2n - 1) / 2 = n - 0.5: the sign goes first, then the whole part and ".5".
            let sign = if twice < 0 { "-" } else { "" };
            let _ = write!(out, "{sign}{}.5", twice.unsigned_abs() / 2);
        }
    } else {
        let _ = write!(out, "{v}");
    }
}
