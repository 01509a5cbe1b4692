//! The page <-> workers protocol: jobs carry their sequence number, validated plan and shard,
//! both directions round-trip through postcard, progress comes before each job's result (paced by
//! the worker's clock), the seed shards and the second round's parts assemble to exactly the single-thread
//! result, and the trade-off shows the step budget's two sides.

use goodput_lab::core::plan::{
    assemble, chunk_level, combine_shards, compute, join_second_round, levels_total, second_round,
    second_round_parts_for, shards_for, SecondRoundPart, SimPlan, SimResult, CHUNK_BUDGETS, SHARDS_MAX,
};
use goodput_lab::core::sim::{shard_seeds, Sweep};
use goodput_lab::protocol::codec::to_bytes;
use goodput_lab::protocol::sim::{
    decode, decode_job, encode, encode_job, respond, Job, Part, SimReply, PROGRESS_EVERY_MS,
    PROGRESS_POSTS_MAX,
};
use goodput_lab::state::from_query;

/// Every reply `respond` posts for `job`, decoded, on a clock that moves 1 s per reading (so
/// progress is paced by levels alone).
fn replies(job: &Job) -> Vec<SimReply> {
    let mut t = 0.0;
    replies_on(job, move || {
        t += 1000.0;
        t
    })
}

/// Every reply `respond` posts for `job` on the clock `now_ms`, decoded.
fn replies_on(job: &Job, now_ms: impl FnMut() -> f64) -> Vec<SimReply> {
    let mut replies = Vec::new();
    respond(job, now_ms, |bytes| replies.push(decode(&bytes).expect("decodes")));
    replies
}

/// The request run as the page runs it over `shards` workers: every seed shard's job, their
/// sweeps combined in shard order, then the second round's `tails` jobs at half the combined goodput,
/// joined in part order and assembled. Also returns the progress totals the parts announced.
fn sharded(plan: SimPlan, shards: u8, tails: u8) -> (SimResult, u32) {
    let mut per_shard: Vec<Vec<Sweep>> = Vec::new();
    let mut totals = 0;
    for shard in 0..shards {
        let mut got = replies(&Job::Seeds { seq: 9, plan: plan.clone(), shard, shards });
        totals += last_total(&got);
        let Some(SimReply::SeedSweeps { seq: 9, shard: s, sweeps }) = got.pop() else {
            panic!("sweeps last")
        };
        assert_eq!(s, shard);
        per_shard.push(sweeps);
    }
    let sweep = combine_shards(&plan, per_shard);
    let level = chunk_level(&plan, &sweep);
    let mut parts: Vec<SecondRoundPart> = Vec::new();
    for part in 0..tails {
        let mut got =
            replies(&Job::SecondRound { seq: 9, plan: plan.clone(), chunk_level: level, part, parts: tails });
        totals += last_total(&got);
        let Some(SimReply::SecondRound { seq: 9, part: p, ran }) = got.pop() else {
            panic!("the second-round part last")
        };
        assert_eq!(p, part);
        parts.push(ran);
    }
    (assemble(&plan, sweep, level, join_second_round(parts)), totals)
}

/// The total of the last progress reply among `replies` (0 if none).
fn last_total(replies: &[SimReply]) -> u32 {
    replies
        .iter()
        .rev()
        .find_map(|r| match r {
            SimReply::Progress { total, .. } => Some(*total),
            _ => None,
        })
        .unwrap_or(0)
}

#[test]
fn a_job_carries_its_sequence_number_inputs_and_shard() {
    let plan = from_query("ctx=4096&sim=1&model=custom&m_layers=40&gpu=custom&g_bw=4.8&mbu=70").0.sim_plan();
    for job in [
        Job::Seeds { seq: 42, plan: plan.clone(), shard: 1, shards: 3 },
        Job::SecondRound { seq: 43, plan: plan.clone(), chunk_level: 2.5, part: 1, parts: 2 },
    ] {
        assert_eq!(decode_job(&encode_job(&job)), Some(job));
    }
    assert_eq!(decode_job(b"garbage"), None, "a malformed job is no job");
    assert_eq!(decode_job(&[]), None);
}

#[test]
fn respond_posts_progress_then_the_shards_own_seeds_sweeps() {
    let plan = from_query("sim=1&requests=200&points=4&seeds=7").0.sim_plan();
    let got = replies(&Job::Seeds { seq: 7, plan, shard: 0, shards: 2 });
    let (last, progress) = got.split_last().expect("replies");
    let SimReply::SeedSweeps { seq: 7, shard: 0, sweeps } = last else {
        panic!("the last reply is the sweeps: {last:?}")
    };
    assert_eq!(sweeps.len(), 4, "shard 0 of 2 sweeps seeds 0 to 3 of 7");
    assert!(sweeps.iter().all(|s| s.seeds == 1 && s.points.len() == 4), "one uncombined sweep per seed");
    let dones: Vec<u32> = progress
        .iter()
        .map(|r| match r {
            SimReply::Progress { seq: 7, part: Part::Seeds(0), done, total } if done <= total => *done,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let total = last_total(progress);
    assert_eq!(dones.last(), Some(&total), "the last progress reaches the shard's total");
    assert!(dones.windows(2).all(|w| w[1] > w[0]), "progress only counts up: {dones:?}");
    assert!(
        dones.len() as u32 <= PROGRESS_POSTS_MAX + 1,
        "at most {PROGRESS_POSTS_MAX} posts and the last: {dones:?}"
    );
    assert!(dones.len() >= 2, "progress is posted while the shard runs: {dones:?}");
}

#[test]
fn progress_waits_for_the_workers_clock_but_always_reaches_the_total() {
    let plan = from_query("sim=1&requests=200&points=4&seeds=7").0.sim_plan();
    let job = Job::Seeds { seq: 7, plan, shard: 0, shards: 2 };
    let progress = |replies: Vec<SimReply>| -> Vec<u32> {
        replies
            .iter()
            .filter_map(|r| if let SimReply::Progress { done, .. } = r { Some(*done) } else { None })
            .collect()
    };
    let still = progress(replies_on(&job, || 0.0));
    let total = last_total(&replies(&job));
    assert_eq!(still, vec![total], "a clock that does not move: only the last progress is posted");
    let mut t = 0.0;
    let slow = progress(replies_on(&job, move || {
        t += PROGRESS_EVERY_MS / 2.0;
        t
    }));
    let fast = progress(replies(&job));
    assert!(slow.len() < fast.len(), "posts at most every {PROGRESS_EVERY_MS} ms: {slow:?} vs {fast:?}");
    assert!(slow.len() >= 2 && slow.last() == Some(&total), "still posts while it runs: {slow:?}");
}

#[test]
fn the_tail_parts_run_every_budget_once_in_order_and_the_split_once() {
    for query in ["sim=1&requests=100&seeds=1", "sim=1&requests=100&seeds=1&place=disagg"] {
        let plan = from_query(query).0.sim_plan();
        let split = query.contains("disagg");
        for parts in 1..=SHARDS_MAX {
            let got: Vec<SecondRoundPart> =
                (0..parts).map(|part| second_round(&plan, 2.0, part, parts, |_, _| {})).collect();
            let budgets: Vec<u32> =
                got.iter().flat_map(|t| t.chunks.iter().map(|c| c.chunk_tokens)).collect();
            assert_eq!(budgets, CHUNK_BUDGETS, "{query} over {parts} parts");
            let with_split = got.iter().filter(|t| t.placement.is_some()).count();
            assert_eq!(with_split, usize::from(split), "{query} over {parts} parts: the split's sweep once");
            if split && parts > 1 {
                assert!(got[0].chunks.is_empty(), "the split's sweep runs on a part of its own");
            }
            assert!(got.iter().all(|t| !t.chunks.is_empty() || t.placement.is_some()), "no idle part");
        }
        assert_eq!(second_round_parts_for(&plan, 2), 2);
        assert_eq!(second_round_parts_for(&plan, 0), 1, "at least one part");
        assert_eq!(usize::from(second_round_parts_for(&plan, 64)), usize::from(SHARDS_MAX));
    }
}

#[test]
fn the_seed_shards_and_the_tail_parts_assemble_to_exactly_the_single_thread_result() {
    let queries = [
        "sim=1&requests=300",
        "sim=1&requests=200&place=disagg&seeds=5",
        "sim=1&requests=200&load=closed&seeds=3",
        "sim=1&requests=200&arrivals=constant&lengths=fixed",
        "sim=1&requests=200&place=disagg&fleet=1&replicas=2&turns=2&think=1",
    ];
    for query in queries {
        let plan = from_query(query).0.sim_plan();
        let whole = compute(&plan, |_, _| {});
        for shards in 1..=SHARDS_MAX {
            for tails in 1..=SHARDS_MAX {
                let (parts, totals) = sharded(plan.clone(), shards, tails);
                let over = format!("{query} over {shards} shards and {tails} tail parts");
                assert_eq!(parts, whole, "{over}");
                assert_eq!(to_bytes(&parts), to_bytes(&whole), "{over}, as bytes");
                assert!(totals <= levels_total(&plan), "{over}: the parts' levels fit the request's total");
            }
        }
    }
}

#[test]
fn seed_shards_are_contiguous_blocks_covering_every_seed_once_in_order() {
    for seeds in 1..=9u32 {
        for shards in 1..=5u32 {
            let blocks: Vec<_> = (0..shards).map(|k| shard_seeds(seeds, k, shards)).collect();
            let all: Vec<usize> = blocks.iter().cloned().flatten().collect();
            assert_eq!(all, (0..seeds as usize).collect::<Vec<_>>(), "{seeds} seeds over {shards}");
            let sizes: Vec<usize> = blocks.iter().map(|b| b.len()).collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "{seeds} seeds over {shards}: balanced {sizes:?}");
            assert!(shard_seeds(seeds, shards, shards).is_empty(), "no shard past the last");
        }
    }
}

#[test]
fn a_request_is_split_over_min_of_workers_seeds_and_the_cap() {
    let seven = from_query("sim=1&seeds=7").0.sim_plan();
    assert_eq!(shards_for(&seven, 2), 2);
    assert_eq!(shards_for(&seven, 16), SHARDS_MAX);
    assert_eq!(shards_for(&seven, 0), 1, "at least one shard");
    let three = from_query("sim=1&seeds=3").0.sim_plan();
    assert_eq!(shards_for(&three, 8), 3);
    let drawless = from_query("sim=1&seeds=7&arrivals=constant&lengths=fixed").0.sim_plan();
    assert_eq!(shards_for(&drawless, 8), 1, "nothing drawn: one seed, one shard");
}

#[test]
fn replies_round_trip_and_garbage_decodes_to_none() {
    let plan = from_query("sim=1&requests=200&points=4&seeds=2").0.sim_plan();
    let mut all = replies(&Job::Seeds { seq: 3, plan: plan.clone(), shard: 0, shards: 1 });
    all.extend(replies(&Job::SecondRound {
        seq: 3,
        plan: plan.clone(),
        chunk_level: 1.0,
        part: 0,
        parts: 1,
    }));
    assert!(all.iter().any(|r| matches!(r, SimReply::SecondRound { .. })));
    for reply in all {
        assert_eq!(reply.seq(), 3);
        assert_eq!(decode(&encode(&reply)), Some(reply));
    }
    assert_eq!(decode(&[0xff, 0xff, 0xff]), None);
    assert_eq!(decode(&[]), None);
}

#[test]
fn bigger_step_budgets_trade_ttft_for_tpot_in_the_page_comparison() {
    let plan = from_query("sim=1&requests=1000").0.sim_plan();
    let r = compute(&plan, |_, _| {});
    assert_eq!(r.chunks.iter().map(|c| c.chunk_tokens).collect::<Vec<_>>(), CHUNK_BUDGETS);
    let at = |budget: u32| r.chunks.iter().find(|c| c.chunk_tokens == budget).expect("budget run").point;
    let (small, big) = (at(256), at(4096));
    assert!(
        small.ttft.p90_s.unwrap() > big.ttft.p90_s.unwrap(),
        "small budgets wait longer for the first token"
    );
    assert!(small.tpot.p90_s.unwrap() < big.tpot.p90_s.unwrap(), "big budgets stretch every decode step");
    let expected = r.sweep.goodput_req_per_s / 2.0;
    assert!((r.chunk_level - expected).abs() < 1e-9, "the comparison runs at half the goodput rate");
    assert!(r.requests_simulated > r.sweep.requests_simulated, "the comparison's requests are counted");
}
