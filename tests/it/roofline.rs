//! The roofline core reproduces the worked example and keeps its invariants everywhere.

use crate::common::{assert_close, assert_prints_as, worked_example, worked_example_fp8_kv};
use goodput_lab::core::goodput::{evaluate, BatchPoint};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::prefill::prefill_time;
use goodput_lab::core::roofline::{
    analyze, effective_bandwidth_bytes_per_s, knee_batch, kv_bytes_per_seq, kv_bytes_per_token,
    kv_pool_batch, step_sum_s, step_time, weight_bytes, Bound, CustomCalibration, Limit, Precision,
};
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::table::batch_table;

/// The worked example's table: batch, step time (ms), tokens/s, meets 10 ms, goodput (req/s).
const WORKED_EXAMPLE_TABLE: [(u32, f64, f64, bool, f64); 5] = [
    (16, 6.08, 2633.0, true, 10.3),
    (32, 7.36, 4349.0, true, 17.0),
    (64, 9.92, 6450.0, true, 25.2),
    (96, 12.49, 7688.0, false, 0.0),
    (128, 15.05, 8505.0, false, 0.0),
];

#[test]
fn worked_example_sizes_match_the_reference() {
    let s = worked_example();
    assert_close(weight_bytes(&s), 16.06e9, 1e-9, "weights");
    assert_eq!(kv_bytes_per_token(&s), 128.0 * 1024.0, "KV per token is 128 KiB");
    assert_close(kv_bytes_per_seq(&s), 268e6, 2e-3, "KV per sequence ~268 MB");
}

#[test]
fn worked_example_table_rows_match_to_the_printed_digit() {
    let s = worked_example();
    for (batch, step_ms, tokens, meets, goodput) in WORKED_EXAMPLE_TABLE {
        let p = evaluate(&s, batch);
        assert_prints_as(p.step.step_s * 1e3, step_ms, 2, &format!("step time at {batch}"));
        assert_prints_as(p.tokens_per_s, tokens, 0, &format!("tokens/s at {batch}"));
        assert_eq!(p.meets_tpot, meets, "meets 10 ms at {batch}");
        if meets {
            assert_prints_as(p.goodput_req_per_s, goodput, 1, &format!("goodput at {batch}"));
        } else {
            assert_eq!(p.goodput_req_per_s, 0.0, "goodput at {batch}");
        }
    }
}

#[test]
fn throughput_rises_32_percent_from_64_to_128() {
    let s = worked_example();
    let gain = evaluate(&s, 128).tokens_per_s / evaluate(&s, 64).tokens_per_s - 1.0;
    assert_close(gain, 0.32, 0.02, "throughput gain 64 -> 128");
}

#[test]
fn knee_at_10_ms_is_64() {
    let a = analyze(&worked_example());
    assert_close(a.knee_exact, 64.97, 1e-3, "closed-form knee");
    assert_eq!(a.knee_batch, 64);
    assert_eq!(a.limit, Limit::Tpot);
}

#[test]
fn fp8_kv_knee_is_129_because_130_takes_10_002_ms() {
    let s = worked_example_fp8_kv();
    let a = analyze(&s);
    assert_close(a.knee_exact, 129.94, 1e-3, "closed-form FP8 knee");
    assert_eq!(a.knee_batch, 129);
    assert_close(step_time(&s, 130).step_s * 1e3, 10.002, 1e-4, "step at 130");
    assert!(step_time(&s, 129).step_s <= s.tpot_target_s);
}

#[test]
fn decode_is_memory_bound_at_batch_128_with_a_2_08_ms_compute_term() {
    let t = step_time(&worked_example(), 128);
    assert_close(t.compute_s * 1e3, 2.08, 2e-3, "compute term at 128");
    assert_eq!(t.bound, Bound::Memory);
}

#[test]
fn kv_pool_at_90_percent_holds_208_sequences() {
    assert_eq!(kv_pool_batch(&worked_example()), 208);
}

/// Past ~295 sequences the GEMMs are compute-bound (2 x 8.03e9 x B / 989e12 > 16.06 GB / 3.35 TB/s)
/// while the attention still reads every sequence's KV, so the groups add: step(B) = B x (16.24 µs
/// + 80.13 µs) = 50 ms at B = 518.8 (the single max(memory, compute) put it at 564).
#[test]
fn at_a_50_ms_target_the_knee_is_518_and_the_kv_pool_binds() {
    let s = Scenario { tpot_target_s: 0.050, ..worked_example() };
    let a = analyze(&s);
    let per_seq_s = 2.0 * 8.03e9 / 989e12 + 2048.0 * 131_072.0 / 3.35e12;
    assert_close(a.knee_exact, 0.05 / per_seq_s, 1e-9, "GEMM compute + KV read per sequence");
    assert_eq!(a.knee_batch, 518);
    assert_eq!(a.kv_pool_batch, 208);
    assert_eq!(a.server_batch, 208);
    assert_eq!(a.limit, Limit::KvPool);
}

#[test]
fn a_target_below_the_weights_only_floor_reports_the_floor() {
    let s = Scenario { tpot_target_s: 0.004, ..worked_example() };
    let a = analyze(&s);
    assert_eq!(a.knee_batch, 0);
    match a.limit {
        Limit::TargetBelowFloor { floor_s } => assert_close(floor_s * 1e3, 4.874, 1e-3, "floor at batch 1"),
        other => panic!("expected TargetBelowFloor, got {other:?}"),
    }
}

#[test]
fn weights_that_do_not_fit_are_reported_not_computed_into_nonsense() {
    let mut s = worked_example();
    s.gpu.hbm_bytes = 16e9;
    let a = analyze(&s);
    assert_eq!(a.kv_pool_batch, 0);
    assert!(matches!(a.limit, Limit::WeightsDoNotFit { .. }), "{:?}", a.limit);
}

#[test]
fn a_context_too_long_for_one_sequence_is_reported() {
    let s = Scenario { context_tokens: 10_000_000, ..worked_example() };
    let a = analyze(&s);
    assert_eq!(a.kv_pool_batch, 0);
    assert!(matches!(a.limit, Limit::ContextDoesNotFit { .. }), "{:?}", a.limit);
}

/// A spread of scenarios for the property tests.
fn grid() -> Vec<Scenario> {
    let mut out = Vec::new();
    for ctx in [128, 1000, 2048, 8192, 32_768, 131_072] {
        for kv in Precision::KV {
            for target_ms in [1.0, 4.9, 5.0, 10.0, 33.3, 50.0, 200.0] {
                for output in [1, 256, 4096] {
                    let tpot_target_s = target_ms * 1e-3;
                    out.push(Scenario {
                        context_tokens: ctx,
                        kv_precision: kv,
                        tpot_target_s,
                        output_tokens: output,
                        ..worked_example()
                    });
                }
            }
        }
    }
    out
}

#[test]
fn step_time_never_falls_as_batch_grows() {
    for s in grid() {
        let mut last = 0.0;
        for b in 0..=1024 {
            let t = step_time(&s, b).step_s;
            assert!(t >= last, "step fell at batch {b} in {s:?}");
            last = t;
        }
    }
}

#[test]
fn goodput_is_throughput_up_to_the_knee_and_zero_past_it() {
    for s in grid() {
        let knee = knee_batch(&s);
        for b in 1..=(knee + 64).min(4096) {
            let p = evaluate(&s, b);
            assert!(p.goodput_req_per_s <= p.throughput_req_per_s);
            assert!(p.throughput_req_per_s.is_finite() && p.tokens_per_s.is_finite());
            if b <= knee {
                assert_eq!(p.goodput_req_per_s, p.throughput_req_per_s, "batch {b} <= knee {knee}");
                assert!(p.meets_tpot);
            } else {
                assert_eq!(p.goodput_req_per_s, 0.0, "batch {b} > knee {knee}");
            }
        }
    }
}

#[test]
fn knee_agrees_with_the_table() {
    let meets_both = |p: &BatchPoint| p.meets_tpot && p.meets_ttft;
    for s in grid() {
        let a = analyze(&s);
        for row in batch_table(&s, &a) {
            let b = row.point.batch;
            assert_eq!(meets_both(&row.point), b <= a.knee_batch, "batch {b}, knee {}", a.knee_batch);
            // The table marks the knee a server reaches: the TPOT knee within the KV pool.
            assert_eq!(row.is_knee, b == a.knee_batch.min(a.kv_pool_batch));
        }
        if a.knee_batch > 0 {
            assert!(meets_both(&evaluate(&s, a.knee_batch)));
        }
        assert!(!meets_both(&evaluate(&s, a.knee_batch + 1)));
    }
}

#[test]
fn the_core_stays_finite_whatever_the_numbers() {
    let mut odd = worked_example();
    for (params, bw, flops, hbm) in
        [(0.0, 0.0, 0.0, 0.0), (f64::NAN, 1.0, f64::INFINITY, -5.0), (1e30, 1e-30, 1e-30, 1e30)]
    {
        odd.model.params = params;
        odd.gpu.hbm_bandwidth_bytes_per_s = bw;
        odd.gpu.bf16_flop_per_s = flops;
        odd.gpu.hbm_bytes = hbm;
        let a = analyze(&odd);
        for row in batch_table(&odd, &a) {
            assert!(row.point.tokens_per_s.is_finite() && row.point.goodput_req_per_s.is_finite());
        }
    }
}

#[test]
fn decode_and_prefill_read_at_peak_bandwidth_times_mbu_and_add_their_terms_one_way() {
    let calibration = CustomCalibration { mbu: 0.5, step_overhead_s: 2e-3 };
    let scenario =
        Scenario { parallel: Parallelism::tp(2), calibration: calibration.into(), ..worked_example() };
    assert_eq!(effective_bandwidth_bytes_per_s(&scenario), 3.35e12 * 0.5);
    let step = step_time(&scenario, 64);
    let bytes = step.weight_read_bytes + step.kv_read_bytes;
    assert_eq!(step.memory_s, bytes / effective_bandwidth_bytes_per_s(&scenario));
    assert_eq!(step.step_s, step_sum_s(step.memory_s, step.compute_s, step.allreduce_s, 2e-3));
    assert_eq!(step_sum_s(1.0, 3.0, 0.5, 0.25), 3.75, "the larger of memory and compute, plus the rest");
    let prefill = prefill_time(&scenario);
    assert_eq!(prefill.prefill_s, step_sum_s(prefill.memory_s, prefill.compute_s, prefill.allreduce_s, 2e-3));
}
