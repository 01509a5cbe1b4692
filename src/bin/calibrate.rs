//! `cargo run --bin calibrate`: fits the measured profile to `data/calibration.csv` and writes the
//! generated sources (`--check` only compares them); `--report` prints the error tables and the budgets.

use std::fs;
use std::process::ExitCode;

use goodput_lab::calibration_data::{read, CSV};
use goodput_lab::core::calibration::fit::fit;
use goodput_lab::core::calibration::render::{render_points, render_profile};
use goodput_lab::core::calibration::report;

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
    let fitted = fit(&points);
    if args.iter().any(|a| a == "--report") {
        return if print_report(&points, &fitted) { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    }
    let files = [(POINTS_RS, render_points(&points)), (PROFILE_RS, render_profile(&fitted))];
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

/// The budgets: median |TPOT error| <= 5% and worst <= 15% on the calibration set; leaving
/// each GPU out in turn, median <= 10%.
const MEDIAN_BUDGET: f64 = 0.05;
const WORST_BUDGET: f64 = 0.15;
const LOGO_MEDIAN_BUDGET: f64 = 0.10;

fn table(title: &str, rows: &[report::RowError], scale: f64, unit: &str) {
    println!("{title}");
    println!(
        "  {:<8} {:<10} {:>12} {:>12} {:>8}",
        "row",
        "gpu",
        format!("measured {unit}"),
        format!("model {unit}"),
        "error"
    );
    for r in rows {
        println!(
            "  {:<8} {:<10} {:>12.2} {:>12.2} {:>+7.1}%",
            r.id,
            r.gpu_id,
            r.measured * scale,
            r.predicted * scale,
            100.0 * r.error()
        );
    }
}

fn verdict(name: &str, value: f64, budget: f64) -> bool {
    let pass = value <= budget;
    println!(
        "  {name}: {:.1}% (budget <= {:.0}%) {}",
        100.0 * value,
        100.0 * budget,
        if pass { "PASS" } else { "FAIL" }
    );
    pass
}

fn print_report(
    points: &[goodput_lab::core::calibration::published::PublishedPoint],
    fitted: &goodput_lab::core::calibration::fit::Fitted,
) -> bool {
    let profile = fitted.profile();
    let errors = report::tpot_errors(points, &profile);
    table("TPOT on the calibration set (fitted rows):", &errors, 1e3, "ms");
    let logo = report::leave_one_gpu_out(points);
    table("TPOT, each GPU predicted by a fit without it:", &logo, 1e3, "ms");
    let checks = report::throughput_checks(points, &profile);
    table("Throughput rows (checked, not fitted):", &checks, 1.0, "tok/s");
    let s = report::summarize(&errors);
    let l = report::summarize(&logo);
    println!("calibration: {} rows, {} Gauss-Newton rounds", s.count, fitted.rounds);
    let a = verdict("median |TPOT error|", s.median_abs_error, MEDIAN_BUDGET);
    let b = verdict("worst |TPOT error|", s.worst_abs_error, WORST_BUDGET);
    let c = verdict("leave-one-GPU-out median |TPOT error|", l.median_abs_error, LOGO_MEDIAN_BUDGET);
    println!("  leave-one-GPU-out worst |TPOT error|: {:.1}%", 100.0 * l.worst_abs_error);
    a && b && c
}
