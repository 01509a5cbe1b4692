//! The simulator's controls at the edge: URL keys validated into [`SimInputs`], the sweep config
//! they describe, and their canonical query pairs.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::fields::{InputField, NumberField};
use super::fleet::FleetInputs;
/// The id of a value among a menu's rows (the page's menus still name it here).
pub use super::read::choice_id;
use super::read::{self, UrlId};
use super::{Notice, RawQuery};
use crate::core::placement::{Percentile, PlacementMode};
use crate::core::plan::SimPlan;
use crate::core::roofline::{analyze, Analysis, MAX_BATCH};
use crate::core::scenario::Scenario;
use crate::core::sim::{
    auto_rate_max, Arrivals, Counting, DisaggConfig, LengthDist, Lengths, LoadMode, SimConfig,
};
use crate::core::traffic::RequestTrace;

/// Arrival process, as chosen (the burst size lives beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArrivalKind {
    Poisson,
    Constant,
    Bursty,
}

impl UrlId for ArrivalKind {
    const VARIANTS: &'static [ArrivalKind] =
        &[ArrivalKind::Poisson, ArrivalKind::Constant, ArrivalKind::Bursty];

    fn url_id(self) -> &'static str {
        match self {
            ArrivalKind::Poisson => "poisson",
            ArrivalKind::Constant => "constant",
            ArrivalKind::Bursty => "bursty",
        }
    }
}

/// Every simulator control, validated; `None` means "automatic".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimInputs {
    /// The simulator panel is open (`sim=1`).
    pub open: bool,
    pub load: LoadMode,
    pub counting: Counting,
    pub arrivals: ArrivalKind,
    /// Coefficient of variation of bursty gaps.
    pub burst_cv: f64,
    pub lengths: LengthDist,
    /// Coefficient of variation of prompt and output lengths (0.5 = 50%).
    pub length_cv: f64,
    pub requests: u32,
    pub seed: u64,
    /// Seeds run per rate (`seed`, `seed + 1`, ...).
    pub seeds: u32,
    pub chunk_tokens: u32,
    /// Concurrency cap; `None` follows the analytic knee.
    pub cap: Option<u32>,
    pub prefill_free: bool,
    /// Share of requests that must meet both targets, in (0, 1].
    pub attainment_target: f64,
    /// Highest rate swept, in requests/s; `None` is twice the analytic rate at the knee.
    pub rate_max_req_per_s: Option<f64>,
    pub rate_points: u32,
    /// The fleet run beside the sweep: replicas, the offload tier and synthetic sessions.
    pub fleet: FleetInputs,
}

impl Default for SimInputs {
    /// Poisson arrivals, log-normal lengths (50% spread), 2,000 requests, a 512-token step budget
    /// (the step budget of the peer benchmark), cap at the knee, 90% attainment (DistServe).
    fn default() -> Self {
        SimInputs {
            open: false,
            load: LoadMode::Open,
            counting: Counting::Requests,
            arrivals: ArrivalKind::Poisson,
            burst_cv: 2.0,
            lengths: LengthDist::LogNormal,
            length_cv: 0.5,
            requests: 2000,
            seed: 1,
            seeds: DEFAULT_SEEDS,
            chunk_tokens: 512,
            cap: None,
            prefill_free: false,
            attainment_target: 0.9,
            rate_max_req_per_s: None,
            rate_points: 16,
            fleet: FleetInputs::default(),
        }
    }
}

pub const BURST: NumberField = NumberField::new("burst", "Burstiness (gap CV)", "×", (1.1, 10.0));
pub const LENGTH_CV: NumberField =
    NumberField::new("spread", "Length spread (CV)", "%", (0.0, 200.0)).scaled(0.01);
pub const REQUESTS: NumberField =
    NumberField::new("requests", "Requests per rate", "requests", (100.0, 20_000.0)).whole();
pub const SEED: NumberField = NumberField::new("seed", "Random seed", "", (0.0, 4_294_967_295.0)).whole();
/// Seeds per rate by default: enough that the seed scenario's goodput (the worked example, p90,
/// fixed or log-normal lengths) stays within 2% of its median (tests/it/sim_steady.rs measures it).
pub const DEFAULT_SEEDS: u32 = 7;
pub const SEEDS: NumberField = NumberField::new("seeds", "Seeds per rate", "seeds", (1.0, 16.0)).whole();
pub const CHUNK: NumberField =
    NumberField::new("chunk", "Step token budget", "tokens", (16.0, 65_536.0)).whole();
pub const CAP: NumberField =
    NumberField::new("cap", "Concurrency cap", "sequences", (1.0, MAX_BATCH as f64)).whole();
pub const ATTAIN: NumberField =
    NumberField::new("attain", "Attainment target", "%", (1.0, 100.0)).scaled(0.01);
pub const RATE_MAX: NumberField = NumberField::new("rate_max", "Highest rate swept", "req/s", (0.01, 1e6));
pub const POINTS: NumberField = NumberField::new("points", "Rates swept", "rates", (4.0, 64.0)).whole();

/// [`BURST`] in the simulator's inputs.
pub const BURST_INPUT: InputField = BURST.bound(|i| i.sim.burst_cv, |i, v| i.sim.burst_cv = v);
/// [`LENGTH_CV`] in the simulator's inputs.
pub const LENGTH_CV_INPUT: InputField = LENGTH_CV.bound(|i| i.sim.length_cv, |i, v| i.sim.length_cv = v);
/// [`REQUESTS`] in the simulator's inputs.
pub const REQUESTS_INPUT: InputField =
    REQUESTS.bound(|i| f64::from(i.sim.requests), |i, v| i.sim.requests = v as u32);
/// [`SEED`] in the simulator's inputs.
pub const SEED_INPUT: InputField = SEED.bound(|i| i.sim.seed as f64, |i, v| i.sim.seed = v as u64);
/// [`SEEDS`] in the simulator's inputs.
pub const SEEDS_INPUT: InputField = SEEDS.bound(|i| f64::from(i.sim.seeds), |i, v| i.sim.seeds = v as u32);
/// [`ATTAIN`] in the simulator's inputs.
pub const ATTAIN_INPUT: InputField =
    ATTAIN.bound(|i| i.sim.attainment_target, |i, v| i.sim.attainment_target = v);
/// [`POINTS`] in the simulator's inputs.
pub const POINTS_INPUT: InputField =
    POINTS.bound(|i| f64::from(i.sim.rate_points), |i, v| i.sim.rate_points = v as u32);

/// The `pct` presets: every request, p90, p99, as attainment targets.
pub const PERCENTILES: [(&str, f64); 3] = [("all", 1.0), ("p90", 0.9), ("p99", 0.99)];
/// The menus' (id, value) rows; each enum's in its [`UrlId`] order (tests/it/url_flags.rs holds them equal).
pub const LOADS: [(&str, LoadMode); 2] = [("open", LoadMode::Open), ("closed", LoadMode::Closed)];
pub const COUNTINGS: [(&str, Counting); 2] = [("requests", Counting::Requests), ("tokens", Counting::Tokens)];
pub const ARRIVALS: [(&str, ArrivalKind); 3] =
    [("poisson", ArrivalKind::Poisson), ("constant", ArrivalKind::Constant), ("bursty", ArrivalKind::Bursty)];
pub const LENGTHS: [(&str, LengthDist); 3] =
    [("fixed", LengthDist::Fixed), ("uniform", LengthDist::Uniform), ("lognormal", LengthDist::LogNormal)];
/// `prefill=`: chunked prefill in the step budget, or prefill for free (the value is `prefill_free`).
pub const PREFILLS: [(&str, bool); 2] = [("chunked", false), ("free", true)];

/// Validates the simulator's keys.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> SimInputs {
    let defaults = SimInputs::default();
    let pct = read::choice_by(raw, "pct", &PERCENTILES, defaults.attainment_target, notices);
    let whole = |field: &NumberField, default: u32, notices: &mut Vec<Notice>| {
        read::number(raw, field, f64::from(default), notices) as u32
    };
    SimInputs {
        open: read::flag(raw, "sim", notices),
        load: read::choice(raw, "load", defaults.load, notices),
        counting: read::choice(raw, "count", defaults.counting, notices),
        arrivals: read::choice(raw, "arrivals", defaults.arrivals, notices),
        burst_cv: read::number(raw, &BURST, defaults.burst_cv, notices),
        lengths: read::choice(raw, "lengths", defaults.lengths, notices),
        length_cv: read::number(raw, &LENGTH_CV, defaults.length_cv, notices),
        requests: whole(&REQUESTS, defaults.requests, notices),
        seed: read::number(raw, &SEED, defaults.seed as f64, notices) as u64,
        seeds: whole(&SEEDS, defaults.seeds, notices),
        chunk_tokens: whole(&CHUNK, defaults.chunk_tokens, notices),
        cap: read::number_or_auto(raw, &CAP, notices).map(|cap| cap as u32),
        prefill_free: read::choice_by(raw, "prefill", &PREFILLS, defaults.prefill_free, notices),
        attainment_target: read::number(raw, &ATTAIN, pct, notices),
        rate_max_req_per_s: read::number_or_auto(raw, &RATE_MAX, notices),
        rate_points: whole(&POINTS, defaults.rate_points, notices),
        fleet: super::fleet::read(raw, notices),
    }
}

impl SimInputs {
    /// The concurrency cap in force: the chosen one, else the analytic knee (within the pool),
    /// at least 1.
    pub fn cap_for(&self, analysis: &Analysis) -> u32 {
        self.cap.unwrap_or(analysis.server_batch).max(1)
    }

    /// The highest rate swept: the chosen one, else [`auto_rate_max`].
    pub fn rate_max_for(&self, scenario: &Scenario, analysis: &Analysis) -> f64 {
        self.rate_max_req_per_s.unwrap_or_else(|| auto_rate_max(scenario, analysis))
    }

    /// The sweep these controls describe on `s`.
    pub fn config(&self, scenario: &Scenario) -> SimConfig {
        let analysis = analyze(scenario);
        let arrivals = match self.arrivals {
            ArrivalKind::Poisson => Arrivals::Poisson,
            ArrivalKind::Constant => Arrivals::Constant,
            ArrivalKind::Bursty => Arrivals::Bursty { cv: self.burst_cv },
        };
        SimConfig {
            scenario: *scenario,
            arrivals,
            lengths: Lengths { dist: self.lengths, length_cv: self.length_cv },
            requests: self.requests,
            seed: self.seed,
            seeds: self.seeds.max(1),
            chunk_tokens: self.chunk_tokens,
            max_concurrency: self.cap_for(&analysis),
            load: self.load,
            counting: self.counting,
            attainment_target: self.attainment_target,
            rate_max_req_per_s: self.rate_max_for(scenario, &analysis),
            rate_points: self.rate_points,
            prefill_free: self.prefill_free,
            trace: None,
        }
    }

    /// Query pairs in canonical order: every key while the panel is open (a link reproduces the
    /// sweep), only those off their defaults while it is closed. The attainment target is written
    /// as `pct` when it is one of its presets, else as `attain`.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let d = SimInputs::default();
        // Numbers compare as written (3 decimals), so a link written from a value that rounds to its
        // default (or to a `pct` preset) reads back to a state that writes the same link.
        let attain = ATTAIN.write(self.attainment_target);
        let pct = PERCENTILES.iter().find(|(_, a)| ATTAIN.write(*a) == attain).map(|(id, _)| *id);
        let target = match pct {
            Some(id) => ("pct", id.to_string(), attain != ATTAIN.write(d.attainment_target)),
            None => ("attain", attain, true),
        };
        let number = |f: &NumberField, x: f64, default: f64| (f.write(x), f.write(x) != f.write(default));
        let (burst, burst_changed) = number(&BURST, self.burst_cv, d.burst_cv);
        let (length_cv, length_cv_changed) = number(&LENGTH_CV, self.length_cv, d.length_cv);
        let all = [
            ("load", self.load.url_id().into(), self.load != d.load),
            ("count", self.counting.url_id().into(), self.counting != d.counting),
            ("arrivals", self.arrivals.url_id().into(), self.arrivals != d.arrivals),
            ("burst", burst, burst_changed),
            ("lengths", self.lengths.url_id().into(), self.lengths != d.lengths),
            ("spread", length_cv, length_cv_changed),
            ("requests", REQUESTS.write(f64::from(self.requests)), self.requests != d.requests),
            ("seed", SEED.write(self.seed as f64), self.seed != d.seed),
            ("seeds", SEEDS.write(f64::from(self.seeds)), self.seeds != d.seeds),
            ("chunk", CHUNK.write(f64::from(self.chunk_tokens)), self.chunk_tokens != d.chunk_tokens),
            ("cap", self.cap.map_or("auto".into(), |c| CAP.write(f64::from(c))), self.cap.is_some()),
            ("prefill", choice_id(&PREFILLS, self.prefill_free).into(), self.prefill_free),
            target,
            (
                "rate_max",
                self.rate_max_req_per_s.map_or("auto".into(), |r| RATE_MAX.write(r)),
                self.rate_max_req_per_s.is_some(),
            ),
            ("points", POINTS.write(f64::from(self.rate_points)), self.rate_points != d.rate_points),
        ];
        let open = self.open.then(|| ("sim", read::flag_word(true).to_string()));
        let rest = all.into_iter().filter(|(_, _, changed)| self.open || *changed).map(|(k, v, _)| (k, v));
        open.into_iter().chain(rest).chain(self.fleet.pairs()).collect()
    }
}

impl super::Inputs {
    /// What every analytic capacity number is read at: the simulator's attainment target over its
    /// lengths' spread (one percentile across the page's panels).
    pub fn percentile(&self) -> Percentile {
        Percentile {
            share: self.sim.attainment_target,
            length_cv: Lengths { dist: self.sim.lengths, length_cv: self.sim.length_cv }.cv(),
        }
    }

    /// What a sweep of this state simulates, derived once per request and carried by each of its
    /// jobs: the simulator's config on the scenario and, disaggregated under open load, the split
    /// (its decode cap the simulator's cap, else the analytic decode batch).
    /// The trace is the `trace` key's when it is inline (a summary needs the page's loaded trace:
    /// [`Inputs::sim_plan_with`]).
    pub fn sim_plan(&self) -> SimPlan {
        let inline = match super::trace::url::resolve(&self.trace, None) {
            super::trace::url::Resolve::Inline(trace) => Some(Arc::new(trace)),
            _ => None,
        };
        self.sim_plan_with(inline)
    }

    /// [`Inputs::sim_plan`] replaying `trace` (the page's loaded trace), if any.
    pub fn sim_plan_with(&self, trace: Option<Arc<RequestTrace>>) -> SimPlan {
        let config = SimConfig { trace, ..self.sim.config(&self.scenario) };
        let split = self.placement.mode == PlacementMode::Disaggregated && config.load == LoadMode::Open;
        let placement = split.then(|| DisaggConfig::new(&config, &self.placement.split, self.sim.cap));
        let fleet = self.sim.fleet.open.then(|| self.fleet_plan(&config));
        SimPlan { config, placement, fleet }
    }
}
