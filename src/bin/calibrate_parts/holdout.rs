//! `calibrate --report`'s out-of-sample tables: the leave-group-out (GPU family x engine release) and
//! time-split predictions by coverage class (TPOT median and p90 |error|, coverage of the likely
//! range, median half-width), judged by ranges read without them, beside the model and rule before
//! issue 48 (no release trend; plain percentiles over residuals containing the judged rows), each
//! left-out group's rows, and the budgets.

use goodput_lab::core::calibration::bounds::{Family, Stack};
use goodput_lab::core::calibration::coverage::ClassRange;
use goodput_lab::core::calibration::coverage::HoldOut;
use goodput_lab::core::calibration::crossval::{cross_validate_with, quantile, Held, Scheme};
use goodput_lab::core::calibration::holdout::{
    group_of, leave_group_out_with, time_split_with, Calibrated, Judged, SPLIT_DATE,
};
use goodput_lab::core::calibration::published::PublishedPoint;
use goodput_lab::core::calibration::range::{percentile_bounds, pooled_class_ranges_with};
use goodput_lab::core::calibration::transfer::median;

/// The budgets: each scheme's predictions inside their ranges >= 80%, median half-width <= 25%.
const COVERAGE_MIN: f64 = 0.80;
const HALF_WIDTH_MAX: f64 = 0.25;

/// One table row's figures over a set of judged predictions.
struct Figures {
    rows: usize,
    median_abs_error: f64,
    p90_abs_error: f64,
    coverage: f64,
    half_width: f64,
}

fn figures(judged: &[&Judged]) -> Figures {
    let mut abs: Vec<f64> = judged.iter().map(|j| j.held.error.error().abs()).collect();
    abs.sort_by(f64::total_cmp);
    let mut half: Vec<f64> = judged.iter().map(|j| j.half_width()).collect();
    let inside = judged.iter().filter(|j| j.inside()).count();
    Figures {
        rows: judged.len(),
        median_abs_error: median(&mut abs.clone()).unwrap_or(0.0),
        p90_abs_error: quantile(&abs, 0.9),
        coverage: inside as f64 / judged.len().max(1) as f64,
        half_width: median(&mut half).unwrap_or(0.0),
    }
}

fn print_row(name: &str, f: &Figures) {
    println!(
        "  {name:<30} {:>4} {:>7.1}% {:>7.1}% {:>8.1}% {:>9.1}%",
        f.rows,
        100.0 * f.median_abs_error,
        100.0 * f.p90_abs_error,
        100.0 * f.coverage,
        100.0 * f.half_width
    );
}

/// The same rows as the model before issue 48 predicted them (no release trend) and judged them: the
/// ranges it shipped, plain 10th-90th percentiles over its leave-one-row, -GPU and -engine-out residuals,
/// every stack pooled.
fn before(points: &[PublishedPoint], held: &[Held], hold_out: HoldOut) -> Vec<Judged> {
    let old: Vec<Held> = [Scheme::LeaveOneRowOut, Scheme::LeaveOneGpuOut, Scheme::LeaveOneEngineOut]
        .into_iter()
        .flat_map(|s| cross_validate_with(points, s, false))
        .collect();
    let ranges: [ClassRange; 6] = pooled_class_ranges_with(&old, percentile_bounds);
    held.iter().map(|h| Judged { held: *h, hold_out, range: ranges[h.coverage.index()] }).collect()
}

fn table(title: &str, judged: &[Judged], old: &[Judged]) -> Figures {
    println!("{title}");
    println!(
        "  {:<30} {:>4} {:>8} {:>8} {:>9} {:>10}",
        "class", "rows", "median", "p90", "coverage", "half-width"
    );
    for (label, set) in [
        ("before (no release trend, percentile rule)", &old.to_vec()),
        ("after (release trend, conformal, held out)", &judged.to_vec()),
    ] {
        println!("  {label}:");
        for word in ["fitted", "transferred", "not measured"] {
            let rows: Vec<&Judged> = set.iter().filter(|j| j.held.coverage.word() == word).collect();
            if !rows.is_empty() {
                print_row(&format!("  {word}"), &figures(&rows));
            }
        }
        print_row("  all", &figures(&set.iter().collect::<Vec<_>>()));
    }
    figures(&judged.iter().collect::<Vec<_>>())
}

/// Each left-out group's rows: count, median signed error (predicted / measured - 1), inside.
fn per_group(points: &[PublishedPoint], judged: &[Judged]) {
    println!("  per group (left out): rows, median signed error, inside its range");
    let mut groups: Vec<(Family, &str)> = Vec::new();
    let group = |j: &Judged| points.iter().find(|p| p.id == j.held.error.id).map(group_of);
    for j in judged {
        if let Some(g) = group(j) {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
    }
    for g in groups {
        let rows: Vec<&Judged> = judged.iter().filter(|j| group(j) == Some(g)).collect();
        let mut signed: Vec<f64> = rows.iter().map(|j| j.held.error.error()).collect();
        let inside = rows.iter().filter(|j| j.inside()).count();
        println!(
            "    {:<12} {:<34} {:>3} {:>+7.1}% {:>3} of {}",
            format!("{:?}", g.0),
            g.1,
            rows.len(),
            100.0 * median(&mut signed).unwrap_or(0.0),
            inside,
            rows.len()
        );
    }
}

/// Prints both tables and the budgets; whether every budget holds.
pub fn print(points: &[PublishedPoint], c: &Calibrated) -> bool {
    let (y, m, d) = SPLIT_DATE;
    let old_left = before(points, &leave_group_out_with(points, false), HoldOut::LeftOut);
    let old_split = before(points, &time_split_with(points, SPLIT_DATE, false), HoldOut::TimeSplit);
    let old_gpu =
        before(points, &cross_validate_with(points, Scheme::LeaveOneGpuOut, false), HoldOut::GpuLeftOut);
    let logo = table(
        "Out of sample, leave-one-group-out (GPU family x engine release), |TPOT error| and likely range:",
        &c.left_out,
        &old_left,
    );
    per_group(points, &c.left_out);
    let gpu = table("Out of sample, leave-one-GPU-out:", &c.gpu_left_out, &old_gpu);
    let split = table(
        &format!("Out of sample, time split (fit before {y}-{m:02}-{d:02}, predict on or after):"),
        &c.time_split,
        &old_split,
    );
    if let Some(j) = c.time_split.first() {
        println!("  the time split's rows were judged by ranges read before the date, e.g. class {}: x{:.3} .. x{:.3} (from {} rows)", j.held.coverage.index(), j.range.low, j.range.high, j.range.rows);
    }
    println!("Shipped ranges (from every left-out and time-split residual), by stack and class:");
    for (stack, ranges) in Stack::ALL.iter().zip(&c.ranges.0) {
        for (i, r) in ranges.iter().enumerate() {
            println!(
                "  {:<4} class {i}: x{:.3} .. x{:.3} (from {} rows)",
                stack.name(),
                r.low,
                r.high,
                r.rows
            );
        }
    }
    println!("budgets (out of sample):");
    let mut pass = true;
    println!(
        "  leave-one-GPU-out (reported, no budget): {:.1}% inside, median half-width {:.1}%",
        100.0 * gpu.coverage,
        100.0 * gpu.half_width
    );
    for (name, f) in [("leave-one-group-out", &logo), ("time split", &split)] {
        pass &= verdict_at_least(&format!("{name} inside their range"), f.coverage, COVERAGE_MIN);
        pass &= verdict_at_most(&format!("{name} median half-width"), f.half_width, HALF_WIDTH_MAX);
    }
    pass
}

fn verdict_at_least(name: &str, value: f64, budget: f64) -> bool {
    let pass = value >= budget;
    println!("  {name}: {:.1}% (budget >= {:.0}%) {}", 100.0 * value, 100.0 * budget, word(pass));
    pass
}

fn verdict_at_most(name: &str, value: f64, budget: f64) -> bool {
    let pass = value <= budget;
    println!("  {name}: {:.1}% (budget <= {:.0}%) {}", 100.0 * value, 100.0 * budget, word(pass));
    pass
}

fn word(pass: bool) -> &'static str {
    if pass {
        "PASS"
    } else {
        "FAIL"
    }
}
