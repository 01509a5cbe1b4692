//! `calibrate --report`'s printout: each fitted term beside its published ceiling and prior, the
//! cross-validation tables (overall, per GPU, per engine), the throughput rows against the model, the
//! likely ranges with their coverage, and the budgets.

use goodput_lab::core::calibration::bounds::collective_latency_s;
use goodput_lab::core::calibration::bounds::Stack;
use goodput_lab::core::calibration::coverage::{Coverage, Ranges};
use goodput_lab::core::calibration::crossval::{engine_name, spread, spread_by, Held, Scheme, Spread};
use goodput_lab::core::calibration::fit::{Fitted, Param};
use goodput_lab::core::calibration::published::PublishedPoint;
use goodput_lab::core::calibration::report::{throughput_checks, RowError};

/// The budgets: in-sample median |TPOT error| <= 5%; leave-one-GPU-out median <= 12% and
/// p90 <= 30%; leave-one-GPU-out predictions inside their likely ranges >= 80%.
const IN_SAMPLE_MEDIAN: f64 = 0.05;
const LOGO_MEDIAN: f64 = 0.12;
const LOGO_P90: f64 = 0.30;
const RANGE_COVERAGE: f64 = 0.80;

pub fn print(
    points: &[PublishedPoint],
    fitted: &Fitted,
    schemes: &[(Scheme, Vec<Held>)],
    ranges: &Ranges,
) -> bool {
    terms(fitted);
    for (scheme, held) in schemes {
        rows(
            &format!("TPOT, {}:", scheme.name()),
            &held.iter().map(|h| h.error).collect::<Vec<_>>(),
            1e3,
            "ms",
        );
    }
    cross_validation(points, schemes);
    let checks = throughput_checks(points, &fitted.profile());
    rows("Throughput rows (checked, not fitted; a ceiling is an upper bound):", &checks, 1.0, "tok/s");
    let over: Vec<&RowError> =
        checks.iter().filter(|r| r.exceeds_ceiling() && r.id.starts_with("TRT")).collect();
    println!(
        "  offline ceilings exceeded: {} of {}",
        over.len(),
        checks.iter().filter(|r| r.id.starts_with("TRT")).count()
    );
    let logo_in = ranges_table(schemes, ranges);
    let of = |s: Scheme| {
        schemes
            .iter()
            .find(|(k, _)| *k == s)
            .map(|(_, h)| spread(&h.iter().map(|h| h.error).collect::<Vec<_>>()))
    };
    let (ins, logo) = (of(Scheme::InSample), of(Scheme::LeaveOneGpuOut));
    println!("budgets:");
    let a =
        verdict("in-sample median |TPOT error|", ins.map_or(1.0, |s| s.median_abs_error), IN_SAMPLE_MEDIAN);
    let b = verdict(
        "leave-one-GPU-out median |TPOT error|",
        logo.map_or(1.0, |s| s.median_abs_error),
        LOGO_MEDIAN,
    );
    let c = verdict("leave-one-GPU-out p90 |TPOT error|", logo.map_or(1.0, |s| s.p90_abs_error), LOGO_P90);
    let pass = logo_in >= RANGE_COVERAGE;
    println!(
        "  leave-one-GPU-out inside their likely range: {:.1}% (budget >= 80%) {}",
        100.0 * logo_in,
        if pass { "PASS" } else { "FAIL" }
    );
    a && b && c && pass && over.is_empty()
}

fn terms(fitted: &Fitted) {
    println!("Fitted terms ({} Gauss-Newton rounds): value, published ceiling, prior, sensitivity (rows' RSS change when moved by its prior), status", fitted.rounds);
    for t in &fitted.report {
        let (name, value, ceiling, prior) = match t.param {
            Param::Gpu(id, slot) => {
                let c = slot.ceiling(id);
                let ceiling =
                    format!("{:.0}%{}", 100.0 * c.value, if c.measured { "" } else { " (carried)" });
                (
                    format!("{id} {}", slot.label()),
                    format!("{:.1}%", 100.0 * t.value),
                    ceiling,
                    t.prior.map(|p| format!("{:.0}%", 100.0 * p)),
                )
            }
            Param::Layer(stack) => {
                (format!("per layer, {}", stack.name()), us(t.value), "-".into(), t.prior.map(us))
            }
            Param::Quantize => ("per layer, 8-bit-or-smaller weights".into(), us(t.value), "-".into(), None),
            Param::ExpertLayer => {
                ("per MoE layer, expert parallelism (EP > 1)".into(), us(t.value), "-".into(), None)
            }
            Param::Engine(e) => (format!("per step, {}", e.name()), us(t.value), "-".into(), None),
            Param::Trend(stack) => (
                format!("release trend, {} (older releases slower, per month)", stack.name()),
                format!("{:.2}%", 100.0 * t.value),
                "-".into(),
                None,
            ),
        };
        let status = if t.held { "held at prior" } else { "fitted" };
        let sensitivity = if t.prior.is_some() { format!("{:.3}", t.sensitivity) } else { "-".into() };
        println!(
            "  {name:<58} {value:>9} {ceiling:>14} {:>8} {sensitivity:>7} {status}",
            prior.unwrap_or_else(|| "-".into())
        );
    }
    println!("  all-reduce latency per call (priced from the link, not fitted): h100-sxm {}, h200-sxm {}, b200 {}, mi300x {}",
        us(collective_latency_s("h100-sxm").value), us(collective_latency_s("h200-sxm").value),
        us(collective_latency_s("b200").value), us(collective_latency_s("mi300x").value));
}

fn us(s: f64) -> String {
    format!("{:.1} µs", s * 1e6)
}

fn cross_validation(points: &[PublishedPoint], schemes: &[(Scheme, Vec<Held>)]) {
    println!("Cross-validation (|TPOT error|): rows, median, p90, worst");
    for (scheme, held) in schemes {
        line(scheme.name(), &spread(&held.iter().map(|h| h.error).collect::<Vec<_>>()));
    }
    for (scheme, held) in schemes {
        println!("  {} per GPU:", scheme.name());
        for (k, s) in spread_by(points, held, |p| p.gpu_id) {
            line(&format!("  {k}"), &s);
        }
        println!("  {} per engine:", scheme.name());
        for (k, s) in spread_by(points, held, engine_name) {
            line(&format!("  {k}"), &s);
        }
    }
}

fn line(name: &str, s: &Spread) {
    println!(
        "  {name:<24} {:>3} {:>6.1}% {:>6.1}% {:>6.1}%",
        s.count,
        100.0 * s.median_abs_error,
        100.0 * s.p90_abs_error,
        100.0 * s.worst_abs_error
    );
}

/// Prints each class's range and how often held-out predictions fall inside; returns the share of
/// leave-one-GPU-out predictions inside their class's range.
fn ranges_table(schemes: &[(Scheme, Vec<Held>)], ranges: &Ranges) -> f64 {
    println!(
        "Likely ranges (measured / predicted, 10th-90th percentile of held-out rows of the class and stack):"
    );
    for stack in Stack::ALL {
        for c in Coverage::ALL {
            let r = ranges.of(stack, c);
            println!(
                "  {:<4} {:<16?} engine+precision measured {:<5} x{:.3} .. x{:.3} (from {} rows)",
                stack.name(),
                c.gpu,
                c.config_measured,
                r.low,
                r.high,
                r.rows
            );
        }
    }
    let mut widths: Vec<f64> = schemes
        .iter()
        .filter(|(s, _)| *s != Scheme::InSample)
        .flat_map(|(_, held)| {
            held.iter().map(|h| ranges.of(h.stack(), h.coverage).high - ranges.of(h.stack(), h.coverage).low)
        })
        .collect();
    let width = goodput_lab::core::calibration::transfer::median(&mut widths).unwrap_or(0.0);
    println!("  median width over the held-out predictions: {:.1}% of the predicted time", 100.0 * width);
    let mut logo_share = 0.0;
    for (scheme, held) in schemes {
        let inside = held
            .iter()
            .filter(|h| ranges.of(h.stack(), h.coverage).holds(h.error.predicted, h.error.measured))
            .count();
        let share = inside as f64 / held.len().max(1) as f64;
        println!(
            "  {}: {inside} of {} inside their range ({:.1}%)",
            scheme.name(),
            held.len(),
            100.0 * share
        );
        if *scheme == Scheme::LeaveOneGpuOut {
            logo_share = share;
        }
    }
    logo_share
}

fn rows(title: &str, rows: &[RowError], scale: f64, unit: &str) {
    println!("{title}");
    println!(
        "  {:<9} {:<10} {:>14} {:>12} {:>8}",
        "row",
        "gpu",
        format!("measured {unit}"),
        format!("model {unit}"),
        "error"
    );
    for r in rows {
        println!(
            "  {:<9} {:<10} {:>14.2} {:>12.2} {:>+7.1}%",
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
