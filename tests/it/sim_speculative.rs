//! The simulator with speculative decoding: the same step cost as the analytic view, accepted tokens
//! drawn at random (seeded) with mean E per sequence per step, and the pool never exceeded.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::presets::model_by_id;
use goodput_lab::core::roofline::{expected_tokens_per_step, step_time};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    kv_pool_tokens, requests, run, Arrivals, LengthDist, Lengths, Load, ReplicaConfig, StepCost, StepWork,
};
use goodput_lab::core::spec::{Drafter, Speculation};

fn drafted(k: u32, alpha: f64) -> Scenario {
    let draft = *model_by_id("llama-3.2-1b").expect("preset");
    Scenario {
        speculation: Speculation { drafter: Drafter::Model(draft), draft_tokens: k, acceptance: alpha },
        ..worked_example()
    }
}

fn server(s: &Scenario) -> ReplicaConfig {
    ReplicaConfig {
        chunk_tokens: 2048,
        max_concurrency: 64,
        kv_pool_tokens: kv_pool_tokens(s),
        prefill_free: false,
        tpot_target_s: s.tpot_target_s,
    }
}

#[test]
fn the_simulators_decode_step_is_the_analytic_draft_plus_verify() {
    for s in [
        drafted(4, 0.7),
        Scenario {
            speculation: Speculation {
                drafter: Drafter::Head { layer_cost_fraction: 0.5 },
                ..drafted(3, 0.8).speculation
            },
            ..worked_example()
        },
    ] {
        for b in [1_u32, 32, 100] {
            let work = StepWork { decode_tokens: b, kv_tokens: f64::from(b) * 2048.0, ..StepWork::default() };
            let spec = step_time(&s, b).speculative.expect("on");
            assert_close(StepCost::new(&s).step_s(&work), spec.step_s(), 1e-12, &format!("step at {b}"));
        }
    }
}

#[test]
fn mean_tokens_kept_per_sequence_per_step_is_e_on_a_long_run() {
    let lengths = Lengths { dist: LengthDist::Fixed, length_cv: 0.0 };
    for (k, alpha) in [(4, 0.7), (2, 0.5), (8, 0.9)] {
        let s = drafted(k, alpha);
        let reqs = requests(Arrivals::Poisson, lengths, (2048.0, 1024.0), 2000, 20.0, 11);
        let t = run(&reqs, server(&s), StepCost::new(&s).seeded(5), Load::Open);
        let mean = t.decode_tokens as f64 / t.decode_seq_steps as f64;
        // A sequence's last step keeps at most what it has left, so the mean sits a little under E.
        assert_close(mean, expected_tokens_per_step(k, alpha), 0.02, &format!("k={k}, alpha={alpha}"));
        assert!(t.kv_tokens_peak <= server(&s).kv_pool_tokens, "pool never exceeded");
        assert!(t.tpot_s.iter().all(|x| x.is_finite()), "every request served");
        let expected_tokens = reqs.iter().map(|r| f64::from(r.output_tokens - 1)).sum::<f64>();
        assert_close(t.decode_tokens as f64, expected_tokens, 1e-6, "every decode token counted once");
    }
}

#[test]
fn the_draws_are_seeded_and_speculation_shortens_tpot() {
    let s = drafted(4, 0.7);
    let lengths = Lengths { dist: LengthDist::Fixed, length_cv: 0.0 };
    let reqs = requests(Arrivals::Poisson, lengths, (2048.0, 256.0), 500, 10.0, 3);
    let a = run(&reqs, server(&s), StepCost::new(&s).seeded(1), Load::Open);
    let b = run(&reqs, server(&s), StepCost::new(&s).seeded(1), Load::Open);
    assert_eq!(a, b, "same seed, same run");
    let c = run(&reqs, server(&s), StepCost::new(&s).seeded(2), Load::Open);
    assert_ne!(a.tpot_s, c.tpot_s, "another seed draws other acceptances");
    let plain = worked_example();
    let p = run(&reqs, server(&plain), StepCost::new(&plain), Load::Open);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(mean(&a.tpot_s) < 0.8 * mean(&p.tpot_s), "{} vs {}", mean(&a.tpot_s), mean(&p.tpot_s));
}
