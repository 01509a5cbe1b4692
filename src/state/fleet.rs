//! The fleet run's keys: `fleet` (run it beside the sweep), `replicas`, `tier` (host memory per GPU
//! for offloaded KV), and the synthetic sessions' `turns`, `think` and `newtok`, validated with a
//! notice for each bad value, their fields and their canonical query pairs; and the fleet plan they
//! describe on a scenario.

use serde::{Deserialize, Serialize};

use super::fields::{InputField, NumberField};
use super::read;
use super::{Notice, RawQuery};
use crate::core::capacity::{gpus_for, unit_point, Placing};
use crate::core::placement::PlacementMode;
use crate::core::plan::FleetPlan;
use crate::core::roofline::kv_bytes_per_held_token;
use crate::core::scenario::Scenario;
use crate::core::sim::{kv_pool_tokens, SimConfig};
use crate::core::spec::Speculation;
use crate::core::traffic::{FleetConfig, OffloadTier, Routing, SessionSpec};

/// Every fleet control, validated; `replicas: None` follows the capacity plan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetInputs {
    /// The fleet comparison runs beside the sweep (`fleet=1`).
    pub open: bool,
    /// Replicas behind the router; `None` is the capacity plan's count for the page's load.
    pub replicas: Option<u32>,
    /// Host (CPU) memory per GPU the offload tier may fill, in bytes (0: no tier).
    pub tier_bytes_per_gpu: f64,
    /// Turns per synthetic session (used when no trace is loaded).
    pub turns: u32,
    /// Mean think time between an answer and the next turn, in s.
    pub think_s: f64,
    /// New user tokens each later turn adds to the context.
    pub new_tokens: u32,
}

impl Default for FleetInputs {
    /// Off; replicas from the capacity plan; 256 GB of host memory per GPU (2 TB on an 8-GPU node,
    /// a common DGX-class configuration); 4 turns, 10 s of think time, 256 new tokens a turn.
    fn default() -> Self {
        FleetInputs {
            open: false,
            replicas: None,
            tier_bytes_per_gpu: 256e9,
            turns: 4,
            think_s: 10.0,
            new_tokens: 256,
        }
    }
}

pub const REPLICAS: NumberField = NumberField::new("replicas", "Replicas", "replicas", (1.0, 64.0)).whole();
pub const TIER: NumberField =
    NumberField::new("tier", "Host memory for KV, per GPU", "GB", (0.0, 4096.0)).scaled(1e9);
pub const TURNS: NumberField = NumberField::new("turns", "Turns per session", "turns", (1.0, 64.0)).whole();
pub const THINK: NumberField = NumberField::new("think", "Think time", "s", (0.0, 3600.0));
pub const NEW_TOKENS: NumberField =
    NumberField::new("newtok", "New tokens per turn", "tokens", (1.0, 65_536.0)).whole();

/// [`TIER`] in the fleet inputs.
pub const TIER_INPUT: InputField =
    TIER.bound(|i| i.sim.fleet.tier_bytes_per_gpu, |i, v| i.sim.fleet.tier_bytes_per_gpu = v.max(0.0));
/// [`TURNS`] in the fleet inputs.
pub const TURNS_INPUT: InputField =
    TURNS.bound(|i| f64::from(i.sim.fleet.turns), |i, v| i.sim.fleet.turns = v as u32);
/// [`THINK`] in the fleet inputs.
pub const THINK_INPUT: InputField =
    THINK.bound(|i| i.sim.fleet.think_s, |i, v| i.sim.fleet.think_s = v.max(0.0));
/// [`NEW_TOKENS`] in the fleet inputs.
pub const NEW_TOKENS_INPUT: InputField =
    NEW_TOKENS.bound(|i| f64::from(i.sim.fleet.new_tokens), |i, v| i.sim.fleet.new_tokens = v as u32);

/// Validates the fleet's keys; a bad value falls back to its default with a notice.
pub fn read(raw: &RawQuery, notices: &mut Vec<Notice>) -> FleetInputs {
    let d = FleetInputs::default();
    let whole = |field: &NumberField, default: u32, notices: &mut Vec<Notice>| {
        read::number(raw, field, f64::from(default), notices) as u32
    };
    FleetInputs {
        open: read::flag(raw, "fleet", notices),
        replicas: read::number_or_auto(raw, &REPLICAS, notices).map(|n| n as u32),
        tier_bytes_per_gpu: read::number(raw, &TIER, d.tier_bytes_per_gpu, notices),
        turns: whole(&TURNS, d.turns, notices),
        think_s: read::number(raw, &THINK, d.think_s, notices),
        new_tokens: whole(&NEW_TOKENS, d.new_tokens, notices),
    }
}

impl FleetInputs {
    /// Query pairs in canonical order: every key while the fleet runs, only those off their
    /// defaults otherwise (numbers compared as written).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let d = FleetInputs::default();
        let number =
            |f: &NumberField, x: f64, default: f64| (f.key, f.write(x), f.write(x) != f.write(default));
        let replicas = self.replicas.map_or("auto".into(), |n| REPLICAS.write(f64::from(n)));
        let all = [
            ("replicas", replicas, self.replicas.is_some()),
            number(&TIER, self.tier_bytes_per_gpu, d.tier_bytes_per_gpu),
            number(&TURNS, f64::from(self.turns), f64::from(d.turns)),
            number(&THINK, self.think_s, d.think_s),
            number(&NEW_TOKENS, f64::from(self.new_tokens), f64::from(d.new_tokens)),
        ];
        let open = self.open.then(|| ("fleet", read::flag_word(true).to_string()));
        let rest = all.into_iter().filter(|(_, _, changed)| self.open || *changed).map(|(k, v, _)| (k, v));
        open.into_iter().chain(rest).collect()
    }
}

/// Tokens per KV block of the synthetic sessions (vLLM's default block size).
pub const SESSION_BLOCK_TOKENS: u32 = 16;
/// Most replicas the fleet runs (the `replicas` key's top).
pub const REPLICAS_MAX: u32 = 64;

impl super::Inputs {
    /// The fleet the simulator runs beside the sweep `config`: `replicas` (else the capacity plan's
    /// colocated replicas for the page's load, 1 to [`REPLICAS_MAX`]) of the sweep's server (its
    /// step budget, cap and KV pool, on the scenario without speculative decoding), the tier of
    /// `tier` host bytes per GPU behind the GPU's host link, and the synthetic sessions: the page's
    /// load as session starts of `turns` turns (load / turns sessions per s), its `requests` / turns
    /// sessions, the shared prefix as their system prompt, the page's prompt and output lengths.
    pub fn fleet_plan(&self, config: &SimConfig) -> FleetPlan {
        let f = &self.sim.fleet;
        let scenario = Scenario { speculation: Speculation::OFF, ..self.scenario };
        let replicas = f.replicas.unwrap_or_else(|| self.planned_replicas()).clamp(1, REPLICAS_MAX);
        let held_token_bytes = kv_bytes_per_held_token(&scenario);
        let tier = (f.tier_bytes_per_gpu > 0.0).then(|| {
            let capacity_tokens = f.tier_bytes_per_gpu / held_token_bytes;
            OffloadTier::for_scenario(&scenario, capacity_tokens, scenario.gpu.host_link_bytes_per_s)
        });
        let fleet = FleetConfig {
            replicas,
            routing: Routing::RoundRobin,
            tier,
            chunk_tokens: config.chunk_tokens.max(1),
            max_concurrency: config.max_concurrency.max(1),
            kv_pool_tokens: kv_pool_tokens(&scenario),
            block_tokens: SESSION_BLOCK_TOKENS,
            ttft_target_s: scenario.ttft_target_s,
            tpot_target_s: scenario.tpot_target_s,
        };
        FleetPlan { config: fleet, sessions: self.sessions() }
    }

    /// The capacity plan's colocated replicas for the page's load (1 when it has no plan).
    pub fn planned_replicas(&self) -> u32 {
        let placing = Placing { mode: PlacementMode::Colocated, ..self.placing() };
        let unit = unit_point(&self.scenario, &placing);
        unit.map_or(1, |u| gpus_for(self.rate_req_per_s, u.rate_req_per_s, u.gpus) / u.gpus.max(1)).max(1)
    }

    /// The synthetic sessions ([`FleetInputs`]' turns, think time and new tokens on the page's load,
    /// lengths, shared prefix and seed).
    fn sessions(&self) -> SessionSpec {
        let f = &self.sim.fleet;
        let turns = f.turns.max(1);
        let system_tokens = self.scenario.prefix.prefix_tokens.min(self.scenario.prompt_tokens());
        SessionSpec {
            sessions: (self.sim.requests / turns).max(1),
            turns,
            session_rate_per_s: self.rate_req_per_s / f64::from(turns),
            system_tokens,
            first_tokens: (self.scenario.prompt_tokens() - system_tokens).max(1),
            new_tokens: f.new_tokens.max(1),
            output_tokens: self.scenario.output_tokens.max(1),
            think_s: f.think_s.max(0.0),
            seed: self.sim.seed,
        }
    }
}
