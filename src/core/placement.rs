//! Where prefill runs: colocated with decode on one replica (chunked or unchunked), or
//! disaggregated onto x prefill instances and y decode instances; each placement's highest rate
//! inside both targets, per GPU, from the same step cost, so all are compared on the same targets.
//!
//! Analytic and steady-state: Poisson arrivals, mean TTFT (M/D/1 queues), every running sequence at
//! the scenario's context, prompts of that context. Which placement wins is the model's finding for
//! the scenario, not a tuning target.

pub mod colocated;
pub mod queue;

use serde::{Deserialize, Serialize};

use crate::core::prefill::prefill_time;
use crate::core::roofline::{evaluate, knee_batch, kv_bytes_per_seq, kv_pool_batch, Scenario, TP_CHOICES};
use colocated::{best_rate, chunked_probe, unchunked_probe};
use queue::{md1_rate_max_req_per_s, md1_wait_s};

/// Instances per side offered by the placement control.
pub const INSTANCES_MAX: u32 = 8;
/// GPUs per side (instances x TP) the best-split search considers, as the configuration search does.
pub const GPUS_PER_SIDE_MAX: u32 = 8;

/// Where prefill runs (the placement control): with decode on every replica, or on instances of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlacementMode {
    #[default]
    Colocated,
    Disaggregated,
}

/// What stops a placement's rate from rising further.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Binds {
    /// Nothing at this rate (an operating point inside every target).
    Nothing,
    Tpot,
    Ttft,
    KvPool,
    /// The decodes and the prompts' tokens no longer fit the step token budget.
    StepBudget,
    /// The load exceeds what the GPUs can do at all (the steady state runs away).
    Capacity,
    /// Disaggregated: the prefill instances cap the system's rate.
    PrefillSide,
    /// Disaggregated: the decode instances cap the system's rate.
    DecodeSide,
}

/// A colocated replica's steady state at one rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Operating {
    pub rate_req_per_s: f64,
    /// Sequences decoding on average (Little's law), in sequences.
    pub batch: f64,
    /// `None` where the steady state runs away (the load exceeds what the GPUs can do), in s.
    pub tpot_s: Option<f64>,
    /// Mean time to first token; `None` where the prompt queue grows without bound, in s.
    pub ttft_s: Option<f64>,
    /// The first target or limit this point misses ([`Binds::Nothing`] if none).
    pub binds: Binds,
}

impl Operating {
    fn overloaded(binds: Binds) -> Operating {
        Operating { rate_req_per_s: 0.0, batch: 0.0, tpot_s: None, ttft_s: None, binds }
    }
}

/// The disaggregated split: x prefill instances of TP_p GPUs, y decode instances of TP_d GPUs,
/// and the bandwidth the KV of each prompt crosses from one to the other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Split {
    pub prefill_instances: u32,
    pub prefill_tp: u32,
    pub decode_instances: u32,
    pub decode_tp: u32,
    /// The KV transfer's bandwidth, in B/s; `None`: the GPU's interconnect (per direction).
    pub link_bytes_per_s: Option<f64>,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            prefill_instances: 1,
            prefill_tp: 1,
            decode_instances: 1,
            decode_tp: 1,
            link_bytes_per_s: None,
        }
    }
}

/// A disaggregated system's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disaggregated {
    /// One prompt's prefill on a prefill instance, in s.
    pub prefill_s: f64,
    /// One prompt's KV (the whole sequence, all heads) over the link, in s.
    pub transfer_s: f64,
    /// One prefill instance's highest rate with mean TTFT inside the target, in requests/s.
    pub prefill_rate_req_per_s: f64,
    /// The batch a decode instance runs: its TPOT knee within its KV pool (no prefill in its steps).
    pub decode_batch: u32,
    /// One decode instance's rate at that batch: B / (output x step(B)), in requests/s.
    pub decode_rate_req_per_s: f64,
    /// step(decode batch): the TPOT a decode instance gives; `None` when no batch fits, in s.
    pub decode_tpot_s: Option<f64>,
    /// Mean TTFT at the system's rate, each prefill instance taking rate / x; `None` when its
    /// queue grows without bound, in s.
    pub ttft_s: Option<f64>,
    /// min(x x prefill rate, y x decode rate), in requests/s.
    pub rate_req_per_s: f64,
    /// x x TP_p + y x TP_d.
    pub gpus: u32,
    pub goodput_per_gpu_req_per_s: f64,
    /// [`Binds::PrefillSide`] or [`Binds::DecodeSide`].
    pub binds: Binds,
    /// The x : y that balances the sides: decode rate / prefill rate prefill instances per decode
    /// instance (0 when a side serves nothing).
    pub balanced_prefill_per_decode: f64,
}

/// The split's numbers. A prefill instance prefills one prompt at a time (FCFS, M/D/1): mean
/// TTFT = W(rate, prefill) + prefill + transfer, so its highest rate is 2S / (D (D + 2S)) with
/// S = TTFT target - prefill - transfer, D = prefill. A decode instance runs at its TPOT knee and
/// never prefills. The transfer is the prompt's whole KV over one link (an upper bound: TP shards
/// could move in parallel) and delays the first token as the issue counts it.
pub fn disaggregated(scenario: &Scenario, split: &Split) -> Disaggregated {
    let prefill = prefill_side(scenario, split.prefill_tp, split.link_bytes_per_s);
    combine(split, &prefill, &decode_side(scenario, split.decode_tp))
}

/// One prefill instance of `tp` GPUs: its prefill, transfer and highest rate.
#[derive(Clone, Copy, Debug)]
pub struct PrefillSide {
    pub tp: u32,
    /// One prompt's prefill, in s.
    pub prefill_s: f64,
    /// One prompt's KV over the link, in s.
    pub transfer_s: f64,
    /// The instance's highest rate with mean TTFT inside the target, in requests/s.
    pub rate_req_per_s: f64,
}

/// One prefill instance of `tp` GPUs on `scenario`'s GPU, its KV sent over `link_bytes_per_s`
/// (`None`: the GPU's interconnect); serves nothing when the weights leave no KV room.
pub fn prefill_side(scenario: &Scenario, tp: u32, link_bytes_per_s: Option<f64>) -> PrefillSide {
    let side = Scenario { tp: tp.max(1), ..*scenario };
    let prefill_s = prefill_time(&side).prefill_s;
    let transfer_s = kv_transfer_s(&side, link_bytes_per_s);
    let slack_s = scenario.ttft_target_s - prefill_s - transfer_s;
    let holds = kv_pool_batch(&side) >= 1;
    let rate_req_per_s = if holds { md1_rate_max_req_per_s(prefill_s, slack_s) } else { 0.0 };
    PrefillSide { tp: side.tp, prefill_s, transfer_s, rate_req_per_s }
}

/// transfer = KV bytes per sequence / link, in s: one prompt of `scenario.context_tokens` tokens
/// (its whole KV, all heads) over `link_bytes_per_s`, or the GPU's interconnect (per direction)
/// when `None`. The simulator's disaggregated run calls it per prompt.
pub fn kv_transfer_s(scenario: &Scenario, link_bytes_per_s: Option<f64>) -> f64 {
    let link = link_bytes_per_s.unwrap_or(scenario.gpu.interconnect_bytes_per_s);
    kv_bytes_per_seq(scenario) / link
}

/// One decode instance of `tp` GPUs at its TPOT knee within its KV pool (no TTFT: it never prefills).
#[derive(Clone, Copy, Debug)]
pub struct DecodeSide {
    pub tp: u32,
    /// min(TPOT knee, KV pool), in sequences.
    pub batch: u32,
    /// B / (output x step(B)), in requests/s.
    pub rate_req_per_s: f64,
    /// step(B), in s; `None` when no batch fits.
    pub tpot_s: Option<f64>,
}

/// One decode instance of `tp` GPUs on `scenario`'s GPU.
pub fn decode_side(scenario: &Scenario, tp: u32) -> DecodeSide {
    let side = Scenario { tp: tp.max(1), ttft_target_s: f64::INFINITY, ..*scenario };
    let batch = knee_batch(&side).min(kv_pool_batch(&side));
    let point = (batch > 0).then(|| evaluate(&side, batch));
    DecodeSide {
        tp: side.tp,
        batch,
        rate_req_per_s: point.map_or(0.0, |p| p.throughput_req_per_s),
        tpot_s: point.map(|p| p.step.step_s),
    }
}

/// x prefill instances and y decode instances together: the system's rate, GPUs and binding side.
pub fn combine(split: &Split, p: &PrefillSide, d: &DecodeSide) -> Disaggregated {
    let (x, y) = (f64::from(split.prefill_instances.max(1)), f64::from(split.decode_instances.max(1)));
    let rate = (x * p.rate_req_per_s).min(y * d.rate_req_per_s);
    let gpus = split.prefill_instances.max(1) * p.tp + split.decode_instances.max(1) * d.tp;
    let ttft_s = md1_wait_s(rate / x, p.prefill_s) + p.prefill_s + p.transfer_s;
    Disaggregated {
        prefill_s: p.prefill_s,
        transfer_s: p.transfer_s,
        prefill_rate_req_per_s: p.rate_req_per_s,
        decode_batch: d.batch,
        decode_rate_req_per_s: d.rate_req_per_s,
        decode_tpot_s: d.tpot_s,
        ttft_s: ttft_s.is_finite().then_some(ttft_s),
        rate_req_per_s: rate,
        gpus,
        goodput_per_gpu_req_per_s: rate / f64::from(gpus),
        binds: if x * p.rate_req_per_s < y * d.rate_req_per_s {
            Binds::PrefillSide
        } else {
            Binds::DecodeSide
        },
        balanced_prefill_per_decode: if p.rate_req_per_s > 0.0 {
            d.rate_req_per_s / p.rate_req_per_s
        } else {
            0.0
        },
    }
}

/// The three placements side by side on one scenario.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The colocated replica with chunked prefill at its highest rate inside the targets.
    pub chunked: Operating,
    /// The same replica with whole-prompt prefill steps (DistServe's baseline).
    pub unchunked: Operating,
    pub disaggregated: Disaggregated,
    /// The split with the most goodput per GPU up to 8 GPUs a side, on the same link ([`best_split`]).
    pub best_split: Option<(Split, Disaggregated)>,
    /// GPUs of one colocated replica (its TP).
    pub colocated_gpus: u32,
}

impl Comparison {
    /// Goodput per GPU of a colocated operating point, in requests/s per GPU.
    pub fn per_gpu(&self, point: &Operating) -> f64 {
        point.rate_req_per_s / f64::from(self.colocated_gpus.max(1))
    }
}

/// Colocated (chunked at `chunk_tokens`, and unchunked) against `split`, on `scenario`'s targets.
pub fn compare(scenario: &Scenario, chunk_tokens: u32, split: &Split) -> Comparison {
    Comparison {
        chunked: chunked_best(scenario, chunk_tokens),
        unchunked: best_rate(scenario, |r, probe| unchunked_probe(scenario, r, probe)),
        disaggregated: disaggregated(scenario, split),
        best_split: best_split(scenario, split.link_bytes_per_s),
        colocated_gpus: scenario.tp.max(1),
    }
}

/// The colocated replica with chunked prefill at `chunk_tokens` a step, at its highest rate
/// inside both targets ([`best_rate`] over [`colocated::chunked_at`]).
pub fn chunked_best(scenario: &Scenario, chunk_tokens: u32) -> Operating {
    best_rate(scenario, |r, probe| chunked_probe(scenario, chunk_tokens, r, probe))
}

/// Every (instances, TP) of one side with instances x TP <= [`GPUS_PER_SIDE_MAX`].
pub fn sides() -> impl Iterator<Item = (u32, u32)> {
    TP_CHOICES.into_iter().flat_map(|tp| (1..=GPUS_PER_SIDE_MAX / tp).map(move |n| (n, tp)))
}

/// The split with the most goodput per GPU on `link_bytes_per_s` (`None`: the interconnect), over
/// every x x TP_p and y x TP_d of at most [`GPUS_PER_SIDE_MAX`] GPUs a side; of equals, the one with
/// fewer GPUs. `None` when no split serves anything.
pub fn best_split(scenario: &Scenario, link_bytes_per_s: Option<f64>) -> Option<(Split, Disaggregated)> {
    let prefills = TP_CHOICES.map(|tp| prefill_side(scenario, tp, link_bytes_per_s));
    let decodes = TP_CHOICES.map(|tp| decode_side(scenario, tp));
    let side = |tp: u32| TP_CHOICES.iter().position(|&t| t == tp).unwrap_or(0);
    let mut best: Option<(Split, Disaggregated)> = None;
    for (prefill_instances, prefill_tp) in sides() {
        for (decode_instances, decode_tp) in sides() {
            let split =
                Split { prefill_instances, prefill_tp, decode_instances, decode_tp, link_bytes_per_s };
            let d = combine(&split, &prefills[side(prefill_tp)], &decodes[side(decode_tp)]);
            if beats(&d, best.as_ref().map(|(_, b)| b)) {
                best = Some((split, d));
            }
        }
    }
    best
}

/// True when `d` serves something and has more goodput per GPU than `best` (of equals, fewer
/// GPUs): the order every best-split search uses.
pub fn beats(d: &Disaggregated, best: Option<&Disaggregated>) -> bool {
    best.map_or(d.rate_req_per_s > 0.0, |b| {
        let (now, was) = (d.goodput_per_gpu_req_per_s, b.goodput_per_gpu_req_per_s);
        now > was * (1.0 + 1e-12) || (now >= was * (1.0 - 1e-12) && d.gpus < b.gpus)
    })
}
