//! `calibrate --report`'s end-to-end goodput table (issue 48, section 2): every MLPerf Server and
//! Interactive row simulated at its configuration, page / MLPerf and the page against the same
//! system's Offline maximum per row, the summary and the budgets' PASS/FAIL.

use goodput_lab::core::calibration::mlperf::{compare, summarize, Comparison, MlperfRow};
use goodput_lab::core::calibration::published::{PublishedPoint, UseClass};

/// The `notes` and `slo` columns of `csv_text` by row id (the typed rows leave them out).
pub fn notes_and_slo(csv_text: &str) -> Vec<(String, String, String)> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = reader.headers().cloned().unwrap_or_default();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (id, notes, slo) = (column("id"), column("notes"), column("slo"));
    let cell = |r: &csv::StringRecord, k: Option<usize>| k.and_then(|k| r.get(k)).unwrap_or("").to_string();
    reader.records().flatten().map(|r| (cell(&r, id), cell(&r, notes), cell(&r, slo))).collect()
}

/// Prints the table and the summary; true when every budget passes.
pub fn print(points: &[PublishedPoint], csv_text: &str) -> bool {
    let columns = notes_and_slo(csv_text);
    println!(
        "\nGoodput end to end against MLPerf Server/Interactive (p99 TTFT and TPOT, Poisson, simulated)"
    );
    println!(
        "{:<7} {:<8} {:<11} {:>4} {:>5} {:>6} {:>8} {:>8} {:>8} {:>6} {:>7} {:>8} {:>4} | {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6}",
        "row", "gpu", "engine", "repl", "cap", "budget", "rate/s", "page/GPU", "MLPerf", "ratio", "offline", "off/GPU",
        ">off", "batch", "ttft99", "tpot99", "batch", "tpot50", "MLPerf"
    );
    println!("{:>108} | {:^20} | {:^20}", "", "at the page's rate", "at MLPerf's rate (ms)");
    let mut rows: Vec<Comparison> = Vec::new();
    for p in points.iter().filter(|p| p.id.starts_with("MLP-") && p.use_class == UseClass::Load) {
        let Some((_, notes, slo)) = columns.iter().find(|(id, _, _)| id == p.id) else { continue };
        match compare(&MlperfRow { point: p, notes, slo }, points) {
            Ok(c) => {
                print_row(p, &c);
                rows.push(c);
            }
            Err(why) => println!("{why}"),
        }
    }
    let s = summarize(&rows);
    let verdict = |ok: bool| if ok { "PASS" } else { "FAIL" };
    println!(
        "rows {}; median page/MLPerf x{:.2} (budget x0.9-1.1: {}); within x0.8-1.25 {:.0}% (budget >= 80%: {}); \
         above Offline {} (budget 0: {})",
        s.rows,
        s.median_ratio,
        verdict(s.median_pass()),
        100.0 * s.within_band,
        verdict(s.band_pass()),
        s.above_offline,
        verdict(s.offline_pass())
    );
    s.median_pass() && s.band_pass() && s.offline_pass()
}

fn print_row(p: &PublishedPoint, c: &Comparison) {
    let (off_id, off) = c.offline.map_or(("-", "-".to_string()), |(id, t)| (id, format!("{t:.0}")));
    let ms = |x: Option<f64>| x.map_or("-".to_string(), |s| format!("{:.0}", s * 1e3));
    let at = c.at_rate.unwrap_or_default();
    let m = &c.at_mlperf_rate;
    println!(
        "{:<7} {:<8} {:<11} {:>4} {:>5} {:>6} {:>8.2} {:>8.0} {:>8.0} {:>6.2} {:>7} {:>8} {:>4} | {:>6.0} {:>6} {:>6} | {:>6.0} {:>6} {:>6}",
        c.id,
        p.gpu_id,
        p.engine.name(),
        c.replicas,
        c.batch_cap,
        c.token_budget,
        c.rate_per_s,
        c.page_tokens_per_s_per_gpu,
        c.mlperf_tokens_per_s_per_gpu,
        c.ratio(),
        off_id,
        off,
        if c.above_offline() { "yes" } else { "no" },
        at.batch_mean,
        ms(at.ttft.p99_s),
        ms(at.tpot.p99_s),
        m.batch_mean,
        ms(m.tpot.p50_s),
        ms(c.mlperf_tpot_s)
    );
}
