//! Display formatting: numbers as the worked example prints them, and the headline sentence. Pure and
//! testable natively; the only place base units become ms, GB or TB/s.

pub mod accuracy;
pub mod calibration;
pub mod energy;
pub mod fleet;
pub mod headline;
pub mod measured_runs;
pub mod parallel;
pub mod placement;
pub mod prefix;
pub mod references;
pub mod search;
pub mod sim;
pub mod spec;
use crate::core::scenario::Scenario;
use crate::core::units::{
    bytes_to_gb, s_to_ms, BYTES_PER_GB, BYTES_PER_KIB, BYTES_PER_S_PER_TB_PER_S, FLOP_PER_S_PER_TFLOP_PER_S,
};
pub use headline::headline;
pub use sim::{
    sim_analytic, sim_goodput, sim_goodput_per_gpu, sim_goodput_range, sim_plan_line, sim_sample,
    sim_steady_note,
};

// The number formatter sits below the edge, which writes numbers into its notices too; the page
// reads it here, with the rest of the display formatting.
pub use crate::state::number::{thousands, NOT_A_NUMBER};

/// A number with `decimals` places, thousands-separated in its whole part (`1,234.5`).
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return NOT_A_NUMBER.to_string();
    }
    let text = format!("{:.*}", decimals, x.abs());
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let whole = thousands(whole.parse::<f64>().unwrap_or(0.0));
    let sign = if x < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// A positive number with at least three significant digits (`25.2`, `0.727`, `1,234`), so a
/// quotient printed from it comes out as shown.
pub fn significant(x: f64) -> String {
    let decimals = match x.abs() {
        a if a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        a if a >= 0.1 => 3,
        _ => 4,
    };
    fixed(x, decimals)
}

/// A duration in ms with 2 decimals (`9.92`), from seconds.
pub fn ms(time_s: f64) -> String {
    fixed(s_to_ms(time_s), 2)
}

/// A short target in ms without trailing zeros (`10`, `7.5`), from seconds.
pub fn target_ms(time_s: f64) -> String {
    let text = fixed(s_to_ms(time_s), 1);
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

/// Requests per second as the worked example prints them: 1 decimal, and a plain `0` for none.
pub fn req_per_s(rate: f64) -> String {
    if rate == 0.0 {
        "0".to_string()
    } else {
        fixed(rate, 1)
    }
}

/// A size in decimal GB with 2 decimals (`16.06`), from bytes.
pub fn gb(size_bytes: f64) -> String {
    fixed(bytes_to_gb(size_bytes), 2)
}

/// `yes` or `no`.
pub fn yes_no(flag: bool) -> &'static str {
    if flag {
        "yes"
    } else {
        "no"
    }
}

/// `x` with at most `decimals` places and no trailing zeros (`33.5`, `16.06`, `3.35`).
pub fn trimmed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A size as the worked example prints it, from bytes: GB with 2 decimals from 1 GB (`16.06 GB`), MB with
/// three significant digits from 1 MB (`268 MB`), else KiB (`128 KiB`).
pub fn size(size_bytes: f64) -> String {
    match size_bytes.abs() {
        b if b >= BYTES_PER_GB => format!("{} GB", gb(size_bytes)),
        b if b >= 1e6 => format!("{} MB", significant(size_bytes / 1e6)),
        _ => format!("{} KiB", significant(size_bytes / BYTES_PER_KIB)),
    }
}

/// A bandwidth in TB/s with at most 3 decimals (`3.35 TB/s`), from B/s.
pub fn tb_per_s(bytes_per_s: f64) -> String {
    format!("{} TB/s", trimmed(bytes_per_s / BYTES_PER_S_PER_TB_PER_S, 3))
}

/// A compute peak in TFLOP/s (`989 TFLOP/s`), from FLOP/s.
pub fn tflop_per_s(flop_per_s: f64) -> String {
    format!("{} TFLOP/s", trimmed(flop_per_s / FLOP_PER_S_PER_TFLOP_PER_S, 1))
}

/// A parameter count as the worked example writes it (`8.03e9`), from a count.
pub fn e9(count: f64) -> String {
    format!("{}e9", trimmed(count / 1e9, 3))
}

/// A step time in ms with 2 decimals, or more when 2 would print it equal to `target_s` although
/// it differs (`10.002` against 10 ms).
pub fn ms_against(time_s: f64, target_s: f64) -> String {
    let target = fixed(s_to_ms(target_s), 2);
    (2..=5)
        .map(|d| fixed(s_to_ms(time_s), d))
        .find(|text| time_s == target_s || *text != target)
        .unwrap_or_else(|| fixed(s_to_ms(time_s), 6))
}

/// A short time in µs with three significant digits (`12.3 µs`), from seconds.
pub fn us(time_s: f64) -> String {
    format!("{} µs", significant(time_s * 1e6))
}

/// A share in [0, 1] as a percentage with one decimal (`97.5%`).
pub fn percent(share: f64) -> String {
    format!("{}%", fixed(100.0 * share, 1))
}

/// A share in [0, 1] as a percentage with at most one decimal and no trailing zero (`90%`, `82.5%`).
pub fn percent_trimmed(share: f64) -> String {
    format!("{}%", trimmed(100.0 * share, 1))
}

/// A latency in ms with 2 decimals, or `—` where it is unbounded (a request never served).
pub fn ms_or_dash(time_s: Option<f64>) -> String {
    time_s.map_or_else(|| "—".to_string(), ms)
}

/// The rule from the workload to the context, with the page's numbers: "context 2,048 = 1,920 in +
/// 256 out ÷ 2" (what a sequence holds on average while it answers).
pub fn context_rule(scenario: &Scenario) -> String {
    format!(
        "(context {} = {} in + {} out ÷ 2)",
        thousands(f64::from(scenario.context_tokens)),
        thousands(f64::from(scenario.prompt_tokens())),
        thousands(f64::from(scenario.output_tokens)),
    )
}
