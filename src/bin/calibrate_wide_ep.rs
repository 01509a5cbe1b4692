//! `cargo run --bin calibrate_wide_ep`: fits what multi-node expert parallelism adds beyond the link's
//! bytes to `data/wide-ep.csv` and writes `src/core/calibration/wide_ep/profile.rs` (`--check` only
//! compares it); `--report` prints each checked run's TPOT error before (the page without the wide-EP
//! terms) and after (with them), the time split's tables and the budgets.

use std::fs;
use std::process::ExitCode;

use goodput_lab::core::calibration::wide_ep::fit::{fit, split};
use goodput_lab::core::calibration::wide_ep::render::render_profile;
use goodput_lab::wide_ep_data::{read, CSV};

#[path = "calibrate_wide_ep_parts/report.rs"]
mod report;

const PROFILE_RS: &str = "src/core/calibration/wide_ep/profile.rs";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rows = match read(CSV) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("calibrate_wide_ep: data/wide-ep.csv: {e}");
            return ExitCode::FAILURE;
        }
    };
    let all = fit(&rows.iter().collect::<Vec<_>>());
    let before_split = fit(&split(&rows, true));
    if args.iter().any(|a| a == "--report") {
        let pass = report::print(&rows, &all, &before_split);
        return if pass { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    }
    let text = render_profile(&all, &before_split);
    if args.iter().any(|a| a == "--check") {
        if fs::read_to_string(PROFILE_RS).ok().as_deref() != Some(text.as_str()) {
            eprintln!("calibrate_wide_ep: {PROFILE_RS} differs from the fit; run `cargo run --bin calibrate_wide_ep`");
            return ExitCode::FAILURE;
        }
    } else if let Err(e) = fs::write(PROFILE_RS, text) {
        eprintln!("calibrate_wide_ep: {PROFILE_RS}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
