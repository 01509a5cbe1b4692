//! The open-loop simulator: deterministic, conserves Little's law, reproduces the analytic knee in
//! its idealized limit, and shows the worked example's lessons (queues, chunk budgets, counting mistakes).

use crate::common::{assert_close, worked_example};
use goodput_lab::core::goodput::evaluate;
use goodput_lab::core::presets::{GPUS, MODELS};
use goodput_lab::core::roofline::{analyze, step_time};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    chunk_tradeoff, kv_pool_tokens, run, simulate, sweep, Arrivals, Counting, GoodputBound, LengthDist,
    Lengths, Load, LoadMode, ReplicaConfig, Request, SimConfig, StepCost, StepWork,
};
use goodput_lab::state::sim::SimInputs;
use goodput_lab::state::Inputs;

/// The page's default sweep on scenario `s`, one seed: these claims are about one run per rate
/// (seeds combined are `tests/it/sim_steady.rs`'s).
fn config(s: Scenario) -> SimConfig {
    SimConfig { seeds: 1, ..SimInputs::default().config(&s) }
}

/// The idealized limit: constant arrivals, fixed lengths, prefill free, no concurrency cap.
fn idealized(s: Scenario) -> SimConfig {
    SimConfig {
        arrivals: Arrivals::Constant,
        lengths: Lengths { dist: LengthDist::Fixed, length_cv: 0.0 },
        prefill_free: true,
        max_concurrency: 1 << 20,
        ..config(s)
    }
}

fn with_context(context_tokens: u32) -> Scenario {
    Scenario { context_tokens, ..worked_example() }
}

#[test]
fn the_same_seed_gives_the_same_sweep_and_another_seed_another() {
    let c = config(worked_example());
    assert_eq!(sweep(&c), sweep(&c));
    let other = sweep(&SimConfig { seed: 2, ..c.clone() });
    assert_ne!(other.points, sweep(&c).points, "a different seed draws different requests");
}

#[test]
fn littles_law_holds_within_two_percent() {
    let s = worked_example();
    let cases = [
        (config(s), 20.0),
        (config(s), 35.0),
        (SimConfig { arrivals: Arrivals::Bursty { cv: 3.0 }, ..config(s) }, 15.0),
        (SimConfig { max_concurrency: 1 << 20, ..config(s) }, 40.0),
        (SimConfig { load: LoadMode::Closed, ..config(s) }, 48.0),
    ];
    for (c, level) in cases {
        let p = simulate(&c, level);
        let little = p.departure_rate_req_per_s * p.mean_latency_s;
        assert_close(p.mean_in_system, little, 0.02, "L = lambda x W");
        assert!(p.mean_in_system > 1.0, "the run is loaded: L = {}", p.mean_in_system);
    }
}

#[test]
fn idealized_limit_matches_the_analytic_knee_and_goodput() {
    let mut fp8 = worked_example();
    fp8.kv_precision = goodput_lab::core::roofline::Precision::Fp8;
    for s in [worked_example(), with_context(8192), fp8] {
        let a = analyze(&s);
        let analytic = evaluate(&s, a.knee_batch).goodput_req_per_s;
        let sw = sweep(&idealized(s));
        assert_eq!(sw.bound, GoodputBound::Exact);
        assert_close(sw.goodput_req_per_s, analytic, 0.02, "idealized goodput");
        let at = sw.at_goodput.expect("a rate met the target");
        // The steady batch at goodput: rate x decode steps per request x TPOT (Little's law).
        let batch = at.rate_req_per_s * f64::from(s.output_tokens - 1) * at.tpot.p50_s.unwrap();
        assert!(
            (batch - f64::from(a.knee_batch)).abs() <= 1.0,
            "sim knee {batch} vs analytic {}",
            a.knee_batch
        );
    }
}

#[test]
fn attainment_does_not_rise_with_rate() {
    let c = SimConfig { requests: 20_000, max_concurrency: 1 << 20, ..config(worked_example()) };
    let sw = sweep(&c);
    for pair in sw.points.windows(2) {
        let (a, b) = (pair[0].requests.both, pair[1].requests.both);
        assert!(
            b <= a + 0.005,
            "attainment rose from {a} at {} to {b} at {} req/s",
            pair[0].rate_req_per_s,
            pair[1].rate_req_per_s
        );
    }
    assert!(sw.points.first().unwrap().requests.both > 0.99 && sw.points.last().unwrap().requests.both < 0.5);
}

#[test]
fn a_long_context_mix_shifts_the_knee_as_the_roofline_predicts() {
    let (short, long) = (with_context(2048), with_context(8192));
    let analytic_ratio = evaluate(&long, analyze(&long).knee_batch).goodput_req_per_s
        / evaluate(&short, analyze(&short).knee_batch).goodput_req_per_s;
    // Idealized: the sim follows the roofline's factor (about 1/4) to within 2%.
    let ideal_ratio = sweep(&idealized(long)).goodput_req_per_s / sweep(&idealized(short)).goodput_req_per_s;
    assert_close(ideal_ratio, analytic_ratio, 0.02, "idealized long/short goodput");
    // A realistic log-normal mix with chunked prefill falls the same way, at least as far.
    let uncapped = |s| SimConfig { max_concurrency: 1 << 20, ..config(s) };
    let mix_ratio = sweep(&uncapped(long)).goodput_req_per_s / sweep(&uncapped(short)).goodput_req_per_s;
    assert!(
        mix_ratio < 1.1 * analytic_ratio && mix_ratio > 0.4 * analytic_ratio,
        "mix {mix_ratio} vs roofline {analytic_ratio}"
    );
}

#[test]
fn one_step_model_the_sim_step_equals_the_analytic_step_for_every_preset() {
    for &model in MODELS.iter() {
        for &gpu in GPUS.iter() {
            let s = Scenario { model, gpu, ..worked_example() };
            let cost = StepCost::new(&s);
            for b in [1_u32, 7, 64, 300] {
                let work = StepWork {
                    decode_tokens: b,
                    kv_tokens: f64::from(b) * f64::from(s.context_tokens),
                    ..StepWork::default()
                };
                assert_close(cost.step_s(&work), step_time(&s, b).step_s, 1e-12, model.id);
            }
        }
    }
}

#[test]
fn at_low_load_ttft_is_the_analytic_prefill() {
    let s = worked_example();
    let c = SimConfig {
        chunk_tokens: 8192,
        lengths: Lengths { dist: LengthDist::Fixed, length_cv: 0.0 },
        ..config(s)
    };
    let p = simulate(&c, 0.01);
    // The worked example's prompt: 2,048 of context less 256 / 2.
    assert_close(
        p.ttft.p50_s.unwrap(),
        goodput_lab::core::prefill::prefill_of(&s, 2048 - 128, 0).prefill_s,
        0.01,
        "TTFT alone",
    );
}

#[test]
fn the_kv_pool_is_never_exceeded_and_preemption_lets_every_request_finish() {
    let s = Scenario { context_tokens: 16_384, ..worked_example() };
    let c = SimConfig { max_concurrency: 1 << 20, requests: 500, ..config(s) };
    let reqs: Vec<Request> =
        goodput_lab::core::sim::requests(c.arrivals, c.lengths, (16_000.0, 1024.0), 500, 20.0, 3);
    let server = ReplicaConfig {
        chunk_tokens: 2048,
        max_concurrency: 1 << 20,
        kv_pool_tokens: kv_pool_tokens(&s),
        prefill_free: false,
        tpot_target_s: 0.01,
    };
    let t = run(&reqs, server, StepCost::new(&s), Load::Open);
    assert!(t.kv_tokens_peak <= server.kv_pool_tokens, "{} > {}", t.kv_tokens_peak, server.kv_pool_tokens);
    assert!(t.preemptions > 0, "a full pool preempts");
    assert!(t.ttft_s.iter().all(|x| x.is_finite()) && t.tpot_s.iter().all(|x| x.is_finite()), "all served");
}

#[test]
fn closed_loop_never_builds_a_queue_so_ttft_misses_vanish() {
    let s = worked_example();
    let closed = sweep(&SimConfig { load: LoadMode::Closed, ..config(s) });
    // Clients wait for their answers, so no queue forms in front of the server: at every client
    // count up to the cap TTFT misses all but vanish (a few long prompts wait for step budget).
    for p in &closed.points {
        assert!(p.requests.ttft >= 0.99, "{} clients: TTFT attainment {}", p.concurrency, p.requests.ttft);
    }
    let open = sweep(&config(s));
    assert!(open.points.iter().any(|p| p.requests.ttft < 0.5), "open loop past capacity: TTFT misses");
}

#[test]
fn counting_tokens_hides_the_requests_that_missed() {
    // A 256-token step budget keeps every step's GEMMs memory-bound (below H100's ~295-token ridge),
    // so steps stay near 10 ms and only the queue (TTFT) misses; at 512 a prompt chunk makes the
    // GEMMs compute-bound, its steps miss TPOT, and tokens miss as well as requests.
    let s = worked_example();
    let c = SimConfig { chunk_tokens: 256, ..config(s) };
    let overloaded = simulate(&c, 1.5 * analyze(&s).knee_batch as f64 / (256.0 * 0.00992));
    assert!(overloaded.requests.both < 0.5, "most requests miss: {}", overloaded.requests.both);
    assert!(overloaded.tokens.both > 0.9, "yet most tokens were on time: {}", overloaded.tokens.both);
    let by_tokens = sweep(&SimConfig { counting: Counting::Tokens, ..c.clone() }).goodput_req_per_s;
    assert!(by_tokens > 1.2 * sweep(&c).goodput_req_per_s, "token counting overstates goodput");
}

#[test]
fn bigger_chunks_prefill_faster_but_stretch_the_decode_steps() {
    let s = worked_example();
    let c = config(s);
    let points = chunk_tradeoff(&c, 12.0, &[256, 2048]);
    let (small, big) = (points[0].point, points[1].point);
    assert!(
        big.ttft.p50_s.unwrap() < small.ttft.p50_s.unwrap(),
        "a big chunk prefills a prompt in fewer steps"
    );
    assert!(
        big.tpot.p90_s.unwrap() > small.tpot.p90_s.unwrap(),
        "and its steps are longer for decoding users"
    );
}

#[test]
fn extremes_never_panic_and_never_produce_nan() {
    let mut tiny_gpu = GPUS[0];
    tiny_gpu.hbm_bytes = 1e9;
    let cases = [
        config(Scenario { gpu: tiny_gpu, ..worked_example() }),
        config(Scenario { context_tokens: 1_048_576, ..worked_example() }),
        config(Scenario { output_tokens: 1, ..worked_example() }),
        SimConfig { requests: 1, rate_points: 2, ..config(worked_example()) },
        SimConfig { chunk_tokens: 1, max_concurrency: 1, ..config(worked_example()) },
        SimConfig { rate_max_req_per_s: 1e6, ..config(worked_example()) },
        SimConfig { rate_max_req_per_s: 1e-9, ..config(worked_example()) },
        SimConfig {
            arrivals: Arrivals::Bursty { cv: 10.0 },
            lengths: Lengths { dist: LengthDist::LogNormal, length_cv: 2.0 },
            ..config(worked_example())
        },
    ];
    for c in cases {
        let sw = sweep(&c);
        assert!(sw.goodput_req_per_s.is_finite());
        for p in &sw.points {
            let all = [
                p.rate_req_per_s,
                p.requests.both,
                p.tokens.both,
                p.throughput_tokens_per_s,
                p.batch_mean,
                p.mean_in_system,
                p.mean_latency_s,
            ];
            assert!(all.iter().all(|x| x.is_finite()), "{p:?}");
            let pcts = [p.ttft.p50_s, p.ttft.p90_s, p.tpot.p50_s, p.tpot.p99_s];
            assert!(pcts.iter().flatten().all(|x| x.is_finite()));
        }
    }
    assert_eq!(Inputs::default().sim.requests, 2000);
}

#[test]
fn percentiles_are_the_nearest_ranks_of_the_sorted_values_whatever_their_signs() {
    let mut rng = goodput_lab::core::sim::Rng::new(11);
    for n in [1_usize, 2, 7, 100, 1001] {
        let mut values: Vec<f64> = (0..n).map(|_| 200.0 * rng.unit() - 50.0).collect();
        values[0] = -0.0;
        if n > 3 {
            values[1] = f64::NAN;
            values[2] = f64::NEG_INFINITY;
        }
        let mut sorted: Vec<f64> =
            values.iter().map(|x| if x.is_nan() { f64::INFINITY } else { *x }).collect();
        sorted.sort_by(f64::total_cmp);
        let rank = |q: f64| sorted[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
        let p = goodput_lab::core::sim::percentiles(&values);
        for (got, q) in [(p.p50_s, 0.5), (p.p90_s, 0.9), (p.p99_s, 0.99)] {
            let want = rank(q);
            assert_eq!(got.map(f64::to_bits), want.is_finite().then_some(want.to_bits()), "n = {n}, q = {q}");
        }
    }
}
