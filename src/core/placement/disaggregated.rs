//! The disaggregated split's two sides, each at the page's percentile: a prefill instance (M/G/1
//! on whole prompts, then the KV transfer) and a decode instance (decode-only steps at the largest
//! batch whose TPOT p-quantile meets the target), the system they make together, and the search for
//! the best split.

use super::percentile::{tpot_meets, tpot_quantile_s, wait_quantile_s, Percentile, TpotSpread};
use super::queue::{largest_ok, md1_wait_s};
use super::{Binds, Disaggregated, Split, GPUS_PER_SIDE_MAX};
use crate::goodput::evaluate;
use crate::model::kv_elements_per_seq;
use crate::parallel::Parallelism;
use crate::prefill::prefill_time;
use crate::roofline::{knee_batch, kv_pool_batch, step_time, TP_CHOICES};
use crate::scenario::Scenario;

/// The split's numbers at `percentile`. A prefill instance prefills one prompt at a time (FCFS, M/G/1):
/// TTFT = prefill + transfer + W, W's p-quantile as [`wait_quantile_s`], and its highest rate is
/// the largest with that inside the target. A decode instance never prefills: it runs the largest
/// batch within its KV pool whose TPOT p-quantile (the batch's spread alone) meets the target. The
/// transfer is the prompt's whole KV over one link (an upper bound: TP shards could move in
/// parallel) and delays the first token as the issue counts it.
pub fn disaggregated(scenario: &Scenario, split: &Split, percentile: &Percentile) -> Disaggregated {
    let prefill = prefill_side(scenario, split.prefill_tp, split.link_bytes_per_s, percentile);
    let decode = decode_side_of(scenario, decode_parallel(scenario, split), percentile);
    combine(split, &prefill, &decode, percentile)
}

/// The page's decode instances' parallelism: the scenario's own when its TP is TP_d (a loaded search
/// row's decode side, `TP1 EP16 DP16`), else TP_d alone. With TP alone on the page both are TP_d.
pub fn decode_parallel(scenario: &Scenario, split: &Split) -> Parallelism {
    if scenario.parallel.tp == split.decode_tp.max(1) {
        scenario.parallel
    } else {
        Parallelism::tp(split.decode_tp.max(1))
    }
}

/// One prefill instance: its prefill, transfer and highest rate.
#[derive(Clone, Copy, Debug)]
pub struct PrefillSide {
    /// The instance's parallelism (TP alone on the page's split; any in the search).
    pub parallel: Parallelism,
    /// One prompt's prefill, in s.
    pub prefill_s: f64,
    /// One prompt's KV over the link, in s.
    pub transfer_s: f64,
    /// The instance's highest rate with TTFT's p-quantile inside the target, in requests/s.
    pub rate_req_per_s: f64,
    /// The prompt lengths' CV (the prefill's, as the prefill is near proportional to the prompt).
    pub service_cv: f64,
}

/// One prefill instance of `tp` GPUs on `scenario`'s GPU, its KV sent over `link_bytes_per_s`
/// (`None`: the GPU's interconnect); serves nothing when the weights leave no KV room.
pub fn prefill_side(
    scenario: &Scenario,
    tp: u32,
    link_bytes_per_s: Option<f64>,
    percentile: &Percentile,
) -> PrefillSide {
    prefill_side_of(scenario, Parallelism::tp(tp.max(1)), link_bytes_per_s, percentile)
}

/// [`prefill_side`] for an instance of any parallelism (the search's).
pub fn prefill_side_of(
    scenario: &Scenario,
    parallel: Parallelism,
    link_bytes_per_s: Option<f64>,
    percentile: &Percentile,
) -> PrefillSide {
    let side = Scenario { parallel, ..*scenario };
    let prefill_s = prefill_time(&side).prefill_s;
    let transfer_s = kv_transfer_s(&side, side.prompt_tokens(), link_bytes_per_s);
    let prompt_cv = percentile.cv();
    let ttft_s = |rate: f64| prefill_s + transfer_s + wait_quantile_s(rate, prefill_s, prompt_cv, percentile);
    let holds = kv_pool_batch(&side) >= 1 && ttft_s(0.0) <= scenario.ttft_target_s;
    let rate_req_per_s = if holds && prefill_s > 0.0 {
        largest_ok(1.0 / prefill_s, |r| ttft_s(r) <= scenario.ttft_target_s)
    } else {
        0.0
    };
    PrefillSide { parallel, prefill_s, transfer_s, rate_req_per_s, service_cv: prompt_cv }
}

/// transfer = KV bytes of the prompt / link, in s: one prompt of `prompt_tokens` tokens (its whole
/// KV, all heads) over `link_bytes_per_s`, or the GPU's interconnect (per direction) when `None`.
/// The analytic split sends [`Scenario::prompt_tokens`]; the simulator's disaggregated run calls it
/// per prompt.
pub fn kv_transfer_s(scenario: &Scenario, prompt_tokens: u32, link_bytes_per_s: Option<f64>) -> f64 {
    let link_bytes_per_s = link_bytes_per_s.unwrap_or(scenario.gpu.interconnect_bytes_per_s);
    let elements = kv_elements_per_seq(&scenario.model, prompt_tokens);
    elements * scenario.kv_precision.bytes_per_element() / link_bytes_per_s
}

/// One decode instance of `tp` GPUs at the largest batch within its KV pool whose TPOT
/// p-quantile meets the target (no TTFT: it never prefills).
#[derive(Clone, Copy, Debug)]
pub struct DecodeSide {
    /// The instance's parallelism (TP alone on the page's split; any in the search).
    pub parallel: Parallelism,
    /// That batch, at most min(TPOT knee, KV pool), in sequences.
    pub batch: u32,
    /// B / (output x step(B)), in requests/s.
    pub rate_req_per_s: f64,
    /// TPOT's p-quantile at B, in s; `None` when no batch fits.
    pub tpot_s: Option<f64>,
}

/// One decode instance of `tp` GPUs on `scenario`'s GPU: the batch b <= min(knee, pool) with the
/// most b whose TPOT p-quantile, step(b) + the spread of a batch of b ([`decode_spread`]), meets
/// the target.
pub fn decode_side(scenario: &Scenario, tp: u32, percentile: &Percentile) -> DecodeSide {
    decode_side_of(scenario, Parallelism::tp(tp.max(1)), percentile)
}

/// [`decode_side`] for an instance of any parallelism (the search's).
pub fn decode_side_of(scenario: &Scenario, parallel: Parallelism, percentile: &Percentile) -> DecodeSide {
    let side = Scenario { parallel, ttft_target_s: f64::INFINITY, ..*scenario };
    let batch_top = knee_batch(&side).min(kv_pool_batch(&side));
    let quantile = |b: u32| tpot_quantile_s(&decode_spread(&side, b), percentile);
    let fits = |b: u32| tpot_meets(&decode_spread(&side, b), percentile, side.tpot_target_s);
    // Bisection: `batch_lo` fits (0 always does), every batch above `batch_hi` misses.
    let (mut batch_lo, mut batch_hi) = (0_u32, batch_top);
    while batch_lo < batch_hi {
        let batch_mid = batch_lo + (batch_hi - batch_lo).div_ceil(2);
        if fits(batch_mid) {
            batch_lo = batch_mid;
        } else {
            batch_hi = batch_mid - 1;
        }
    }
    let batch = batch_lo;
    let point = (batch > 0).then(|| evaluate(&side, batch));
    DecodeSide {
        parallel,
        batch,
        rate_req_per_s: point.map_or(0.0, |p| p.throughput_req_per_s),
        tpot_s: point.map(|_| quantile(batch)),
    }
}

/// A decode-only batch of `batch`'s TPOT spread: mean step(B); the batch's mean over an answer
/// has variance 2/3 x B (M/G/inf), each sequence adding step(B + 1) - step(B).
pub fn decode_spread(scenario: &Scenario, batch: u32) -> TpotSpread {
    let step_s = step_time(scenario, batch.max(1)).step_s;
    let slope_s = (step_time(scenario, batch.max(1).saturating_add(1)).step_s - step_s).max(0.0);
    TpotSpread {
        mean_s: step_s,
        batch_var_s2: slope_s * slope_s * 2.0 / 3.0 * f64::from(batch),
        prefill_var_s2: 0.0,
    }
}

/// x prefill instances and y decode instances together: the system's rate, min(x x the prefill
/// side's rate, y x the decode side's), its GPUs and binding side, and TTFT with each prefill
/// instance taking rate / x.
pub fn combine(
    split: &Split,
    prefill: &PrefillSide,
    decode: &DecodeSide,
    percentile: &Percentile,
) -> Disaggregated {
    let prefill_instances = f64::from(split.prefill_instances.max(1));
    let (prefill_rate_req_per_s, decode_rate_req_per_s, gpus) = split_rates(split, prefill, decode);
    let rate_req_per_s = prefill_rate_req_per_s.min(decode_rate_req_per_s);
    let instance_rate_req_per_s = rate_req_per_s / prefill_instances;
    let (service_s, service_cv) = (prefill.prefill_s, prefill.service_cv);
    let wait_s = wait_quantile_s(instance_rate_req_per_s, service_s, service_cv, percentile);
    let ttft_s = wait_s + prefill.prefill_s + prefill.transfer_s;
    let wait_mean_s = md1_wait_s(instance_rate_req_per_s, service_s) * (1.0 + service_cv.powi(2));
    let ttft_mean_s = wait_mean_s + prefill.prefill_s + prefill.transfer_s;
    Disaggregated {
        prefill_s: prefill.prefill_s,
        transfer_s: prefill.transfer_s,
        prefill_rate_req_per_s: prefill.rate_req_per_s,
        decode_batch: decode.batch,
        decode_rate_req_per_s: decode.rate_req_per_s,
        decode_tpot_s: decode.tpot_s,
        ttft_s: ttft_s.is_finite().then_some(ttft_s),
        ttft_mean_s: ttft_mean_s.is_finite().then_some(ttft_mean_s),
        rate_req_per_s,
        gpus,
        goodput_per_gpu_req_per_s: rate_req_per_s / f64::from(gpus),
        binds: if prefill_rate_req_per_s < decode_rate_req_per_s {
            Binds::PrefillSide
        } else {
            Binds::DecodeSide
        },
        balanced_prefill_per_decode: if prefill.rate_req_per_s > 0.0 {
            decode.rate_req_per_s / prefill.rate_req_per_s
        } else {
            0.0
        },
    }
}

/// x x the prefill side's rate, y x the decode side's (in requests/s) and x x its GPUs + y x the
/// decode side's: what [`combine`] and the search's split scan price a split by.
pub fn split_rates(split: &Split, prefill: &PrefillSide, decode: &DecodeSide) -> (f64, f64, u32) {
    let prefill_instances = split.prefill_instances.max(1);
    let decode_instances = split.decode_instances.max(1);
    (
        f64::from(prefill_instances) * prefill.rate_req_per_s,
        f64::from(decode_instances) * decode.rate_req_per_s,
        prefill_instances * prefill.parallel.gpus() + decode_instances * decode.parallel.gpus(),
    )
}

/// Every (instances, TP) of one side with instances x TP <= [`GPUS_PER_SIDE_MAX`].
pub fn sides() -> impl Iterator<Item = (u32, u32)> {
    TP_CHOICES.into_iter().flat_map(|tp| (1..=GPUS_PER_SIDE_MAX / tp).map(move |n| (n, tp)))
}

/// The split with the most goodput per GPU on `link_bytes_per_s` (`None`: the interconnect), over
/// every x x TP_p and y x TP_d of at most [`GPUS_PER_SIDE_MAX`] GPUs a side; of equals, the one with
/// fewer GPUs. `None` when no split serves anything.
pub fn best_split(
    scenario: &Scenario,
    link_bytes_per_s: Option<f64>,
    percentile: &Percentile,
) -> Option<(Split, Disaggregated)> {
    let prefill_sides = TP_CHOICES.map(|tp| prefill_side(scenario, tp, link_bytes_per_s, percentile));
    // Each decode TP's instance as the page prices it ([`decode_parallel`]), so the best split's
    // numbers are [`disaggregated`]'s for that split.
    let decode_sides = TP_CHOICES.map(|tp| {
        let shape = decode_parallel(scenario, &Split { decode_tp: tp, ..Split::default() });
        decode_side_of(scenario, shape, percentile)
    });
    let side_index = |tp: u32| TP_CHOICES.iter().position(|&t| t == tp).unwrap_or(0);
    let mut best: Option<(Split, Disaggregated)> = None;
    for (prefill_instances, prefill_tp) in sides() {
        for (decode_instances, decode_tp) in sides() {
            let split =
                Split { prefill_instances, prefill_tp, decode_instances, decode_tp, link_bytes_per_s };
            let prefill = &prefill_sides[side_index(prefill_tp)];
            let system = combine(&split, prefill, &decode_sides[side_index(decode_tp)], percentile);
            if beats(&system, best.as_ref().map(|(_, best_system)| best_system)) {
                best = Some((split, system));
            }
        }
    }
    best
}

/// True when `candidate` serves something and has more goodput per GPU than `best` (of equals,
/// fewer GPUs): the order every best-split search uses.
pub fn beats(candidate: &Disaggregated, best: Option<&Disaggregated>) -> bool {
    let per_gpu = |d: &Disaggregated| (d.rate_req_per_s, d.goodput_per_gpu_req_per_s, d.gpus);
    beats_per_gpu(per_gpu(candidate), best.map(per_gpu))
}

/// [`beats`] on (rate, goodput per GPU, GPUs) alone.
pub fn beats_per_gpu(candidate: (f64, f64, u32), best: Option<(f64, f64, u32)>) -> bool {
    let (rate, now, gpus) = candidate;
    best.map_or(rate > 0.0, |(_, was, best_gpus)| {
        now > was * (1.0 + 1e-12) || (now >= was * (1.0 - 1e-12) && gpus < best_gpus)
    })
}
