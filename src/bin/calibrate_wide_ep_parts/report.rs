//! `calibrate_wide_ep --report`: the fitted terms beside their priors and ceilings, every checked
//! run's TPOT error before and after (time split: fitted on the rows before the split date, predicted
//! after it), the summaries overall, on the all-to-all rows and by GPU, and the budgets.

use goodput_lab::core::calibration::wide_ep::fit::{rdma_bound_row, WideEpFit, SPLIT_DATE};
use goodput_lab::core::calibration::wide_ep::predict::predicted_tpot_s;
use goodput_lab::core::calibration::wide_ep::report::{before_after, check, RowCheck, Summary};
use goodput_lab::core::calibration::wide_ep::{WideEpProfile, WideEpRow};

/// Budgets on the rows after the split: median |error| and share within 25%.
const MEDIAN_MAX: f64 = 0.12;
const WITHIN_MIN: f64 = 0.80;

/// Prints the report; true when the time split's all-to-all rows meet both budgets.
pub fn print(rows: &[WideEpRow], all: &WideEpFit, before_split: &WideEpFit) -> bool {
    println!("## Wide EP: fitted terms (prior: the page before the fit; ceiling: the datasheet link)\n");
    println!("|term|all rows ({})|before {SPLIT_DATE} ({})|prior|ceiling|", all.rows, before_split.rows);
    println!("|---|---|---|---|---|");
    let (a, b) = (all.profile, before_split.profile);
    println!("|per call, NVLink|{:.1} µs|{:.1} µs|0|-|", a.nvlink_call_s * 1e6, b.nvlink_call_s * 1e6);
    println!(
        "|per call, RDMA (lower bound)|{:.1} µs|{:.1} µs|0|-|",
        a.rdma_call_s * 1e6,
        b.rdma_call_s * 1e6
    );
    println!("|share of NVLink|{:.3}|{:.3}|1|1|", a.nvlink_link_share, b.nvlink_link_share);
    println!("|share of the NIC|{:.3}|{:.3}|1|1|", a.rdma_link_share, b.rdma_link_share);
    println!(
        "identified (all rows): {:?}; RDMA per call: the lower bound of {} MTP rows over the NIC\n",
        all.identified, all.rdma_bound_rows
    );
    let refs: Vec<&WideEpRow> = rows.iter().collect();
    let checks = check(&refs, &before_split.profile);
    println!("## Every checked run: TPOT at the decode batch, before -> after (time split)\n");
    println!("|row|date|set|GPU|engine|decode worker|batch|measured ms|before|after|");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for c in &checks {
        let r = c.row;
        println!(
            "|{}|{}|{}|{}|{}|{}|{:.0}|{:.2}|{:+.1}%|{:+.1}%|",
            r.id,
            r.date,
            if after(c) { "predicted" } else { "fitted" },
            r.gpu_id,
            r.engine.name(),
            r.decode_parallel.label(),
            r.decode_batch(),
            r.tpot_s * 1e3,
            c.before * 100.0,
            c.after * 100.0
        );
    }
    println!("\n## Summaries (median |error|, within 25%, worst), before -> after\n");
    println!("|rows|n|before|after|");
    println!("|---|---|---|---|");
    let a2a = |c: &RowCheck| c.row.crosses_nic().is_some();
    line("after the split, all-to-all rows", before_after(&checks, |c| after(c) && a2a(c)));
    line("after the split, every checked row", before_after(&checks, after));
    line("before the split (fitted), all-to-all rows", before_after(&checks, |c| !after(c) && a2a(c)));
    line("before the split (fitted), every checked row", before_after(&checks, |c| !after(c)));
    let mut gpus: Vec<&str> = checks.iter().map(|c| c.row.gpu_id).collect();
    gpus.sort();
    gpus.dedup();
    for gpu in gpus {
        let of_gpu = |c: &RowCheck| after(c) && c.row.gpu_id == gpu;
        line(
            &format!("after the split, {gpu}, all-to-all rows"),
            before_after(&checks, |c| of_gpu(c) && a2a(c)),
        );
        line(&format!("after the split, {gpu}, every checked row"), before_after(&checks, of_gpu));
    }
    bound_rows(rows, all);
    let shipped = check(&refs, &all.profile);
    line("shipped profile, every all-to-all row", before_after(&shipped, a2a));
    let (_, s) = before_after(&checks, |c| after(c) && a2a(c));
    let pass = s.median <= MEDIAN_MAX && s.within_25 >= WITHIN_MIN;
    println!(
        "\nBudget (after the split, all-to-all rows): median {:.1}% (<= 12%), within 25% {:.0}% (>= 80%): {}",
        s.median * 100.0,
        s.within_25 * 100.0,
        if pass { "PASS" } else { "FAIL" }
    );
    pass
}

/// The MTP rows over the NIC that bound the RDMA call cost: TPOT per accepted token against the
/// plain step predicted without and with the shipped terms (never below it at the bound).
fn bound_rows(rows: &[WideEpRow], all: &WideEpFit) {
    println!("\n## MTP rows over the NIC (bound the RDMA call cost; not checked)\n");
    println!("|row|date|engine|decode worker|batch|measured ms (per accepted token)|plain step, before|with the terms|");
    println!("|---|---|---|---|---|---|---|---|");
    for r in rows.iter().filter(|r| rdma_bound_row(r)) {
        let ms = |p: &WideEpProfile| predicted_tpot_s(r, p).map_or(f64::NAN, |s| s * 1e3);
        println!(
            "|{}|{}|{}|{}|{:.0}|{:.2}|{:.2}|{:.2}|",
            r.id,
            r.date,
            r.engine.name(),
            r.decode_parallel.label(),
            r.decode_batch(),
            r.tpot_s * 1e3,
            ms(&WideEpProfile::NONE),
            ms(&all.profile)
        );
    }
    println!();
}

fn after(c: &RowCheck) -> bool {
    c.row.date.as_str() >= SPLIT_DATE
}

fn line(name: &str, (before, after): (Summary, Summary)) {
    let f = |s: Summary| {
        format!("{:.1}%, {:.0}%, {:+.1}%", s.median * 100.0, s.within_25 * 100.0, s.worst * 100.0)
    };
    println!("|{name}|{}|{}|{}|", before.rows, f(before), f(after));
}
