//! Whole numbers as text with thousands separators (`8,505`): one formatter, which the edge's notices
//! and the page's display formatting (`view::format`, which re-exports it) both use.

/// Shown in place of a number that is not finite; the model should never produce one.
pub const NOT_A_NUMBER: &str = "–";

/// A whole number with thousands separators (`8,505`); rounds half away from zero.
pub fn thousands(x: f64) -> String {
    if !x.is_finite() {
        return NOT_A_NUMBER.to_string();
    }
    let digits = format!("{:.0}", x.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if x < 0.0 && digits != "0" {
        format!("-{out}")
    } else {
        out
    }
}
