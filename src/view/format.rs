//! Display formatting: numbers as the worked example prints them, and the headline sentence. Pure and
//! testable natively; the only place base units become ms, GB or TB/s.

pub mod calibration;
pub mod headline;
pub mod measured_runs;
pub mod placement;
pub mod prefix;
pub mod references;
pub mod search;
pub mod spec;
use crate::core::goodput::evaluate;
use crate::core::roofline::{Analysis, Limit};
use crate::core::scenario::Scenario;
use crate::core::units::{
    bytes_to_gb, s_to_ms, BYTES_PER_GB, BYTES_PER_KIB, BYTES_PER_S_PER_TB_PER_S, FLOP_PER_S_PER_TFLOP_PER_S,
};
pub use headline::headline;

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

/// The simulator's goodput as the readout prints it: `25.4 req/s`, `≥ 50.4 req/s` when every rate
/// swept met the target, `below 3.15 req/s` when none did.
pub fn sim_goodput(sweep: &crate::core::sim::Sweep) -> String {
    use crate::core::sim::GoodputBound;
    let lowest = sweep.points.first().map_or(0.0, |p| p.rate_req_per_s);
    match sweep.bound {
        GoodputBound::Exact => format!("{} req/s", significant(sweep.goodput_req_per_s)),
        GoodputBound::AtLeast => format!("≥ {} req/s", significant(sweep.goodput_req_per_s)),
        GoodputBound::BelowLowest => format!("below {} req/s", significant(lowest)),
    }
}

/// The spread of a sweep's goodput over its seeds: "median of 7 seeds, 12.3 to 13.0 req/s across
/// them" (one seed: "one seed").
pub fn sim_goodput_range(sweep: &crate::core::sim::Sweep) -> String {
    let (lo, hi) = sweep.goodput_range_req_per_s;
    if sweep.seeds <= 1 {
        return "one seed".to_string();
    }
    format!("median of {} seeds, {} to {} req/s across them", sweep.seeds, significant(lo), significant(hi))
}

/// What each level's numbers are: "medians over 7 seeds; the first 64 requests of each run left
/// out as warm-up".
pub fn sim_sample(sweep: &crate::core::sim::Sweep) -> String {
    let warmup = sweep.points.first().map_or(0, |p| p.warmup_requests);
    let over =
        if sweep.seeds <= 1 { "one seed".to_string() } else { format!("medians over {} seeds", sweep.seeds) };
    format!("{over}; the first {warmup} requests of each run left out as warm-up")
}

/// The readout's sentence on warm-up and overload (open load) or why closed load cannot overload.
pub fn sim_steady_note(sweep: &crate::core::sim::Sweep, open: bool) -> String {
    let warmup = sweep.points.first().map_or(0, |p| p.warmup_requests);
    let first = format!(
        "The first {warmup} requests of each run (while the batch fills) are left out of attainment and percentiles."
    );
    if !open {
        return format!("{first} A closed loop cannot overload: each client waits for its answer.");
    }
    let over = sweep.points.iter().find(|p| p.overloaded).map_or_else(
        || " No swept rate overloads the server.".to_string(),
        |p| format!(" From {} req/s the server is overloaded: the queue grows, so those rates never count toward goodput.", significant(p.rate_req_per_s)),
    );
    format!("{first}{over}")
}

/// A sweep's goodput per GPU as printed: "12.4 req/s/GPU", "≥ 12.4 req/s/GPU" (every rate met the
/// target) or "below 3.15 req/s/GPU" (none did), the sweep's rates divided by `gpus`.
pub fn sim_goodput_per_gpu(sweep: &crate::core::sim::Sweep, gpus: u32) -> String {
    use crate::core::sim::GoodputBound;
    let per_gpu = |rate: f64| significant(rate / f64::from(gpus.max(1)));
    match sweep.bound {
        GoodputBound::Exact => format!("{} req/s/GPU", per_gpu(sweep.goodput_req_per_s)),
        GoodputBound::AtLeast => format!("≥ {} req/s/GPU", per_gpu(sweep.goodput_req_per_s)),
        GoodputBound::BelowLowest => {
            format!("below {} req/s/GPU", per_gpu(sweep.points.first().map_or(0.0, |p| p.rate_req_per_s)))
        }
    }
}

/// The simulator readout's analytic line: the batch a server runs inside the targets and its rate,
/// beside the simulated concurrency cap; or, when no batch can run, why, instead of a rate for a
/// batch that does not exist.
pub fn sim_analytic(scenario: &Scenario, analysis: &Analysis, cap: u32) -> String {
    let cap_text =
        if cap == 1 { "1 sequence".to_string() } else { format!("{} sequences", thousands(f64::from(cap))) };
    match analysis.limit {
        Limit::WeightsDoNotFit { .. } | Limit::ContextDoesNotFit { .. } => {
            "Analytic model: nothing fits in memory (see the headline), so the simulated server refuses every request."
                .to_string()
        }
        _ if analysis.server_batch == 0 => {
            format!("Analytic model: no batch meets both targets; simulated cap {cap_text}.")
        }
        _ => format!(
            "Analytic model: batch {} → {} req/s; simulated cap {cap_text}.",
            thousands(f64::from(analysis.server_batch)),
            significant(evaluate(scenario, analysis.server_batch).throughput_req_per_s)
        ),
    }
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

/// The simulator's answer to the capacity plan's question beside the plan's own: "For 100 req/s: 9
/// GPUs at the simulated goodput (a finite run: 2,000 requests x 7 seeds); the capacity plan's
/// analytic steady state: 8 GPUs at 13.4 req/s a replica." and, when they differ, why.
pub fn sim_plan_line(
    load_req_per_s: f64,
    sweep: &crate::core::sim::Sweep,
    tp: u32,
    unit: Option<&crate::core::capacity::Point>,
) -> String {
    use crate::core::capacity::gpus_for;
    let sim = gpus_for(load_req_per_s, sweep.goodput_req_per_s, tp.max(1));
    let sim_text = match sim {
        0 => "no GPU count at the simulated goodput".to_string(),
        n => format!("{} GPUs at the simulated goodput", thousands(f64::from(n))),
    };
    let run = format!("a finite run over {} seeds", sweep.seeds);
    let Some(u) = unit else {
        return format!(
            "For {} req/s: {sim_text} ({run}); the capacity plan finds no rate inside both targets.",
            fixed(load_req_per_s, 2)
        );
    };
    let plan = gpus_for(load_req_per_s, u.rate_req_per_s, u.gpus);
    let why = if plan == sim {
        " The two agree.".to_string()
    } else {
        format!(
            " They differ: {} (README, \"Placement, stated\").",
            placement::plan_difference_cause(u.binds)
        )
    };
    format!(
        "For {} req/s: {sim_text} ({run}); the capacity plan's analytic steady state: {} GPUs at {} req/s a replica.{why}",
        fixed(load_req_per_s, 2),
        thousands(f64::from(plan)),
        significant(u.rate_req_per_s),
    )
}
