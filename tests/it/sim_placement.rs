//! The disaggregated simulation: a whole prompt costs the analytic prefill, a lone request's TTFT is
//! prefill + transfer and its TPOT the batch-1 decode step (both written out here by hand), a decode
//! instance serves the analytic decode rate, every request finishes, runs are deterministic, the
//! colocated sweep is untouched, and the combined chart draws both curves per GPU and reads them.

use crate::common::{assert_close, worked_example};
use goodput_lab::chart::{
    draw_placement_attainment_chart, nearest_point, AttainmentView, ChartStyle, Palette, PlacementCurve,
};
use goodput_lab::core::parallel::Parallelism;
use goodput_lab::core::placement::{disaggregated, Split};
use goodput_lab::core::plan::compute;
use goodput_lab::core::prefill::prefill_of;
use goodput_lab::core::scenario::Scenario;
use goodput_lab::core::sim::{
    simulate_disaggregated, sweep, sweep_disaggregated, Arrivals, Counting, DisaggConfig, LengthDist,
    Lengths, LoadMode, SimConfig, StepCost, Sweep,
};
use goodput_lab::state::from_query;
use goodput_lab::state::sim::SimInputs;
use plotters::prelude::{IntoDrawingArea, SVGBackend};

// Llama 3.1 8B (BF16) on H100 SXM, by hand: params, layers, heads, head dim, KV bytes per token.
const PARAMS: f64 = 8.03e9;
const LAYERS: f64 = 32.0;
const HEADS: f64 = 32.0;
const HEAD_DIM: f64 = 128.0;
const KV_BYTES_PER_TOKEN: f64 = 2.0 * LAYERS * 8.0 * HEAD_DIM * 2.0;
const H100_BW: f64 = 3.35e12;
const H100_BF16: f64 = 989e12;
const H100_LINK: f64 = 450e9;

/// The page's default sweep on `s`, with constant arrivals and fixed lengths (every prompt the mean).
fn steady(s: Scenario) -> SimConfig {
    SimConfig {
        arrivals: Arrivals::Constant,
        lengths: Lengths { dist: LengthDist::Fixed, length_cv: 0.0 },
        ..SimInputs::default().config(&s)
    }
}

fn split(x: u32, y: u32) -> Split {
    Split { prefill_instances: x, decode_instances: y, ..Split::default() }
}

#[test]
fn a_whole_prompt_on_the_simulator_costs_the_analytic_prefill_to_the_bit() {
    for tp in [1, 2, 8] {
        let s = Scenario { parallel: Parallelism::tp(tp), ..worked_example() };
        let cost = StepCost::new(&s);
        for prompt in [1, 100, 1920, 8192] {
            let analytic = prefill_of(&s, prompt, 0).prefill_s;
            assert_eq!(cost.prefill_s(prompt), analytic, "TP {tp}, {prompt} tokens");
        }
    }
}

#[test]
fn at_a_low_rate_ttft_is_prefill_plus_transfer_and_tpot_the_batch_1_step_by_hand() {
    // The worked example's requests: 2,048 tokens of context held over 256 out: 1,920 in.
    let prompt = 2048.0 - 256.0 / 2.0;
    // Compute-bound GEMMs (2 x params x P) plus causal attention (P(P+1)/2 pairs per layer and head).
    let attention_flop = LAYERS * (prompt * (prompt + 1.0) / 2.0) * HEADS * 2.0 * (2.0 * HEAD_DIM);
    let prefill_s = (2.0 * PARAMS * prompt + attention_flop) / H100_BF16;
    let c = steady(worked_example());
    for (link, link_bytes_per_s) in [(None, H100_LINK), (Some(5e9), 5e9)] {
        let d = DisaggConfig::new(&c, &Split { link_bytes_per_s: link, ..split(1, 1) }, None);
        let p = simulate_disaggregated(&c, &d, 0.5);
        let expected = prefill_s + prompt * KV_BYTES_PER_TOKEN / link_bytes_per_s;
        for q in [p.ttft.p50_s, p.ttft.p99_s] {
            assert_close(q.expect("served"), expected, 1e-6, "TTFT = prefill + transfer");
        }
        // Alone on its decode instance: weights plus its KV (prompt + half the output on average).
        let tpot_s = (2.0 * PARAMS + (prompt + 128.0) * KV_BYTES_PER_TOKEN) / H100_BW;
        assert_close(p.tpot.p99_s.expect("served"), tpot_s, 1e-4, "TPOT = step(1)");
    }
}

#[test]
fn with_ttft_unbounded_the_decode_instances_serve_the_analytic_decode_rate_within_1_percent() {
    let s = Scenario { ttft_target_s: 1e6, ..worked_example() };
    let c = SimConfig { requests: 8000, ..steady(s) };
    for (x, y) in [(2, 1), (4, 2)] {
        let analytic = disaggregated(&s, &split(x, y), &c.percentile());
        let decode_rate = f64::from(y) * analytic.decode_rate_req_per_s;
        let d = DisaggConfig::new(&c, &split(x, y), None);
        assert_eq!(d.decode_cap, analytic.decode_batch, "the cap is the analytic decode batch (64)");
        let p = simulate_disaggregated(&c, &d, 1.5 * decode_rate);
        assert_close(p.throughput_req_per_s, decode_rate, 0.01, "served rate, decode-bound");
        assert_eq!(p.requests.both, 1.0, "at batch 64 every decode step meets 10 ms");
    }
}

#[test]
fn every_request_finishes_and_littles_law_holds_past_capacity() {
    let s = Scenario { ttft_target_s: 1e6, tpot_target_s: 1.0, ..worked_example() };
    let c = SimInputs { requests: 1000, ..SimInputs::default() }.config(&s);
    for sp in [split(1, 1), split(3, 2), Split { prefill_tp: 2, decode_tp: 4, ..split(1, 2) }] {
        let d = DisaggConfig::new(&c, &sp, None);
        let p = simulate_disaggregated(&c, &d, 2.0 * d.rate_max_req_per_s);
        assert_eq!((p.rejected, p.requests.both), (0, 1.0), "{sp:?}: all served within loose targets");
        assert_close(p.departure_rate_req_per_s * p.duration_s, 1000.0, 1e-9, "departures");
        let little = p.departure_rate_req_per_s * p.mean_latency_s;
        assert_close(p.mean_in_system, little, 0.02, "L = lambda x W");
    }
}

#[test]
fn the_same_seed_gives_the_same_disaggregated_sweep_and_another_seed_another() {
    let c = SimInputs { requests: 400, ..SimInputs::default() }.config(&worked_example());
    let d = DisaggConfig::new(&c, &split(1, 1), None);
    let once = sweep_disaggregated(&c, &d, |_, _| {}).expect("open load");
    assert_eq!(Some(&once), sweep_disaggregated(&c, &d, |_, _| {}).as_ref());
    let other = sweep_disaggregated(&SimConfig { seed: 2, ..c }, &d, |_, _| {}).expect("open load");
    assert_ne!(once.points, other.points);
}

#[test]
fn place_disagg_adds_the_split_per_gpu_and_leaves_the_colocated_sweep_bit_identical() {
    let query = "sim=1&requests=300&place=disagg&xp=2&tpp=2&yd=3&tpd=1";
    let with = compute(&from_query(query).0.sim_plan(), |_, _| {});
    let without = compute(&from_query("sim=1&requests=300").0.sim_plan(), |_, _| {});
    assert_eq!(with.sweep, without.sweep);
    assert_eq!(without.placement, None);
    let p = with.placement.expect("disaggregated");
    assert_eq!((p.gpus, p.colocated_gpus), (2 * 2 + 3, 1));
    let (colo, split) = p.goodputs_per_gpu(&with.sweep);
    assert_eq!(colo, with.sweep.goodput_req_per_s);
    assert_eq!(split, p.sweep.goodput_req_per_s / 7.0);
    let closed_plan = from_query("sim=1&requests=300&place=disagg&load=closed").0.sim_plan();
    let closed = compute(&closed_plan, |_, _| {});
    assert_eq!(closed.placement, None, "closed load is not simulated disaggregated");
}

/// Simulated (seed 1) against analytic goodput per GPU of four splits at p90, each within a band that
/// says why the two differ, reported rather than tuned. 8,192-token prompts at 2 : 1: the analytic
/// split gives each of its x prefill instances a queue of its own (M/G/1 at rate / x), where the
/// simulator keeps one first-come queue that each prompt leaves for whichever instance frees first
/// (one queue, x servers: a prompt waits only while every instance is busy). At the analytic rate
/// each instance is busy 55% of the time (149.5 ms prefills, 3.65 req/s each), and the pooled
/// queue waits so much less that the simulator serves a third more: analytic 2.43 against simulated
/// 3.25 req/s/GPU (3.15 as the median of the default 7 seeds), hence 40%. At 1 : 2 there is one
/// prefill instance and no pooling: the rest (-6% for seed 1, -10% over 7 seeds) is the prompts'
/// spread (CV 0.5), as a request's TTFT holds its own prefill, a third of the 500 ms target, which
/// the analytic side reads at the mean prompt (with fixed prompts the sign turns, +10% for seed 1 and
/// +5% over 7 seeds: there the exponential tail overstates the wait at rho = 0.55).
#[test]
fn simulated_and_analytic_split_goodput_per_gpu_differ_by_less_than_40_percent() {
    let heavy = "ctx=8192&out=128&ttft=500&tpot=20";
    let cases = [
        // 2% until issue 15: the warm-up and the overload test moved seed 1's split from 12.4 to
        // 12.2 req/s/GPU (a level at 98% of the decode side's analytic rate now counts as overloaded).
        // 4% since issue 25: the analytic decode side runs the largest batch whose p90 TPOT (with
        // the batch's spread) meets the target, 11.89 req/s/GPU against the simulated 11.52.
        (String::new(), 0.04),
        ("yd=2".to_string(), 0.15),
        // Pooled prefill instances against one queue each (above): analytic 2.43, simulated 3.25.
        (format!("{heavy}&xp=2&yd=1"), 0.40),
        // One prefill instance: the prompts' spread alone, analytic 1.215 against simulated 1.144.
        (format!("{heavy}&xp=1&yd=2"), 0.10),
    ];
    for (q, gap_max) in cases {
        // One seed, the figures this test has held since issue 14 (README, "The simulator, stated"
        // gives the 7-seed medians beside them).
        let (i, _) = from_query(&format!("sim=1&seeds=1&place=disagg&{q}"));
        let r = compute(&i.sim_plan(), |_, _| {});
        let p = r.placement.expect("disaggregated");
        let sim = p.goodputs_per_gpu(&r.sweep).1;
        let gap = (sim / p.analytic.goodput_per_gpu_req_per_s - 1.0).abs();
        assert!(gap < gap_max, "{q}: simulated {sim}, analytic {}", p.analytic.goodput_per_gpu_req_per_s);
    }
}

/// Where the two model the same queue they agree within 5%: with one prefill instance (xp = 1) the
/// analytic prefill side's M/G/1 queue is the simulator's one first-come queue, and on the worked
/// example a prompt's prefill (32.2 ms for 1,920 tokens) is small against the 2 s TTFT target, so a
/// request's own prefill hardly spreads its TTFT. At the analytic rate (30.4 req/s) the prefill
/// instance is busy 97.7% of the time, where an M/G/1 wait is close to exponential (Kingman's
/// heavy-traffic limit), the form the analytic p90 assumes; and decode-bound (1 : 1) the simulated
/// decode instance's cap is the analytic decode batch. Medians of the default 7 seeds: 1 : 1 11.85
/// against 11.89 req/s/GPU (-0.4%), 1 : 2 10.38 against 10.12 (+2.5%); seeds 8-14, 15-21 and 22-28
/// give -3.1% / +4.5%, -1.2% / 0.0% and -1.2% / +4.5%.
#[test]
fn with_one_prefill_instance_the_worked_examples_splits_agree_within_5_percent() {
    for q in ["xp=1&yd=1", "xp=1&yd=2"] {
        let (i, _) = from_query(&format!("sim=1&place=disagg&{q}"));
        assert_eq!(i.sim.seeds, 7, "the default seeds");
        let r = compute(&i.sim_plan(), |_, _| {});
        let p = r.placement.expect("disaggregated");
        let (sim, analytic) = (p.goodputs_per_gpu(&r.sweep).1, p.analytic.goodput_per_gpu_req_per_s);
        assert!((sim / analytic - 1.0).abs() < 0.05, "{q}: simulated {sim}, analytic {analytic}");
    }
}

fn placement_svg(colo: &Sweep, split: &Sweep, gpus: u32, target: f64) -> String {
    let view =
        AttainmentView { attainment_target: target, counting: Counting::Requests, load: LoadMode::Open };
    let curves = [
        PlacementCurve { label: "Colocated (TP 1)", sweep: colo, gpus: 1 },
        PlacementCurve { label: "Disaggregated 1:1 (TP 1 / TP 1)", sweep: split, gpus },
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 450)).into_drawing_area();
        let style =
            ChartStyle { palette: Palette::LIGHT, scale: 1.0, layer: goodput_lab::chart::Layer::Whole };
        draw_placement_attainment_chart(&root, curves, &view, &style).expect("chart draws");
    }
    svg
}

#[test]
fn the_placement_chart_draws_both_curves_per_gpu_the_target_and_each_goodput() {
    let c = SimInputs { requests: 300, ..SimInputs::default() }.config(&worked_example());
    let colo = sweep(&c);
    let split_sweep = sweep_disaggregated(&c, &DisaggConfig::new(&c, &split(1, 1), None), |_, _| {}).unwrap();
    let svg = placement_svg(&colo, &split_sweep, 2, 0.9);
    for text in ["Colocated (TP 1)", "Disaggregated 1:1 (TP 1 / TP 1)", "Target 90%", "requests/s per GPU"] {
        assert!(svg.contains(text), "{text} is drawn");
    }
    let per_gpu = goodput_lab::view::format::sim_goodput_per_gpu;
    assert!(svg.contains(&per_gpu(&colo, 1)), "the colocated goodput per GPU is labelled");
    assert!(svg.contains(&per_gpu(&split_sweep, 2)), "the split's goodput per GPU is labelled");
    let halved = placement_svg(&colo, &split_sweep, 4, 0.9);
    assert!(halved.contains(&per_gpu(&split_sweep, 4)) && !halved.contains(&per_gpu(&split_sweep, 2)));
    let lines = |s: &str| s.matches("<polyline").count();
    assert!(lines(&svg) >= 2, "two curves: {}", lines(&svg));
}

#[test]
fn the_pointer_reads_each_placements_swept_point_nearest_its_rate_per_gpu() {
    let c = SimInputs { requests: 300, ..SimInputs::default() }.config(&worked_example());
    let colo = sweep(&c);
    let split_sweep = sweep_disaggregated(&c, &DisaggConfig::new(&c, &split(1, 1), None), |_, _| {}).unwrap();
    let view = AttainmentView { attainment_target: 0.9, counting: Counting::Requests, load: LoadMode::Open };
    let curve = PlacementCurve { label: "split", sweep: &split_sweep, gpus: 2 };
    let third = &split_sweep.points[2];
    let near_third = third.rate_req_per_s / 2.0 + 0.1;
    assert_eq!(
        nearest_point(&curve, &view, near_third),
        Some((third.rate_req_per_s / 2.0, 100.0 * third.requests.both))
    );
    let last = split_sweep.points.last().unwrap();
    assert_eq!(nearest_point(&curve, &view, 1e9).map(|p| p.0), Some(last.rate_req_per_s / 2.0));
    let colo_curve = PlacementCurve { label: "colo", sweep: &colo, gpus: 1 };
    assert_eq!(nearest_point(&colo_curve, &view, 0.0).map(|p| p.0), Some(colo.points[0].rate_req_per_s));
}

#[test]
fn a_simulated_split_counts_its_decode_instances_as_the_analytic_split_does_under_wide_ep() {
    use goodput_lab::core::presets::{gpu_by_id, model_by_id};
    use goodput_lab::core::roofline::Precision;
    use goodput_lab::core::sim::DisaggConfig;
    // DeepSeek-V3 FP8 on H200 with the page at TP1 EP8 DP8: a split whose decode TP is the page's
    // takes the page's shape, 8 GPUs an instance, on both the analytic side and the simulator's.
    let s = Scenario {
        model: *model_by_id("deepseek-v3").unwrap(),
        gpu: *gpu_by_id("h200-sxm").unwrap(),
        weight_precision: Precision::Fp8,
        kv_precision: Precision::Fp8,
        parallel: Parallelism { tp: 1, ep: 8, dp: 8, pp: 1 },
        tpot_target_s: 0.05,
        ..worked_example()
    };
    let sp = Split {
        prefill_instances: 2,
        prefill_tp: 8,
        decode_instances: 1,
        decode_tp: 1,
        link_bytes_per_s: None,
    };
    let c = steady(s);
    let analytic = disaggregated(&s, &sp, &c.percentile());
    assert_eq!(analytic.gpus, 2 * 8 + 8);
    assert_eq!(DisaggConfig::new(&c, &sp, None).gpus(&s), analytic.gpus);
    // A decode TP that is not the page's is TP alone.
    let tp2 = Split { decode_tp: 2, ..sp };
    assert_eq!(DisaggConfig::new(&c, &tp2, None).gpus(&s), 2 * 8 + 2);
}
