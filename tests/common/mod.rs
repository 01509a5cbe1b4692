//! Helpers shared by the native tests: the worked example scenario and a relative-tolerance comparison.
#![allow(dead_code)]

use goodput_lab::core::roofline::{Precision, Scenario};
use goodput_lab::state::Inputs;

/// The worked example: Llama 3.1 8B, BF16, one H100 SXM, 2,048 tokens, 10 ms TPOT, 256 out.
pub fn worked_example() -> Scenario {
    Inputs::default().scenario
}

/// The worked example with an FP8 KV cache.
pub fn worked_example_fp8_kv() -> Scenario {
    Scenario { kv_precision: Precision::Fp8, ..worked_example() }
}

/// Fails unless `actual` is within `rel` of `expected`, relative to `expected`.
#[track_caller]
pub fn assert_close(actual: f64, expected: f64, rel: f64, what: &str) {
    let err = ((actual - expected) / expected).abs();
    assert!(err <= rel, "{what}: got {actual}, expected {expected} (relative error {err:.2e} > {rel:.0e})");
}

/// Fails unless `actual` rounds to `expected` at `decimals` places: within half a unit of the last
/// printed digit (a relative tolerance of 0.5 x 10^-decimals / expected).
#[track_caller]
pub fn assert_prints_as(actual: f64, expected: f64, decimals: i32, what: &str) {
    let rel = 0.5 * 10f64.powi(-decimals) / expected.abs() * (1.0 + 1e-9);
    assert_close(actual, expected, rel, what);
}
