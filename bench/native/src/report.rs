//! The benchmark's output: one metric per line, `name value unit budget verdict`, so a script can
//! grep a name and read its columns; lines starting with `#` say what was run.

/// What a metric is held to.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    AtLeast(f64),
    /// Reported for orientation only.
    None,
}

/// Prints `name value unit budget verdict`; the verdict is PASS, FAIL or INFO. Returns false on
/// FAIL so the caller can set the exit status.
pub fn metric(name: &str, value: f64, unit: &str, budget: Budget) -> bool {
    let (budget_text, verdict) = match budget {
        Budget::AtLeast(b) => (format!(">={}", number(b)), pass(value >= b)),
        Budget::None => ("-".to_string(), "INFO"),
    };
    println!("{name} {} {unit} {budget_text} {verdict}", number(value));
    verdict != "FAIL"
}

/// A comment line: what was run, with which settings.
pub fn note(text: &str) {
    println!("# {text}");
}

fn pass(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "FAIL"
    }
}

/// Whole numbers above 100 without decimals, smaller ones with three significant decimals.
fn number(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.4}")
    }
}
