//! The calibration control's URL keys: `calib` (`ideal`, `measured`, `custom`, `fit`), `engine` (with
//! `measured`: `vllm`, `sglang`, `trtllm`) and `mbu` / `overhead` (custom and fit), read into the
//! choice and the scenario's cost model, and written back.

use super::fields::{trim_decimal, MBU, OVERHEAD};
use super::{measured, read, CalibrationChoice, Inputs, Notice, RawQuery};
use crate::core::calibration::{CostModel, CustomCalibration, Engine};
use crate::core::fit::{fit, Fit};
use crate::core::scenario::Scenario;
use crate::core::url_id::UrlId;

/// The engine `calib=measured` uses when `engine` is absent: vLLM, the most used.
pub const DEFAULT_ENGINE: Engine = Engine::Vllm;

/// The choice and cost model the query asks for. Without `calib`, `mbu`, `overhead` or `realistic=1`
/// mean custom, else ideal. `calib=fit` without `mbu`/`overhead` fits the query's `measured` points.
pub fn read(
    raw: &RawQuery,
    scenario: &Scenario,
    notices: &mut Vec<Notice>,
) -> (CalibrationChoice, CostModel) {
    let custom_given = raw.get("mbu").is_some() || raw.get("overhead").is_some();
    let flag = read::flag(raw, "realistic", notices);
    let implied = if custom_given || flag { CalibrationChoice::Custom } else { CalibrationChoice::Ideal };
    let choice = read::choice(raw, "calib", implied, notices);
    let engine = read_engine(raw, choice, notices);
    let model = match choice {
        CalibrationChoice::Ideal => CostModel::Ideal,
        CalibrationChoice::Measured => CostModel::Measured(engine),
        CalibrationChoice::Custom => CostModel::Custom(read_custom(raw, notices)),
        CalibrationChoice::Fit if custom_given => CostModel::Custom(read_custom(raw, notices)),
        CalibrationChoice::Fit => CostModel::Custom(fit_of_query(raw, scenario, notices)),
    };
    (choice, model)
}

/// `engine=`, by [`read::choice`]; a known engine without `calib=measured` is ignored with a notice.
fn read_engine(raw: &RawQuery, choice: CalibrationChoice, notices: &mut Vec<Notice>) -> Engine {
    let before = notices.len();
    let engine = read::choice(raw, "engine", DEFAULT_ENGINE, notices);
    let unknown = notices.len() > before;
    if raw.get("engine").is_some() && !unknown && choice != CalibrationChoice::Measured {
        let message = "engine= applies to calib=measured only; it is ignored.".to_string();
        notices.push(Notice { key: "engine", message });
    }
    engine
}

fn read_custom(raw: &RawQuery, notices: &mut Vec<Notice>) -> CustomCalibration {
    let defaults = CustomCalibration::REALISTIC_DEFAULT;
    let mbu = read::number(raw, &MBU, defaults.mbu, notices);
    CustomCalibration {
        mbu,
        step_overhead_s: read::number(raw, &OVERHEAD, defaults.step_overhead_s, notices),
    }
}

/// The measured points' fit as custom terms; with no usable fit, custom's defaults and a notice.
fn fit_of_query(raw: &RawQuery, scenario: &Scenario, notices: &mut Vec<Notice>) -> CustomCalibration {
    let points = measured::read(raw, &mut Vec::new());
    match fit(scenario, &points) {
        Ok(f) => clamped(&f).0,
        Err(_) => {
            let message =
                "calib=fit needs measured points that fit (measured=batch:TPOT,...); using custom's \
                           defaults."
                    .to_string();
            notices.push(Notice { key: "calib", message });
            CustomCalibration::REALISTIC_DEFAULT
        }
    }
}

/// A measured-data fit as custom terms inside the MBU and overhead controls' ranges, with a note for
/// each value that had to be clamped (the same message a URL value gets).
pub fn clamped(f: &Fit) -> (CustomCalibration, Vec<String>) {
    let mut notices: Vec<Notice> = Vec::new();
    let mbu_text = trim_decimal(MBU.to_display(f.mbu));
    let overhead_text = trim_decimal(OVERHEAD.to_display(f.step_overhead_s));
    let d = CustomCalibration::REALISTIC_DEFAULT;
    let mbu = MBU.read(Some(&mbu_text), d.mbu, &mut notices);
    let step_overhead_s = OVERHEAD.read(Some(&overhead_text), d.step_overhead_s, &mut notices);
    let notes = notices
        .into_iter()
        .map(|notice| format!("The fit is outside the control's range: {}", notice.message));
    (CustomCalibration { mbu, step_overhead_s }, notes.collect())
}

/// The calibration's query pairs: none on the ideal roofline; `calib=measured&engine=..`; `mbu` and
/// `overhead` for custom (its `calib` implied), with `calib=fit` before them for the fit.
pub fn pairs(inputs: &Inputs) -> Vec<(&'static str, String)> {
    let mut pairs = Vec::new();
    if let Some(engine) = inputs.engine() {
        pairs.push(("calib", CalibrationChoice::Measured.url_id().to_string()));
        pairs.push(("engine", engine.url_id().to_string()));
    }
    if let Some(c) = inputs.realistic() {
        if inputs.calibration_choice == CalibrationChoice::Fit {
            pairs.push(("calib", CalibrationChoice::Fit.url_id().to_string()));
        }
        pairs.push(("mbu", MBU.write(c.mbu)));
        pairs.push(("overhead", OVERHEAD.write(c.step_overhead_s)));
    }
    pairs
}
