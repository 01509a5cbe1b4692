//! The simulator's plan: derived once from the page's state (`Inputs::sim_plan`), carried unchanged
//! by every job of a request through the postcard round trip, and holding the split only when the
//! placement is disaggregated under open load.

use goodput_lab::core::plan::SimPlan;
use goodput_lab::core::sim::DisaggConfig;
use goodput_lab::protocol::sim::{decode_job, encode_job, second_round_jobs, seed_jobs, Job};
use goodput_lab::state::from_query;

const DISAGG: &str = "sim=1&requests=200&seeds=3&place=disagg&xp=2&tpp=2&yd=3&tpd=1";

/// The plan a job carries.
fn plan_of(job: &Job) -> SimPlan {
    match job.clone() {
        Job::Seeds { plan, .. } | Job::SecondRound { plan, .. } => plan,
    }
}

#[test]
fn a_plan_with_its_split_survives_the_postcard_round_trip_as_a_job() {
    let plan = from_query(DISAGG).0.sim_plan();
    assert!(plan.placement.is_some(), "disaggregated under open load: the split is planned");
    for job in [
        Job::Seeds { seq: 5, plan: plan.clone(), shard: 2, shards: 3 },
        Job::SecondRound { seq: 6, plan: plan.clone(), chunk_level: 1.25, part: 0, parts: 4 },
    ] {
        let back = decode_job(&encode_job(&job)).expect("a job decodes");
        assert_eq!(back, job);
        assert_eq!(plan_of(&back), plan);
    }
}

#[test]
fn every_seed_and_tail_job_of_a_request_carries_the_plan_the_inputs_derive() {
    for query in [DISAGG, "sim=1&requests=200", "sim=1&requests=200&load=closed&place=disagg"] {
        let inputs = from_query(query).0;
        let plan = inputs.sim_plan();
        let seeds = seed_jobs(7, &plan, 3);
        let second = second_round_jobs(7, &plan, 2.0, 4);
        assert_eq!((seeds.len(), second.len()), (3, 4), "{query}: one job per shard and per part");
        for job in seeds.iter().chain(&second) {
            assert_eq!(job.seq(), 7, "{query}");
            assert_eq!(plan_of(job), inputs.sim_plan(), "{query}: the job carries the request's plan");
        }
        let shard_of = |job: &Job| if let Job::Seeds { shard, .. } = *job { Some(shard) } else { None };
        let shards: Vec<Option<u8>> = seeds.iter().map(shard_of).collect();
        assert_eq!(shards, [Some(0), Some(1), Some(2)], "{query}: seed shards in order");
    }
}

#[test]
fn the_plan_is_the_simulators_config_and_the_split_only_when_disaggregated_under_open_load() {
    let inputs = from_query(DISAGG).0;
    let plan = inputs.sim_plan();
    assert_eq!(plan.config, inputs.sim.config(&inputs.scenario));
    let split = DisaggConfig::new(&plan.config, &inputs.placement.split, inputs.sim.cap);
    assert_eq!(plan.placement, Some(split));
    for query in ["sim=1&requests=200", "sim=1&requests=200&load=closed&place=disagg"] {
        assert_eq!(from_query(query).0.sim_plan().placement, None, "{query}: colocated only");
    }
}
