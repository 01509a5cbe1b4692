//! The fleet comparison's text: each row's cells (routing, tier, hit rates per tier, TTFT and TPOT
//! percentiles, attainment, refusals and the busiest replica's share) and the finding sentence that
//! reads the table (which policy gives the lowest tail TTFT, what the tier changes).

use crate::core::traffic::{FleetReport, FleetRow, Routing};

/// A routing policy's name in the table.
pub fn routing_name(routing: Routing) -> &'static str {
    match routing {
        Routing::RoundRobin => "Round robin",
        Routing::LeastLoaded => "Least loaded",
        Routing::Affinity => "Session / prefix affinity",
    }
}

/// The table's header, in cell order.
pub const FLEET_COLUMNS: [&str; 11] = [
    "Routing",
    "Offload tier",
    "GPU cache hits",
    "CPU tier hits",
    "TTFT p50 (ms)",
    "TTFT p90 (ms)",
    "TTFT p99 (ms)",
    "TPOT p90 (ms)",
    "Both targets",
    "Refused",
    "Busiest replica's share",
];

/// One row's cells, in [`FLEET_COLUMNS`]' order.
pub fn fleet_row_cells(row: &FleetRow) -> Vec<String> {
    let r = &row.report;
    vec![
        routing_name(row.routing).to_string(),
        if row.tier { "with".to_string() } else { "without".to_string() },
        super::percent(r.gpu_hit_rate()),
        if row.tier { super::percent(r.cpu_hit_rate()) } else { "–".to_string() },
        super::ms_or_dash(r.ttft.p50_s),
        super::ms_or_dash(r.ttft.p90_s),
        super::ms_or_dash(r.ttft.p99_s),
        super::ms_or_dash(r.tpot.p90_s),
        super::percent(r.attainment),
        super::thousands(f64::from(r.refused)),
        super::percent(busiest_share(r)),
    ]
}

/// The most requests any replica got over all requests routed (1 / N when even).
pub fn busiest_share(report: &FleetReport) -> f64 {
    let total: u32 = report.per_replica_requests.iter().sum();
    let most = report.per_replica_requests.iter().copied().max().unwrap_or(0);
    if total == 0 {
        0.0
    } else {
        f64::from(most) / f64::from(total)
    }
}

/// The row with the lowest TTFT p99 among `rows` with `tier`, if any was served at p99.
fn best_tail(rows: &[FleetRow], tier: bool) -> Option<&FleetRow> {
    let p99 = |row: &&FleetRow| row.report.ttft.p99_s.filter(|t| t.is_finite()).unwrap_or(f64::INFINITY);
    let served = |row: &&FleetRow| p99(row).is_finite();
    rows.iter().filter(|r| r.tier == tier).filter(served).min_by(|a, b| p99(a).total_cmp(&p99(b)))
}

/// The finding: the policy with the lowest tail TTFT without the tier, and with it (its hit rate
/// and p99 beside the same policy's without), e.g. "Without the tier, least loaded gives the
/// lowest TTFT p99 (410.00 ms; 17.0% ...). With the tier, session / prefix affinity does: 52.00 ms, 86.0% ...
/// (41% GPU, 45% CPU). A finite run of 2,000 requests from t = 0, not a steady state."
pub fn fleet_finding(rows: &[FleetRow]) -> String {
    let requests = rows.first().map_or(0, |r| r.report.requests);
    let run = format!(
        "A finite run of {} requests per row from an empty fleet, not a steady state.",
        super::thousands(f64::from(requests))
    );
    let Some(without) = best_tail(rows, false) else {
        return format!("No policy served enough requests to read a TTFT p99. {run}");
    };
    let first = format!(
        "Without the tier, {} gives the lowest TTFT p99 ({} ms; {} of prompt tokens hit the GPU cache).",
        routing_name(without.routing).to_lowercase(),
        super::ms_or_dash(without.report.ttft.p99_s),
        super::percent(without.report.hit_rate())
    );
    let tier_unused =
        rows.iter().any(|r| r.tier) && rows.iter().all(|r| !r.tier || r.report.cpu_hit_tokens == 0);
    let second = best_tail(rows, true).filter(|_| !tier_unused).map(|with| {
        format!(
            " With the tier, {} does: {} ms, {} of prompt tokens hit ({} on the GPU, {} copied back from host memory).",
            routing_name(with.routing).to_lowercase(),
            super::ms_or_dash(with.report.ttft.p99_s),
            super::percent(with.report.hit_rate()),
            super::percent(with.report.gpu_hit_rate()),
            super::percent(with.report.cpu_hit_rate())
        )
    });
    let unused = " With the tier nothing changes: no block evicted to host memory was asked for again (the GPU cache held what was reused).";
    let second = if tier_unused { unused.to_string() } else { second.unwrap_or_default() };
    format!("{first}{second} {run}")
}
