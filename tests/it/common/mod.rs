//! Helpers shared by the native tests: the worked example scenario, its published numbers for
//! arithmetic written out in a test, a relative-tolerance comparison, and the source files under a
//! folder (for the tests that read the code).
#![allow(dead_code)]

use goodput_lab::core::roofline::Precision;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::state::Inputs;

/// The worked example: Llama 3.1 8B, BF16, one H100 SXM, 2,048 tokens, 10 ms TPOT, 256 out.
pub fn worked_example() -> Scenario {
    Inputs::default().scenario
}

/// The worked example with an FP8 KV cache.
pub fn worked_example_fp8_kv() -> Scenario {
    Scenario { kv_precision: Precision::Fp8, ..worked_example() }
}

/// The worked example's published numbers, for arithmetic a test writes out by hand: Llama 3.1 8B
/// (8.03e9 params, 32 layers, 32 query heads of 128 dims, 8 KV heads, BF16) on one H100 SXM
/// (3.35 TB/s, 989 TFLOP/s BF16 dense).
pub mod llama_8b {
    pub const PARAMS: f64 = 8.03e9;
    pub const LAYERS: f64 = 32.0;
    /// KV per token: 2 (K and V) x 32 layers x 8 KV heads x 128 dims x 2 B.
    pub const KV_BYTES_PER_TOKEN: f64 = 2.0 * 32.0 * 8.0 * 128.0 * 2.0;
    /// Scores and weighted sum per query-key pair in one layer: 32 heads x 2 x (128 + 128) FLOP.
    pub const FLOP_PER_PAIR_LAYER: f64 = 32.0 * 2.0 * 256.0;
    /// H100 SXM's HBM bandwidth, in B/s.
    pub const BANDWIDTH: f64 = 3.35e12;
    /// H100 SXM's dense BF16 peak, in FLOP/s.
    pub const BF16_PEAK: f64 = 989e12;
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

/// The standard normal's 0.9 quantile: p90 of a normal is its mean plus this many deviations.
pub const Z90: f64 = 1.281_551_565_544_600_4;

/// p90 of an M/G/1 wait with services of CV `cv` under the exponential tail
/// P(W > w) = rho exp(-rho w / E[W]), written out.
pub fn wait_p90_by_hand(rate: f64, service_s: f64, cv: f64) -> f64 {
    let rho = rate * service_s;
    let mean = rho * service_s * (1.0 + cv * cv) / (2.0 * (1.0 - rho));
    if rho <= 0.1 {
        0.0
    } else {
        mean / rho * (rho / 0.1).ln()
    }
}

/// Every `.rs` file under `dir`, recursively, into `out`.
pub fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The light look at scale 1, whole chart: the style most chart tests draw in.
pub fn light_style() -> goodput_lab::chart::ChartStyle {
    use goodput_lab::chart::{ChartStyle, Layer, Palette};
    ChartStyle { palette: Palette::LIGHT, scale: 1.0, layer: Layer::Whole }
}

/// The one way these tests draw a batch chart: `what` through `chart::batch::draw` onto a fresh SVG
/// of `size` pixels; the SVG and the frame it returned (a drawing error as its text).
pub fn batch_chart_svg(
    what: &goodput_lab::chart::batch::BatchDraw<'_>,
    size: (u32, u32),
) -> (String, Result<goodput_lab::chart::ChartFrame, String>) {
    use plotters::prelude::{IntoDrawingArea, SVGBackend};
    let mut svg = String::new();
    let frame = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        goodput_lab::chart::batch::draw(&root, what).map_err(|e| format!("{e:?}"))
    };
    (svg, frame)
}

/// The whole out-of-sample procedure on the shipped data, run once for every test that reads it (about
/// 40 fits at opt-level 0: the slowest thing the calibration tests do).
pub fn calibrated() -> &'static goodput_lab::core::calibration::holdout::Calibrated {
    static ONCE: std::sync::OnceLock<goodput_lab::core::calibration::holdout::Calibrated> =
        std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let points = goodput_lab::calibration_data::read(goodput_lab::calibration_data::CSV).expect("data");
        goodput_lab::core::calibration::holdout::calibrate(&points)
    })
}
