//! The accuracy view's figures over the rows shown: each class's coverage (inside the likely range
//! over priced rows) and median |error| ([`class_stats`]), and each way of holding a row out's, over
//! every held-out prediction of the fitted rows shown, a row counted once per way it was held out
//! ([`hold_out_stats`]).

use super::{AccuracyRow, Class, HOLD_OUTS};
use crate::calibration::coverage::{ClassRange, HeldOutPrediction, HoldOut};
use crate::calibration::transfer::median;

/// One class's figures over some rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassStats {
    pub class: Class,
    /// Its rows.
    pub rows: usize,
    /// Its rows with a prediction and a measurement.
    pub priced: usize,
    /// Those whose measurement lies inside the likely range.
    pub inside: usize,
    /// The median |predicted / measured - 1| over the priced rows.
    pub median_abs_error: Option<f64>,
}

impl ClassStats {
    /// inside / priced; `None` with no priced row.
    pub fn coverage(&self) -> Option<f64> {
        (self.priced > 0).then(|| self.inside as f64 / self.priced as f64)
    }
}

/// Each class's figures over `rows`, in [`Class::ALL`]'s order (a class without rows included).
pub fn class_stats(rows: &[&AccuracyRow]) -> [ClassStats; 6] {
    Class::ALL.map(|class| {
        let of: Vec<&&AccuracyRow> = rows.iter().filter(|r| r.class == class).collect();
        let mut errors: Vec<f64> = of.iter().filter_map(|r| r.error()).map(f64::abs).collect();
        ClassStats {
            class,
            rows: of.len(),
            priced: of.iter().filter(|r| r.inside().is_some()).count(),
            inside: of.iter().filter(|r| r.inside() == Some(true)).count(),
            median_abs_error: median(&mut errors),
        }
    })
}

/// One way of holding out's figures over the held-out predictions of some rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HoldOutStats {
    pub hold_out: HoldOut,
    /// Held-out predictions of the rows (each fitted row at most one per way).
    pub predictions: usize,
    /// Those whose measurement lies inside the range the prediction had.
    pub inside: usize,
    /// The median |predicted / measured - 1| over them.
    pub median_abs_error: Option<f64>,
}

impl HoldOutStats {
    /// inside / predictions; `None` with none.
    pub fn coverage(&self) -> Option<f64> {
        (self.predictions > 0).then(|| self.inside as f64 / self.predictions as f64)
    }
}

/// Each way of holding out's figures ([`HOLD_OUTS`]' order) over the predictions in `held` of the
/// fitted rows among `rows` (their measured TPOT against each prediction and its range).
pub fn hold_out_stats(rows: &[&AccuracyRow], held: &[HeldOutPrediction]) -> [HoldOutStats; 3] {
    HOLD_OUTS.map(|hold_out| {
        let pairs: Vec<(f64, &HeldOutPrediction)> = rows
            .iter()
            .filter(|r| super::is_fitted(&r.point))
            .filter_map(|r| {
                let measured = r.point.tpot_s.filter(|m| *m > 0.0)?;
                let h = held.iter().find(|h| h.id == r.point.id && h.hold_out == hold_out)?;
                Some((measured, h))
            })
            .collect();
        let holds = |(m, h): &(f64, &HeldOutPrediction)| {
            ClassRange { low: h.low, high: h.high, rows: 0 }.holds(h.predicted_tpot_s, *m)
        };
        let mut errors: Vec<f64> = pairs.iter().map(|(m, h)| (h.predicted_tpot_s / m - 1.0).abs()).collect();
        HoldOutStats {
            hold_out,
            predictions: pairs.len(),
            inside: pairs.iter().filter(|p| holds(p)).count(),
            median_abs_error: median(&mut errors),
        }
    })
}
