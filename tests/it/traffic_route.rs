//! Routing across a fleet (`core::traffic::route`): round robin by arrival order, least loaded at
//! the arrival instant, session and prefix affinity, and what affinity does for the fleet's hits.

use crate::traffic_fleet::{chat, cost, fleet, trace};
use goodput_lab::core::traffic::{route, run_fleet, run_fleet_requests, Arrival, FleetWorkload, Routing};
use goodput_lab::core::url_id::UrlId;

#[test]
fn routing_policies_are_named_rr_least_and_affinity_in_links() {
    let ids: Vec<_> = Routing::VARIANTS.iter().map(|r| r.url_id()).collect();
    assert_eq!(ids, ["rr", "least", "affinity"]);
    assert_eq!(Routing::from_url_id("least"), Some(Routing::LeastLoaded));
}

#[test]
fn round_robin_sends_arrival_i_to_replica_i_mod_n() {
    let rows: Vec<_> = (0..11).map(|i| (f64::from(i) * 0.01, 200, 50, vec![])).collect();
    let t = trace(16, &rows);
    let (report, reqs) =
        run_fleet_requests(FleetWorkload::Trace(&t), &fleet(3, Routing::RoundRobin), &cost());
    for (i, r) in reqs.iter().enumerate() {
        assert_eq!(r.replica as usize, i % 3, "arrival {i}");
    }
    assert_eq!(report.per_replica_requests, vec![4, 4, 3]);
}

#[test]
fn least_loaded_picks_the_replica_with_fewest_requests_at_the_arrival_instant_ties_to_the_lowest() {
    let at = |loads: &[u32]| {
        route(Routing::LeastLoaded, Arrival { index: 0, session: None, first_block: None }, loads)
    };
    assert_eq!((at(&[3, 1, 1, 2]), at(&[0, 0]), at(&[2, 5, 0])), (1, 0, 2));
    // A runs 2,000 tokens on replica 0, B two tokens on replica 1; at 1 s B has left and A has not.
    let t = trace(
        16,
        &[(0.0, 100, 2000, vec![]), (0.0, 100, 2, vec![]), (1.0, 100, 5, vec![]), (1.0, 100, 5, vec![])],
    );
    let (_, reqs) = run_fleet_requests(FleetWorkload::Trace(&t), &fleet(2, Routing::LeastLoaded), &cost());
    assert!(reqs[1].finish_s < 1.0 && reqs[0].finish_s > 1.0);
    let replicas: Vec<u32> = reqs.iter().map(|r| r.replica).collect();
    assert_eq!(replicas, [0, 1, 1, 0], "C finds replica 1 empty; D finds one each and takes replica 0");
}

#[test]
fn affinity_sends_every_turn_of_a_session_to_one_replica_and_a_shared_first_block_to_one_replica() {
    let (_, reqs) =
        run_fleet_requests(FleetWorkload::Sessions(chat(30)), &fleet(4, Routing::Affinity), &cost());
    for session in 0..30 {
        let replicas: Vec<u32> =
            reqs.iter().filter(|r| r.session == Some(session)).map(|r| r.replica).collect();
        assert_eq!(replicas.len(), 4);
        assert!(replicas.iter().all(|&r| r == replicas[0]), "session {session}: {replicas:?}");
    }
    let used = (0..4).filter(|&r| reqs.iter().any(|q| q.replica == r)).count();
    assert!(used >= 3, "30 sessions hash over the replicas ({used} used)");
    let rows: Vec<_> = (0..12u64).map(|i| (i as f64 * 0.1, 64, 4, vec![i % 3, 100 + i])).collect();
    let (_, reqs) =
        run_fleet_requests(FleetWorkload::Trace(&trace(16, &rows)), &fleet(4, Routing::Affinity), &cost());
    for i in 3..12 {
        assert_eq!(
            reqs[i].replica,
            reqs[i % 3].replica,
            "request {i} shares request {}'s first block",
            i % 3
        );
    }
}

#[test]
fn affinity_gives_a_higher_fleet_hit_rate_than_round_robin_on_multi_turn_sessions() {
    let work = FleetWorkload::Sessions(chat(40));
    let affinity = run_fleet(work, &fleet(4, Routing::Affinity), &cost());
    let round_robin = run_fleet(work, &fleet(4, Routing::RoundRobin), &cost());
    assert!(
        affinity.hit_rate() > round_robin.hit_rate() + 0.2,
        "affinity {} against round robin {}",
        affinity.hit_rate(),
        round_robin.hit_rate()
    );
}
