//! The fleet the page asks for (`fleet=1`): the sweep's server on every replica, the tier of host
//! memory behind the GPU's host link, the synthetic sessions on the page's load, and its comparison
//! carried back with the sweep's result.

use goodput_lab::core::capacity::{unit_point, Placing};
use goodput_lab::core::placement::PlacementMode;
use goodput_lab::core::plan::compute;
use goodput_lab::core::roofline::kv_bytes_per_held_token;
use goodput_lab::core::sim::kv_pool_tokens;
use goodput_lab::core::sim::Percentiles;
use goodput_lab::core::traffic::{FleetReport, FleetRow, Routing};
use goodput_lab::state::from_query;
use goodput_lab::view::format::fleet::{fleet_finding, fleet_row_cells, FLEET_COLUMNS};

#[test]
fn the_fleet_runs_only_when_asked() {
    assert!(from_query("sim=1").0.sim_plan().fleet.is_none());
    assert!(from_query("sim=1&fleet=1").0.sim_plan().fleet.is_some());
}

#[test]
fn each_replica_gets_the_sweeps_server_and_the_tier_its_host_memory_over_the_host_link() {
    let (inputs, notices) = from_query("sim=1&fleet=1&replicas=3&tier=100&chunk=1024&cap=48");
    assert!(notices.is_empty(), "{notices:?}");
    let plan = inputs.sim_plan();
    let fleet = plan.fleet.expect("asked for");
    let c = fleet.config;
    assert_eq!((c.replicas, c.chunk_tokens, c.max_concurrency), (3, 1024, 48));
    assert_eq!(c.kv_pool_tokens, kv_pool_tokens(&inputs.scenario));
    let tier = c.tier.expect("100 GB per GPU");
    // H100 SXM: PCIe Gen5 x16, 64 GB/s per direction; 100 GB over the KV bytes of one held token.
    assert_eq!(tier.link_bytes_per_s, 64e9);
    let held = kv_bytes_per_held_token(&inputs.scenario);
    assert!((tier.capacity_tokens / (100e9 / held) - 1.0).abs() < 1e-12);
    assert_eq!((c.ttft_target_s, c.tpot_target_s), (2.0, 0.010));
}

#[test]
fn grace_systems_offload_over_the_c2c_link() {
    let plan = from_query("sim=1&fleet=1&gpu=gb200").0.sim_plan();
    let tier = plan.fleet.expect("asked for").config.tier.expect("the default tier");
    assert_eq!(tier.link_bytes_per_s, 450e9, "NVLink-C2C: 900 GB/s total, 450 per direction");
}

#[test]
fn no_host_memory_means_no_tier_and_three_rows() {
    let plan = from_query("sim=1&fleet=1&tier=0&replicas=2&requests=100&turns=2").0.sim_plan();
    assert!(plan.fleet.expect("asked for").config.tier.is_none());
    let rows = plan.fleet_rows().expect("a fleet");
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| !r.tier));
}

#[test]
fn sessions_carry_the_pages_load_lengths_shared_prefix_and_seed() {
    let q = "sim=1&fleet=1&rate=10&turns=4&think=3&newtok=120&requests=1000&prefix=512&hit=50&seed=9&in=1920&out=256";
    let (inputs, notices) = from_query(q);
    assert!(notices.is_empty(), "{notices:?}");
    let s = inputs.sim_plan().fleet.expect("asked for").sessions;
    assert_eq!((s.sessions, s.turns), (250, 4), "1,000 requests as 4-turn sessions");
    assert!((s.session_rate_per_s - 2.5).abs() < 1e-12, "10 req/s over 4 turns");
    assert_eq!((s.system_tokens, s.first_tokens), (512, 1920 - 512));
    assert_eq!((s.new_tokens, s.output_tokens, s.think_s, s.seed), (120, 256, 3.0, 9));
}

#[test]
fn automatic_replicas_are_the_capacity_plans_for_the_load() {
    let (inputs, _) = from_query("sim=1&fleet=1&rate=30");
    let placing = Placing { mode: PlacementMode::Colocated, ..inputs.placing() };
    let unit = unit_point(&inputs.scenario, &placing).expect("the worked example serves");
    let want = (30.0 / unit.rate_req_per_s).ceil() as u32;
    assert!(want > 1, "30 req/s needs several replicas of one H100");
    assert_eq!(inputs.sim_plan().fleet.expect("asked for").config.replicas, want);
}

#[test]
fn the_result_carries_every_policy_without_and_with_the_tier() {
    let plan = from_query("sim=1&fleet=1&replicas=2&requests=120&turns=3&think=1&points=4").0.sim_plan();
    let result = compute(&plan, |_, _| {});
    let rows = result.fleet.expect("the fleet ran");
    assert_eq!(rows, plan.fleet_rows().expect("a fleet"));
    let order: Vec<(Routing, bool)> = rows.iter().map(|r| (r.routing, r.tier)).collect();
    use Routing::*;
    let want = [
        (RoundRobin, false),
        (LeastLoaded, false),
        (Affinity, false),
        (RoundRobin, true),
        (LeastLoaded, true),
        (Affinity, true),
    ];
    assert_eq!(order, want);
    for row in &rows {
        assert_eq!(row.report.requests, 120, "40 sessions of 3 turns: every turn sent");
        assert!(row.report.hit_rate() > 0.0, "later turns reuse their context");
    }
}

/// A row of `routing`, with or without the tier, at TTFT p99 `p99_s` and hits (GPU, CPU) in
/// thousands of 10,000 prompt tokens; three replicas getting `per_replica` requests.
fn row(routing: Routing, tier: bool, p99_s: f64, hits: (u64, u64), per_replica: [u32; 3]) -> FleetRow {
    let ttft = Percentiles { p50_s: Some(p99_s / 4.0), p90_s: Some(p99_s / 2.0), p99_s: Some(p99_s) };
    let report = FleetReport {
        requests: per_replica.iter().sum(),
        prompt_tokens: 10_000,
        gpu_hit_tokens: hits.0 * 1000,
        cpu_hit_tokens: hits.1 * 1000,
        ttft,
        per_replica_requests: per_replica.to_vec(),
        ..FleetReport::default()
    };
    FleetRow { routing, tier, report }
}

#[test]
fn the_finding_names_the_lowest_tail_ttft_without_and_with_the_tier_and_says_the_run_is_finite() {
    let rows = [
        row(Routing::RoundRobin, false, 0.9, (2, 0), [40, 40, 40]),
        row(Routing::LeastLoaded, false, 0.41, (2, 0), [40, 40, 40]),
        row(Routing::Affinity, false, 2.0, (4, 0), [60, 30, 30]),
        row(Routing::RoundRobin, true, 0.3, (2, 3), [40, 40, 40]),
        row(Routing::LeastLoaded, true, 0.2, (2, 3), [40, 40, 40]),
        row(Routing::Affinity, true, 0.052, (4, 4), [60, 30, 30]),
    ];
    let finding = fleet_finding(&rows);
    assert!(
        finding.starts_with("Without the tier, least loaded gives the lowest TTFT p99 (410.00 ms; 20.0%"),
        "{finding}"
    );
    assert!(finding.contains("With the tier, session / prefix affinity does: 52.00 ms, 80.0% of prompt tokens hit (40.0% on the GPU, 40.0%"), "{finding}");
    assert!(finding.contains("finite run of 120 requests"), "{finding}");
    let cells = fleet_row_cells(&rows[2]);
    assert_eq!(cells.len(), FLEET_COLUMNS.len());
    assert_eq!(cells[10], "50.0%", "60 of 120 requests on the busiest replica");
    assert_eq!(cells[3], "–", "no CPU tier, no CPU hits");
}

#[test]
fn a_tier_no_request_hit_is_said_to_change_nothing() {
    let rows = [
        row(Routing::RoundRobin, false, 0.9, (2, 0), [40, 40, 40]),
        row(Routing::RoundRobin, true, 0.9, (2, 0), [40, 40, 40]),
    ];
    let finding = fleet_finding(&rows);
    assert!(finding.contains("With the tier nothing changes"), "{finding}");
    assert!(!finding.contains("With the tier, round robin"), "{finding}");
}
