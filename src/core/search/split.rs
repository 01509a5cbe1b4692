//! The search's disaggregated rows: for each decode shape that fits, the split x prefill : y decode
//! instances with the most goodput per GPU over the prefill shapes and every x, y.
//!
//! Bounded three ways:
//! - Prefill instances are TP alone (1, 2, 4, 8 where the weights fit): an instance prefills one
//!   prompt at a time (M/G/1), and a prompt runs on one DP rank, so DP ranks and pipeline stages add
//!   GPUs it cannot use; and the page's split carries TP_p alone, so every row loads exactly.
//! - One row per decode shape: every split of one decode shape has the same TPOT (the decode side's),
//!   so only the one with the most goodput per GPU can be on the frontier or first; the others are
//!   left out.
//! - x, y: at most [`INSTANCES_MAX`] instances a side (the page's split control, so every row loads
//!   into the page) and at most [`REPLICA_GPUS_MAX`] GPUs a side ([`SideBound::SEARCH`]). For each y
//!   only the x at the balance point, floor and ceil of y x decode rate / prefill rate, is priced:
//!   goodput per GPU rises in x below it (prefill binds) and falls above it (decode binds), so the
//!   best x for that y is one of the two, the split an x, y grid would keep (tests/it/search_space.rs
//!   checks it against the grid).

use super::space::REPLICA_GPUS_MAX;
use super::{row_at, Config, Found, Layout, Point, SearchSpec};
use crate::parallel::Parallelism;
use crate::placement::{
    beats_per_gpu, combine, decode_side_of, prefill_side_of, split_rates, DecodeSide, Disaggregated,
    PrefillSide, Split, GPUS_PER_SIDE_MAX, INSTANCES_MAX,
};

/// How large each side of a split may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideBound {
    pub instances_max: u32,
    pub gpus_max: u32,
}

impl SideBound {
    /// The search's: [`INSTANCES_MAX`] instances and [`REPLICA_GPUS_MAX`] GPUs a side.
    pub const SEARCH: SideBound = SideBound { instances_max: INSTANCES_MAX, gpus_max: REPLICA_GPUS_MAX };
    /// The TP-only search's before parallelism (and the placement panel's best split): 8 GPUs a side.
    pub const TP_ONLY: SideBound =
        SideBound { instances_max: GPUS_PER_SIDE_MAX, gpus_max: GPUS_PER_SIDE_MAX };

    /// The most instances of `gpus` GPUs one side may hold.
    pub fn instances(&self, gpus: u32) -> u32 {
        self.instances_max.min(self.gpus_max / gpus.max(1))
    }
}

/// Appends to `found` each decode shape's best split on `base`'s group, over the `fitting` shapes.
pub fn rows(spec: &SearchSpec, base: &Config, fitting: &[Parallelism], found: &mut Found) {
    let scenario = base.scenario(&spec.scenario);
    let pct = &spec.percentile;
    let link = spec.link_bytes_per_s;
    let prefills: Vec<PrefillSide> = (fitting.iter().filter(|p| p.tp_only()))
        .map(|&p| prefill_side_of(&scenario, p, link, pct))
        .filter(|side| side.rate_req_per_s > 0.0)
        .collect();
    for &decode_parallel in fitting {
        let decode = decode_side_of(&scenario, decode_parallel, pct);
        let mut best: Option<(Split, (f64, f64, u32), &PrefillSide)> = None;
        for prefill in &prefills {
            let (candidate, evaluated) = best_split_of(link, prefill, &decode, SideBound::SEARCH);
            found.evaluated += evaluated;
            if let Some((split, score)) = candidate {
                if beats_per_gpu(score, best.as_ref().map(|b| b.1)) {
                    best = Some((split, score, prefill));
                }
            }
        }
        let row = best.and_then(|(split, _, prefill)| {
            let layout = Layout::Disaggregated {
                prefill_instances: split.prefill_instances,
                prefill: prefill.parallel,
                decode_instances: split.decode_instances,
                decode: decode_parallel,
            };
            let d: Disaggregated = combine(&split, prefill, &decode, pct);
            {
                let config = Config { layout, ..*base };
                row_at(spec, &config, &Point::of(&d, &config.scenario(&spec.scenario))?)
            }
        });
        found.rows.extend(row);
    }
}

/// The x, y within `bound` with the most goodput per GPU for one prefill and one decode instance (of
/// equals, the fewest GPUs), scored as [`beats_per_gpu`] reads it (rate, goodput per GPU, GPUs), and
/// how many splits were priced: for each y, the x at the balance point's floor and ceil (module docs).
pub fn best_split_of(
    link_bytes_per_s: Option<f64>,
    prefill: &PrefillSide,
    decode: &DecodeSide,
    bound: SideBound,
) -> (Option<(Split, (f64, f64, u32))>, u32) {
    let (x_max, y_max) = (bound.instances(prefill.parallel.gpus()), bound.instances(decode.parallel.gpus()));
    let (mut best, mut evaluated) = (None::<(Split, (f64, f64, u32))>, 0);
    if !(prefill.rate_req_per_s > 0.0 && decode.rate_req_per_s > 0.0) || x_max == 0 {
        return (best, evaluated);
    }
    for decode_instances in 1..=y_max {
        let balance = f64::from(decode_instances) * decode.rate_req_per_s / prefill.rate_req_per_s;
        let low = (balance.floor() as u32).clamp(1, x_max);
        let high = (balance.ceil() as u32).clamp(1, x_max);
        for prefill_instances in low..=high {
            evaluated += 1;
            let split = Split {
                prefill_instances,
                prefill_tp: prefill.parallel.tp,
                decode_instances,
                decode_tp: decode.parallel.tp,
                link_bytes_per_s,
            };
            let (prefill_rate, decode_rate, gpus) = split_rates(&split, prefill, decode);
            let rate = prefill_rate.min(decode_rate);
            let score = (rate, rate / f64::from(gpus), gpus);
            if beats_per_gpu(score, best.as_ref().map(|b| b.1)) {
                best = Some((split, score));
            }
        }
    }
    (best, evaluated)
}
