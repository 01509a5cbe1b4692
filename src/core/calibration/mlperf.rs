//! Goodput checked end to end against MLPerf: each Server or Interactive row run in the simulator at
//! its own configuration, the highest Poisson rate whose simulated p99 TTFT and p99 TPOT meet the
//! row's limits, and that goodput beside MLPerf's and beside the same system's Offline maximum.
//!
//! A row's run, and what it assumes:
//! - one replica of the row's parallelism ([`PublishedPoint::parallelism`]) is simulated; the system's
//!   replicas = GPUs / the replica's GPUs each take an equal Poisson share of the arrivals (a random
//!   split of a Poisson stream is Poisson), so the system's rate is replicas x the replica's;
//! - the batch cap and the step's token budget are the ones the row's `notes` name
//!   ([`config_from_notes`]); where the notes name none, the cap is the page's default (the batch
//!   at the knee or the KV pool, `Analysis::server_batch`) and the budget the engines' documented
//!   default, [`DEFAULT_TOKEN_BUDGET`]; the KV pool is the page's (90% of HBM less the weights);
//! - the cost model is the measured engines' ([`CostModel::Measured`] with the row's engine) at the
//!   row's own engine release ([`super::transfer::Profile::run_factor`]: every step that much longer);
//! - prompts are log-normal at the dataset's mean and CV ([`dataset_of`], from the shared README),
//!   clipped at the dataset's longest prompt; answers are the row's mean output: fixed for
//!   CNN/DailyMail (capped at 128), log-normal at the prompts' CV for OpenOrca (the README states
//!   no output CV; the simulator's one-CV convention), clipped at 1,024;
//! - a rate meets the targets when the p99 TTFT and p99 TPOT of the requests after the warm-up
//!   (`sim::warmup_requests`) are within the limits and the run is not overloaded
//!   (`sim::overloaded`), over [`REQUESTS`] requests drawn from one fixed seed.

use super::profile::PROFILE;
use super::published::{PublishedPoint, UseClass};
use super::range::LikelyRange;
use super::CostModel;
use crate::presets::{gpu_by_id, model_by_id};
use crate::roofline::analyze;
use crate::scenario::{Scenario, WORKED_EXAMPLE};
use crate::sim::{
    kv_pool_tokens, overloaded, requests, run, summarize_after, warmup_requests, Arrivals, LengthDist,
    Lengths, Load, RatePoint, ReplicaConfig, Request, StepCost,
};

mod search;
pub use search::{
    batch_check, compare, search_rate_per_s, summarize, BatchCheck, Comparison, Summary, RATE_TOLERANCE,
};

/// Requests one simulated run draws.
pub const REQUESTS: u32 = 4000;
/// The seed every run draws its requests from.
pub const SEED: u64 = 1;
/// The step's token budget where the notes name none: TensorRT-LLM's `max_num_tokens`, vLLM V1's
/// `max_num_batched_tokens` on large GPUs and SGLang's `chunked_prefill_size` all default to 8,192.
pub const DEFAULT_TOKEN_BUDGET: u32 = 8192;

/// A row's batch cap (sequences running at once per replica) and step token budget, as its notes
/// name them; `None` where they do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotesConfig {
    pub batch_cap: Option<u32>,
    pub token_budget: Option<u32>,
}

/// The number after the first `key ` in `text` (digits, commas allowed), if any.
fn number_after(text: &str, key: &str) -> Option<u32> {
    let at = text.find(key)? + key.len();
    let digits: String = text[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The batch cap and token budget a row's notes name: the cap from `gpu_batch_size N`,
/// `max_num_seqs N`, `max_batch_size N` or `batch N` (the first of these found, in that order), the
/// budget from `max_num_batched_tokens N` or `max_num_tokens N`; vLLM's flags (`--max-num-seqs N`,
/// `--max-num-batched-tokens N`) count as their config names.
pub fn config_from_notes(notes: &str) -> NotesConfig {
    let first = |keys: &[&str]| keys.iter().find_map(|k| number_after(notes, k));
    NotesConfig {
        batch_cap: first(&["gpu_batch_size ", "max_num_seqs ", "max-num-seqs ", "max_batch_size ", "batch "]),
        token_budget: first(&["max_num_batched_tokens ", "max-num-batched-tokens ", "max_num_tokens "]),
    }
}

/// The p99 TTFT and p99 TPOT limits of a row's `slo` (`p99 TTFT<=2000 ms, p99 TPOT<=200 ms`), in s.
pub fn targets_from_slo(slo: &str) -> Option<(f64, f64)> {
    let limit = |key: &str| -> Option<f64> {
        let at = slo.find(key)? + key.len();
        let text: String = slo[at..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        text.parse::<f64>().ok().map(|ms| ms * 1e-3)
    };
    Some((limit("p99 TTFT<=")?, limit("p99 TPOT<=")?))
}

/// An MLPerf dataset's lengths as the shared README gives them, in tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dataset {
    pub name: &'static str,
    pub prompt_mean_tokens: f64,
    pub prompt_cv: f64,
    pub prompt_max_tokens: u32,
    /// Answers are the row's mean, fixed (CNN/DailyMail's 128 cap) rather than drawn.
    pub output_fixed: bool,
    pub output_max_tokens: u32,
}

pub const CNN_DAILYMAIL: Dataset = Dataset {
    name: "CNN/DailyMail",
    prompt_mean_tokens: 871.0,
    prompt_cv: 0.49,
    prompt_max_tokens: 2540,
    output_fixed: true,
    output_max_tokens: 128,
};
pub const OPEN_ORCA: Dataset = Dataset {
    name: "OpenOrca",
    prompt_mean_tokens: 222.0,
    prompt_cv: 0.77,
    prompt_max_tokens: 1024,
    output_fixed: false,
    output_max_tokens: 1024,
};

/// The dataset and model preset of a row's model: Llama 3.1 8B on CNN/DailyMail; Llama 2 70B and
/// Llama 3.1 70B on OpenOrca, priced as the Llama 3.1 70B preset (the same layers, hidden size and
/// KV heads). `None` for the rest (Llama 3.1 405B, DeepSeek-R1: the README gives no lengths).
pub fn dataset_of(model_label: &str) -> Option<(Dataset, &'static str)> {
    let l = model_label.to_ascii_lowercase();
    if l.contains("llama-3.1-8b") {
        Some((CNN_DAILYMAIL, "llama-3.1-8b"))
    } else if l.contains("llama-2-70b") || l.contains("llama-3.1-70b") {
        Some((OPEN_ORCA, "llama-3.1-70b"))
    } else {
        None
    }
}

/// One MLPerf row with the three columns the typed rows leave out.
#[derive(Clone, Copy, Debug)]
pub struct MlperfRow<'a> {
    pub point: &'a PublishedPoint,
    pub notes: &'a str,
    pub slo: &'a str,
    /// The `concurrency` column: requests in flight system-wide from Little's law
    /// (`~4369 in flight (Little's law, system-wide)`).
    pub concurrency: &'a str,
}

/// Requests in flight system-wide that a row's `concurrency` column states, if any.
pub fn in_flight_of(concurrency: &str) -> Option<f64> {
    let text = concurrency.trim().trim_start_matches('~');
    text.split_whitespace().next()?.replace(',', "").parse().ok()
}

/// A row ready to simulate: one replica's scenario and server, its drawn requests at unit rate.
#[derive(Clone, Debug)]
pub struct RowSim {
    pub scenario: Scenario,
    pub server: ReplicaConfig,
    pub dataset: Dataset,
    pub replicas: u32,
    /// GPUs of one replica.
    pub replica_gpus: u32,
    /// The drawn requests, arriving at 1 request/s.
    pub unit: Vec<Request>,
}

impl RowSim {
    /// The row's simulation, `None` when its model, GPU, dataset or limits are not known.
    pub fn of(row: &MlperfRow, requests_per_run: u32) -> Option<RowSim> {
        let p = row.point;
        let (dataset, model_id) = dataset_of(p.model_label)?;
        let (ttft_target_s, tpot_target_s) = targets_from_slo(row.slo)?;
        let osl = p.osl_mean.min(f64::from(dataset.output_max_tokens));
        let isl = dataset.prompt_mean_tokens;
        let scenario = Scenario {
            model: *model_by_id(model_id)?,
            gpu: *gpu_by_id(p.gpu_id)?,
            weight_precision: p.weight_precision,
            kv_precision: p.kv_precision,
            parallel: p.parallelism(),
            calibration: CostModel::Measured(p.engine),
            ttft_target_s,
            tpot_target_s,
            ..WORKED_EXAMPLE
        };
        let scenario = super::predict::at_run_lengths(scenario, isl, osl);
        // The measured profile prices the newest release in the data; the row ran its own, older one.
        let release = PROFILE.run_factor(p);
        let scenario = if release == 1.0 { scenario } else { LikelyRange::scaled(&scenario, release) };
        let notes = config_from_notes(row.notes);
        let server = ReplicaConfig {
            chunk_tokens: notes.token_budget.unwrap_or(DEFAULT_TOKEN_BUDGET),
            max_concurrency: notes.batch_cap.unwrap_or_else(|| analyze(&scenario).server_batch).max(1),
            kv_pool_tokens: kv_pool_tokens(&scenario),
            prefill_free: false,
            tpot_target_s,
        };
        let replica_gpus = p.parallelism().gpus().max(1);
        let replicas = p.replicas();
        let unit = draw(dataset, (isl, osl), requests_per_run);
        Some(RowSim { scenario, server, dataset, replicas, replica_gpus, unit })
    }

    /// One run of one replica at `rate_per_s` (its own Poisson share), read after the warm-up.
    pub fn run_at(&self, rate_per_s: f64) -> RatePoint {
        let rate = if rate_per_s.is_finite() && rate_per_s > 0.0 { rate_per_s } else { f64::MIN_POSITIVE };
        let reqs: Vec<Request> =
            self.unit.iter().map(|r| Request { arrival_s: r.arrival_s / rate, ..*r }).collect();
        let cost = StepCost::new(&self.scenario).seeded(SEED);
        let trace = run(&reqs, self.server, cost, Load::Open);
        let warmup = warmup_requests(self.server.max_concurrency, reqs.len());
        let targets = (self.scenario.ttft_target_s, self.scenario.tpot_target_s);
        let point = summarize_after(&reqs, &trace, targets, rate, warmup);
        RatePoint { overloaded: overloaded(&trace, warmup, targets.0), ..point }
    }

    /// Whether a run meets the row's limits: p99 TTFT and p99 TPOT within them (every measured request
    /// served) and the run not overloaded.
    pub fn meets(&self, point: &RatePoint) -> bool {
        let within = |p99: Option<f64>, limit_s: f64| p99.is_some_and(|x| x <= limit_s);
        within(point.ttft.p99_s, self.scenario.ttft_target_s)
            && within(point.tpot.p99_s, self.scenario.tpot_target_s)
            && !point.overloaded
    }

    /// What a run misses first: `"p99 TTFT"`, `"p99 TPOT"`, `"overloaded"`, or `""` when it meets
    /// the limits.
    pub fn missed(&self, point: &RatePoint) -> &'static str {
        let over = |p99: Option<f64>, limit_s: f64| p99.is_none_or(|x| x > limit_s);
        match () {
            _ if over(point.ttft.p99_s, self.scenario.ttft_target_s) => "p99 TTFT",
            _ if over(point.tpot.p99_s, self.scenario.tpot_target_s) => "p99 TPOT",
            _ if point.overloaded => "overloaded",
            _ => "",
        }
    }

    /// Output tokens/s per GPU of the whole system when each replica takes `rate_per_s`.
    pub fn output_tokens_per_s_per_gpu(&self, rate_per_s: f64) -> f64 {
        let mean_out =
            self.unit.iter().map(|r| f64::from(r.output_tokens)).sum::<f64>() / self.unit.len().max(1) as f64;
        rate_per_s * mean_out / f64::from(self.replica_gpus)
    }
}

/// The requests at 1 request/s: Poisson gaps, prompts log-normal at the dataset's CV and answers
/// as [`Dataset`] says, each clipped at the dataset's longest.
fn draw(dataset: Dataset, means: (f64, f64), count: u32) -> Vec<Request> {
    let lengths = Lengths { dist: LengthDist::LogNormal, length_cv: dataset.prompt_cv };
    let mut reqs = requests(Arrivals::Poisson, lengths, means, count, 1.0, SEED);
    let fixed_out = means.1.round().max(1.0) as u32;
    for r in &mut reqs {
        r.prompt_tokens = r.prompt_tokens.min(dataset.prompt_max_tokens);
        r.output_tokens =
            if dataset.output_fixed { fixed_out } else { r.output_tokens.min(dataset.output_max_tokens) };
    }
    reqs
}

/// The same system's Offline row: same GPU, model, weight precision, a ceiling; among several, the
/// one from the same source and engine first.
pub fn offline_of<'a>(point: &PublishedPoint, points: &'a [PublishedPoint]) -> Option<&'a PublishedPoint> {
    let model = |p: &PublishedPoint| p.model_label.split(" (").next().unwrap_or("").to_string();
    let same = |o: &&PublishedPoint| {
        o.use_class == UseClass::Ceiling
            && o.gpu_id == point.gpu_id
            && model(o) == model(point)
            && o.weight_precision == point.weight_precision
    };
    let candidates: Vec<&PublishedPoint> = points.iter().filter(same).collect();
    let best = candidates.iter().find(|o| o.source == point.source && o.engine == point.engine);
    best.or(candidates.first()).copied()
}
