//! `cargo run --bin calibrate`: fits the measured profile to `data/calibration.csv`, cross-validates it
//! and writes the generated sources (`--check` only compares them); `--report` prints the fitted terms
//! beside their published ceilings, the cross-validation tables, the likely ranges and the budgets.

use std::fs;
use std::process::ExitCode;

use goodput_lab::calibration_data::{read, CSV};
use goodput_lab::core::calibration::crossval::{all_schemes, Held, Scheme};
use goodput_lab::core::calibration::holdout::calibrate;
use goodput_lab::core::calibration::render::{profile_source, render_points};

#[path = "calibrate_parts/holdout.rs"]
mod holdout;
#[path = "calibrate_parts/mlperf.rs"]
mod mlperf;
#[path = "calibrate_parts/report.rs"]
mod report;

const POINTS_RS: &str = "src/core/calibration/published/data.rs";
const PROFILE_RS: &str = "src/core/calibration/profile.rs";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let points = match read(CSV) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("calibrate: data/calibration.csv: {e}");
            return ExitCode::FAILURE;
        }
    };
    let calibrated = calibrate(&points);
    if args.iter().any(|a| a == "--report") {
        let schemes: Vec<(Scheme, Vec<Held>)> = all_schemes(&points);
        let pass = report::print(&points, &calibrated.fitted, &schemes, &calibrated.ranges);
        let held_out = holdout::print(&points, &calibrated);
        let mlperf = mlperf::print(&points, CSV);
        return if pass && held_out && mlperf { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    }
    let files = [(POINTS_RS, render_points(&points)), (PROFILE_RS, profile_source(&calibrated))];
    for (path, text) in files {
        if args.iter().any(|a| a == "--check") {
            if fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
                eprintln!("calibrate: {path} differs from the fit; run `cargo run --bin calibrate`");
                return ExitCode::FAILURE;
            }
        } else if let Err(e) = fs::write(path, text) {
            eprintln!("calibrate: {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
