//! Steps as lines in the KV they read: the engine prices its steps on `StepCost::decode_line` and
//! `StepLines` (the per-operator step as a sum of its parts), so those must be the per-operator step
//! (`StepCost::step_s`) at every held KV, for every preset and drafter, and a run of decode-only
//! steps must time a request as stepping the per-operator step one step at a time does.

use crate::common::{assert_close, worked_example};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::presets::{gpu_by_id, model_by_id, MODELS};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{run, Load, ReplicaConfig, Request, StepCost, StepLines, StepWork};
use goodput_lab::core::spec::{Drafter, Speculation};

fn drafters() -> [Speculation; 3] {
    let draft = *model_by_id("llama-3.2-1b").unwrap();
    [
        Speculation::OFF,
        Speculation { drafter: Drafter::Model(draft), draft_tokens: 4, acceptance: 0.7 },
        Speculation { drafter: Drafter::Head { layer_cost_fraction: 0.5 }, draft_tokens: 3, acceptance: 0.6 },
    ]
}

#[test]
fn a_decode_step_is_a_line_in_held_kv_for_every_preset_and_drafter() {
    for model in MODELS.iter() {
        for (gpu, tp) in [("h100-sxm", 1), ("h200-sxm", 8), ("l4", 1)] {
            for speculation in drafters() {
                let s = Scenario {
                    model: *model,
                    gpu: *gpu_by_id(gpu).unwrap(),
                    parallel: Parallelism::tp(tp),
                    speculation,
                    ..worked_example()
                };
                let cost = StepCost::new(&s);
                for decode_tokens in [1, 7, 64, 500] {
                    let (intercept_s, slope_s) = cost.decode_line(decode_tokens);
                    for kv in [0.0, 1.0, 3000.0, 131_072.0, 2.5e6] {
                        let kv_tokens = kv * f64::from(decode_tokens);
                        let stepped =
                            cost.step_s(&StepWork { decode_tokens, kv_tokens, ..StepWork::default() });
                        let what = format!(
                            "{} on {gpu} x{tp}, {speculation:?}, {decode_tokens} decodes at {kv_tokens} KV",
                            model.id
                        );
                        assert_close(intercept_s + slope_s * kv_tokens, stepped, 1e-11, &what);
                    }
                }
            }
        }
    }
}

/// One request alone, its prompt free (its first token on arrival): each of its output - 1 decode
/// steps reads the prompt plus the tokens decoded before it.
fn lone_request(s: &Scenario, output_tokens: u32, tpot_target_s: f64) -> (f64, u64, u64) {
    let prompt_tokens = 1500;
    let reqs = [Request { arrival_s: 0.25, prompt_tokens, output_tokens, cached_tokens: 0 }];
    let server = ReplicaConfig {
        chunk_tokens: 2048,
        max_concurrency: 8,
        kv_pool_tokens: 1e9,
        prefill_free: true,
        tpot_target_s,
    };
    let t = run(&reqs, server, StepCost::new(s), Load::Open);
    (t.tpot_s[0], t.decode_tokens, t.decode_tokens_on_time)
}

#[test]
fn a_lone_decode_is_timed_as_stepping_each_step_on_the_per_operator_step() {
    let s = worked_example();
    let cost = StepCost::new(&s);
    let output_tokens = 4000;
    let steps: Vec<f64> = (0..output_tokens - 1)
        .map(|j| {
            cost.step_s(&StepWork { decode_tokens: 1, kv_tokens: f64::from(1500 + j), ..StepWork::default() })
        })
        .collect();
    let tpot_s = steps.iter().sum::<f64>() / f64::from(output_tokens - 1);
    // A target between the first and the last step's time: only the earlier steps are on time.
    let target_s = 0.5 * (steps[0] + steps[steps.len() - 1]);
    let on_time = steps.iter().filter(|&&dt| dt <= target_s).count() as u64;
    assert!(on_time > 0 && on_time < steps.len() as u64, "the target splits the steps");
    let (sim_tpot_s, tokens, tokens_on_time) = lone_request(&s, output_tokens, target_s);
    assert_close(sim_tpot_s, tpot_s, 1e-12, "mean TPOT of the lone request");
    assert_eq!(tokens, u64::from(output_tokens - 1), "one token per decode step");
    assert!(tokens_on_time.abs_diff(on_time) <= 1, "on time: simulated {tokens_on_time}, stepped {on_time}");
}

#[test]
fn a_mixed_step_is_its_line_plus_the_prompt_attention_for_every_preset() {
    for model in MODELS.iter() {
        for (gpu, tp) in [("h100-sxm", 1), ("h200-sxm", 8), ("l4", 1)] {
            let s = Scenario {
                model: *model,
                gpu: *gpu_by_id(gpu).unwrap(),
                parallel: Parallelism::tp(tp),
                ..worked_example()
            };
            let cost = StepCost::new(&s);
            let mut lines = StepLines::new(&cost).expect("lines without speculation");
            for (decode_tokens, prefill_tokens, done) in
                [(0, 512, 0), (63, 449, 1024), (1, 8191, 0), (255, 1, 30_000), (500, 0, 0)]
            {
                let work = StepWork {
                    decode_tokens,
                    prefill_tokens,
                    prefill_attention_flop: cost.chunk_attention_flop(done, prefill_tokens),
                    kv_tokens: 2000.0 * f64::from(decode_tokens),
                    prefill_kv_tokens: f64::from(done),
                };
                let what = format!("{} on {gpu} x{tp}: {work:?}", model.id);
                assert_close(lines.step_s(&cost, &work), cost.step_s(&work), 1e-11, &what);
            }
        }
    }
    for speculation in &drafters()[1..] {
        let cost = StepCost::new(&Scenario { speculation: *speculation, ..worked_example() });
        assert!(
            StepLines::new(&cost).is_none(),
            "no lines with {speculation:?}: the drafter's time is not a function of T"
        );
    }
}
