//! The disaggregated simulation: the same seeded requests through x prefill instances (whole
//! prompts, first come first served, each to the instance that frees first), the KV transfer, then
//! y decode instances (continuous batching, decode-only steps, each bounded by its KV pool and its
//! cap, requests dealt round-robin in the order their KV arrives); swept over rates like the
//! colocated replica so attainment and goodput are read the same way.
//!
//! TTFT here is arrival to the decode instance's admission: queue + prefill + transfer + any wait
//! for a decode slot (cap or KV pool). TPOT is (last token - that moment) / (output - 1).

use serde::{Deserialize, Serialize};

use super::cost::StepCost;
use super::stats::{summarize_after, RatePoint};
use super::steady::{overloaded, warmup_requests};
use super::stepper::{run, Load, ReplicaConfig, Trace};
use super::sweep::{grid, kv_pool_tokens, sweep_seeds, unit_workload};
use super::sweep_result::Sweep;
use super::workload::Request;
use super::{LoadMode, SimConfig};
use crate::parallel::Parallelism;
use crate::placement::{decode_parallel, disaggregated, kv_transfer_s, Split};
use crate::scenario::Scenario;

/// The split a disaggregated sweep runs, and the knobs the colocated config does not carry.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DisaggConfig {
    pub split: Split,
    /// Most sequences one decode instance runs at once.
    pub decode_cap: u32,
    /// Highest system rate swept, in requests/s.
    pub rate_max_req_per_s: f64,
}

impl DisaggConfig {
    /// `split` on `config`'s scenario: the decode cap is `cap`, else the analytic decode
    /// instance's batch (its TPOT knee within its KV pool, [`disaggregated`]); the highest rate is
    /// twice the analytic system rate, else (when that serves nothing) the colocated sweep's top
    /// per GPU times the split's GPUs.
    pub fn new(config: &SimConfig, split: &Split, cap: Option<u32>) -> DisaggConfig {
        let analytic = disaggregated(&config.scenario, split, &config.percentile());
        let per_gpu_top = config.rate_max_req_per_s / f64::from(config.scenario.parallel.gpus());
        let twice = 2.0 * analytic.rate_req_per_s;
        let rate_max_req_per_s =
            if twice.is_finite() && twice > 0.0 { twice } else { per_gpu_top * f64::from(analytic.gpus) };
        DisaggConfig {
            split: *split,
            decode_cap: cap.unwrap_or(analytic.decode_batch).max(1),
            rate_max_req_per_s,
        }
    }

    /// x x TP_p + y x the decode instance's GPUs (TP_d, or the page's parallelism when its TP is TP_d:
    /// [`decode_parallel`], as the analytic split counts them).
    pub fn gpus(&self, scenario: &Scenario) -> u32 {
        let s = &self.split;
        s.prefill_instances.max(1) * s.prefill_tp.max(1)
            + s.decode_instances.max(1) * decode_parallel(scenario, s).gpus()
    }
}

/// Both sides' pricing and pools, gathered once per sweep.
#[derive(Clone, Copy, Debug)]
struct Sides {
    prefill: Scenario,
    prefill_cost: StepCost,
    prefill_pool_tokens: f64,
    decode_cost: StepCost,
    decode: ReplicaConfig,
    config: DisaggConfig,
}

impl Sides {
    fn new(config: &SimConfig, disagg_config: &DisaggConfig) -> Sides {
        let prefill =
            Scenario { parallel: Parallelism::tp(disagg_config.split.prefill_tp.max(1)), ..config.scenario };
        // The decode instances as the analytic split prices them (`placement::decode_parallel`).
        let decode_scenario =
            Scenario { parallel: decode_parallel(&config.scenario, &disagg_config.split), ..config.scenario };
        let decode = ReplicaConfig {
            chunk_tokens: config.chunk_tokens.max(1),
            max_concurrency: disagg_config.decode_cap.max(1),
            kv_pool_tokens: kv_pool_tokens(&decode_scenario),
            // The prompt's KV arrives whole: admission starts its decode at once.
            prefill_free: true,
            tpot_target_s: config.scenario.tpot_target_s,
        };
        Sides {
            prefill,
            prefill_cost: StepCost::new(&prefill),
            prefill_pool_tokens: kv_pool_tokens(&prefill),
            decode_cost: StepCost::new(&decode_scenario),
            decode,
            config: *disagg_config,
        }
    }
}

/// When each request's KV reaches the decode side (`None`: refused, its prompt outgrows a prefill
/// instance's KV pool). Whole prompts, FCFS, each to the prefill instance that frees first (the
/// lowest-numbered of equals); the transfer is a delay that does not occupy the instance.
fn prefill_side(reqs: &[Request], sides: &Sides) -> Vec<Option<f64>> {
    let mut free_s = vec![0.0_f64; sides.config.split.prefill_instances.max(1) as usize];
    reqs.iter()
        .map(|r| {
            if f64::from(r.prompt_tokens) > sides.prefill_pool_tokens {
                return None;
            }
            let (k, free) =
                free_s.iter().enumerate().fold(
                    (0, f64::INFINITY),
                    |best, (k, &f)| {
                        if f < best.1 {
                            (k, f)
                        } else {
                            best
                        }
                    },
                );
            let done_s = r.arrival_s.max(free) + sides.prefill_cost.prefill_s(r.prompt_tokens);
            free_s[k] = done_s;
            Some(done_s + kv_transfer_s(&sides.prefill, r.prompt_tokens, sides.config.split.link_bytes_per_s))
        })
        .collect()
}

/// One run of `reqs` (sorted by arrival) through the split: per request TTFT and TPOT as the
/// colocated [`Trace`] records them, totals summed over the decode instances.
fn run_split(reqs: &[Request], sides: &Sides) -> Trace {
    let n = reqs.len();
    let ready = prefill_side(reqs, sides);
    let mut trace = Trace {
        arrival_s: reqs.iter().map(|r| r.arrival_s).collect(),
        ttft_s: vec![f64::INFINITY; n],
        tpot_s: vec![f64::INFINITY; n],
        latency_s: vec![0.0; n],
        ..Trace::default()
    };
    let mut order: Vec<(f64, usize)> =
        ready.iter().enumerate().filter_map(|(i, t)| t.map(|t| (t, i))).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    trace.rejected = (n - order.len()) as u32;
    trace.steps = order.len() as u64;
    let y = sides.config.split.decode_instances.max(1) as usize;
    for j in 0..y {
        let ids: Vec<usize> = order.iter().skip(j).step_by(y).map(|&(_, i)| i).collect();
        let sub: Vec<Request> =
            order.iter().skip(j).step_by(y).map(|&(t, i)| Request { arrival_s: t, ..reqs[i] }).collect();
        let t = run(&sub, sides.decode, sides.decode_cost, Load::Open);
        for (k, &i) in ids.iter().enumerate() {
            let delay_s = sub[k].arrival_s - reqs[i].arrival_s;
            trace.ttft_s[i] = delay_s + t.ttft_s[k];
            trace.tpot_s[i] = t.tpot_s[k];
            trace.latency_s[i] = delay_s + t.latency_s[k];
        }
        add_totals(&mut trace, &t);
    }
    trace.in_system_integral_s = trace.latency_s.iter().filter(|l| l.is_finite()).sum();
    trace
}

/// Adds one decode instance's totals into the split's trace.
fn add_totals(total: &mut Trace, instance: &Trace) {
    total.duration_s = total.duration_s.max(instance.duration_s);
    total.batch_integral_s += instance.batch_integral_s;
    total.steps += instance.steps;
    total.preemptions += instance.preemptions;
    total.rejected += instance.rejected;
    total.decode_tokens += instance.decode_tokens;
    total.decode_tokens_on_time += instance.decode_tokens_on_time;
    total.kv_tokens_peak = total.kv_tokens_peak.max(instance.kv_tokens_peak);
    total.batch_peak = total.batch_peak.max(instance.batch_peak);
}

/// One open-load level of the split at `rate` requests/s (the whole system's rate), with the
/// colocated run's warm-up (every decode instance's cap) and overload test.
fn level(config: &SimConfig, unit: &[Request], sides: &Sides, rate: f64) -> RatePoint {
    let rate = if rate.is_finite() && rate > 0.0 { rate } else { f64::MIN_POSITIVE };
    let reqs: Vec<Request> = unit.iter().map(|r| Request { arrival_s: r.arrival_s / rate, ..*r }).collect();
    let trace = run_split(&reqs, sides);
    let slots = sides.decode.max_concurrency.saturating_mul(sides.config.split.decode_instances.max(1));
    let warmup = warmup_requests(slots, reqs.len());
    let targets = (config.scenario.ttft_target_s, config.scenario.tpot_target_s);
    let p = summarize_after(&reqs, &trace, targets, rate, warmup);
    RatePoint { overloaded: overloaded(&trace, warmup, targets.0), ..p }
}

/// The split run once at `rate_req_per_s` (open load; the system's rate, not per GPU).
pub fn simulate_disaggregated(
    config: &SimConfig,
    disagg_config: &DisaggConfig,
    rate_req_per_s: f64,
) -> RatePoint {
    level(config, &unit_workload(config), &Sides::new(config, disagg_config), rate_req_per_s)
}

/// The split swept over open-load rates up to `disagg_config.rate_max_req_per_s` on `config`'s grid
/// size, goodput read as the colocated sweep reads it; `None` under closed load (not simulated
/// disaggregated).
/// The sweep's `kv_pool_tokens` is one decode instance's.
pub fn sweep_disaggregated(
    config: &SimConfig,
    disagg_config: &DisaggConfig,
    progress: impl FnMut(u32, u32),
) -> Option<Sweep> {
    if config.load != LoadMode::Open {
        return None;
    }
    let sides = Sides::new(config, disagg_config);
    let levels = grid(&SimConfig { rate_max_req_per_s: disagg_config.rate_max_req_per_s, ..config.clone() });
    let mut sweep = sweep_seeds(config, levels, |cs, unit, x| level(cs, unit, &sides, x), progress);
    sweep.kv_pool_tokens = sides.decode.kv_pool_tokens;
    Some(sweep)
}
