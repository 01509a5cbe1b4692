//! `calibrate --report`'s end-to-end goodput table (issue 48, section 2): every MLPerf Server and
//! Interactive row simulated at its configuration, page / MLPerf and the page against the same
//! system's Offline maximum per row, the summary and the budgets' PASS/FAIL.

use goodput_lab::core::calibration::mlperf::{compare, summarize, Comparison, MlperfRow};
use goodput_lab::core::calibration::published::{PublishedPoint, UseClass};

/// The `notes`, `slo` and `concurrency` columns of `csv_text` by row id (the typed rows leave them out).
pub fn columns(csv_text: &str) -> Vec<[String; 4]> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = reader.headers().cloned().unwrap_or_default();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let keys = [column("id"), column("notes"), column("slo"), column("concurrency")];
    let cell = |r: &csv::StringRecord, k: Option<usize>| k.and_then(|k| r.get(k)).unwrap_or("").to_string();
    reader.records().flatten().map(|r| keys.map(|k| cell(&r, k))).collect()
}

/// Prints the table and the summary; true when every budget passes.
pub fn print(points: &[PublishedPoint], csv_text: &str) -> bool {
    let columns = columns(csv_text);
    println!(
        "\nGoodput end to end against MLPerf Server/Interactive (p99 TTFT and TPOT, Poisson, simulated)"
    );
    println!(
        "{:<7} {:<8} {:<5} {:>4} {:>5} {:>6} {:>8} {:>8} {:>8} {:>6} {:>7} {:>8} {:>4} {:>10} | {:>5} {:>6} {:>5} {:>6} {:>5}",
        "row", "gpu", "eng", "repl", "cap", "budget", "rate/s", "page/GPU", "MLPerf", "ratio", "offline", "off/GPU",
        ">off", "binds", "batch", "TPOT", "pref%", "MLPerf", "ratio"
    );
    println!("{:>118}", "(at MLPerf's batch, page closed-loop TPOT ms)");
    let mut rows: Vec<Comparison> = Vec::new();
    for p in points.iter().filter(|p| p.id.starts_with("MLP-") && p.use_class == UseClass::Load) {
        let Some([_, notes, slo, concurrency]) = columns.iter().find(|c| c[0] == p.id) else { continue };
        match compare(&MlperfRow { point: p, notes, slo, concurrency }, points) {
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
    let batch =
        c.at_mlperf_batch.map_or(format!("{:>5} {:>6} {:>5} {:>6} {:>5}", "-", "-", "-", "-", "-"), |b| {
            format!(
                "{:>5.0} {:>6.1} {:>5.0} {:>6.1} {:>5.2}",
                b.batch,
                b.page_tpot_s * 1e3,
                100.0 * (1.0 - b.page_step_s / b.page_tpot_s),
                b.mlperf_tpot_s * 1e3,
                b.page_tpot_s / b.mlperf_tpot_s
            )
        });
    println!(
        "{:<7} {:<8} {:<5} {:>4} {:>5} {:>6} {:>8.2} {:>8.0} {:>8.0} {:>6.2} {:>7} {:>8} {:>4} {:>10} | {batch}",
        c.id,
        p.gpu_id,
        p.engine.name().chars().take(5).collect::<String>(),
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
        c.missed_above,
    );
}
