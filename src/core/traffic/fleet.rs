//! A fleet of N replicas replaying a trace or multi-turn sessions, request by request: each replica
//! runs continuous batching with chunked prefill over a KV pool in blocks that doubles as its prefix
//! cache (`BlockCache`), optionally backed by a CPU offload tier, and a router sends each arrival
//! to a replica (`Routing`). A finite simulated run from t = 0 until every request has left, not
//! a steady state: its percentiles include the run's start and end.
//!
//! Stated assumptions (the README's "Sessions, prefix reuse, offload and routing, stated"):
//! - Steps are priced by the simulator's `StepCost` (on its `StepLines`): `StepCost::step_s` of the
//!   replica's whole step (under DP > 1 the analytic step's even spread, not the rank engine).
//!   Speculative decoding is not modelled: every decode keeps one token a step, so a cost built
//!   with a drafter would charge its drafts for nothing; build it from a scenario without one.
//!   Each step decodes one token for every decoding sequence, then gives prompt chunks, first come
//!   first served, the rest of the step token budget (`chunk_tokens` less the decodes).
//! - Admission, first come first served on each replica (the preempted first) while fewer than
//!   `max_concurrency` run: a request takes the blocks of the tokens it prefills (ceil(prompt /
//!   block); after a preemption, its prompt and the tokens it had generated) less the blocks it hits
//!   on the GPU, which it shares (pinned while it runs, not copied); the queue's head waits while the
//!   pool, after evicting every unpinned cached block, cannot take it. A decode takes a new block
//!   each time its context crosses a block boundary; when none is left (after evicting every
//!   unpinned cached block) the latest started decode is preempted and later recomputed (vLLM's
//!   policy, the single-replica engine's). A request whose context (prompt + output) alone
//!   outgrows the pool is refused and counted. With one-token blocks and no reuse this is the
//!   engine's admission and preemption exactly (`tests/it/traffic_fleet.rs`).
//! - A hit: the prompt's hash chain is looked up on admission; hit tokens = min(hit blocks x block,
//!   prompt - 1) (the last prompt token is always computed, as in vLLM) and are not prefilled. A CPU
//!   hit of b blocks is copied back over the tier's link: b x block x KV bytes per token / link bytes
//!   per s, on the copy engine (overlapping other requests' steps), one copy at a time per replica;
//!   the request's prefill waits for its copy. Blocks a request computed become shareable cache
//!   blocks when its prefill completes (its answer's full blocks, for sessions, when it finishes); a
//!   trace request's answer has no hashes and is never reused.
//! - Offload traffic: every block evicted from the GPU is copied to the CPU tier (counted in
//!   `offloaded_blocks` and `offloaded_bytes`) and not charged: the copy runs on the copy engine,
//!   off any request's critical path (the evicted block is no longer needed on the GPU).
//! - Replicas are independent servers with their own clocks. The fleet always steps the busy
//!   replica whose clock is earliest, and first releases every arrival due by then, so routing sees
//!   each replica as of the end of the step it is running at the arrival instant.
//! - A trace replays at its recorded arrival times, its sessions open loop (a turn arrives when the
//!   trace says, whatever the simulated answer). Synthetic sessions are closed per session: turn
//!   k + 1 arrives a think time after turn k's last token; a refused turn ends its session.

mod replica;
mod report;
mod run;

use serde::{Deserialize, Serialize};

use super::route::Routing;
use super::sessions::SessionSpec;
use super::RequestTrace;
use crate::roofline::kv_bytes_per_held_token;
use crate::scenario::Scenario;
use crate::sim::{Percentiles, StepCost};

/// What the fleet replays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FleetWorkload<'a> {
    /// A recorded trace at its recorded times (open loop, sessions included).
    Trace(&'a RequestTrace),
    /// Synthetic multi-turn sessions (closed per session).
    Sessions(SessionSpec),
}

/// A CPU KV offload tier behind a link.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OffloadTier {
    /// Tokens of KV it holds per replica (whole blocks of it are used); 0 is no tier.
    pub capacity_tokens: f64,
    /// The GPU <-> CPU link (PCIe, Grace's C2C), in B/s. A link that is not positive, or a block's
    /// copy time that is not finite, leaves the tier unused.
    pub link_bytes_per_s: f64,
    /// KV bytes per token a block moves (`core::roofline::kv_bytes_per_held_token`), in B.
    pub kv_bytes_per_token: f64,
}

impl OffloadTier {
    /// A tier of `capacity_tokens` behind `link_bytes_per_s` moving the scenario's KV per held token
    /// (`kv_bytes_per_held_token`: per GPU, target and drafter together).
    pub fn for_scenario(scenario: &Scenario, capacity_tokens: f64, link_bytes_per_s: f64) -> OffloadTier {
        OffloadTier {
            capacity_tokens,
            link_bytes_per_s,
            kv_bytes_per_token: kv_bytes_per_held_token(scenario),
        }
    }
}

/// The fleet and its servers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetConfig {
    /// Replicas, at least 1.
    pub replicas: u32,
    pub routing: Routing,
    pub tier: Option<OffloadTier>,
    /// Step token budget: decodes first, then prompt chunks.
    pub chunk_tokens: u32,
    /// Most sequences running at once per replica.
    pub max_concurrency: u32,
    /// KV pool per replica, in tokens (whole blocks of it are used).
    pub kv_pool_tokens: f64,
    /// Tokens per block for synthetic sessions (a trace brings its own).
    pub block_tokens: u32,
    pub ttft_target_s: f64,
    pub tpot_target_s: f64,
}

/// What one fleet run measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FleetReport {
    /// Requests that arrived (sessions: the turns that were sent).
    pub requests: u32,
    /// Requests that got their answer.
    pub served: u32,
    /// Requests refused because their context alone outgrows a replica's pool.
    pub refused: u32,
    /// Prompt tokens of the served requests.
    pub prompt_tokens: u64,
    /// Of those, found in the GPU cache (not prefilled).
    pub gpu_hit_tokens: u64,
    /// Of those, found on the CPU tier (copied back, not prefilled).
    pub cpu_hit_tokens: u64,
    /// Over every request (a refused one counts as never served: `None` where a percentile falls
    /// on one), in s.
    pub ttft: Percentiles,
    pub tpot: Percentiles,
    /// Share of requests meeting both targets.
    pub attainment: f64,
    /// The last departure, in s.
    pub duration_s: f64,
    /// Blocks evicted from the GPU tier.
    pub evicted_blocks: u64,
    /// Blocks copied GPU -> CPU on eviction, and their bytes (offload traffic, not charged).
    pub offloaded_blocks: u64,
    pub offloaded_bytes: f64,
    /// Blocks copied back CPU -> GPU for hits, and the time those copies took in all, in s.
    pub transferred_blocks: u64,
    pub transfer_s_total: f64,
    /// Requests routed to each replica.
    pub per_replica_requests: Vec<u32>,
    /// Decodes preempted (to be recomputed) because the pool had no block for their growth.
    pub preemptions: u32,
    /// Steps run, over every replica.
    pub steps: u64,
}

impl FleetReport {
    fn share(&self, tokens: u64) -> f64 {
        if self.prompt_tokens == 0 {
            0.0
        } else {
            tokens as f64 / self.prompt_tokens as f64
        }
    }

    /// GPU hit tokens / prompt tokens (0 without prompt tokens).
    pub fn gpu_hit_rate(&self) -> f64 {
        self.share(self.gpu_hit_tokens)
    }

    /// CPU hit tokens / prompt tokens.
    pub fn cpu_hit_rate(&self) -> f64 {
        self.share(self.cpu_hit_tokens)
    }

    /// Both tiers' hit tokens / prompt tokens.
    pub fn hit_rate(&self) -> f64 {
        self.share(self.gpu_hit_tokens + self.cpu_hit_tokens)
    }
}

/// One request's outcome, in arrival-creation order (a trace's order; sessions: turn 0 of every
/// session, then later turns as they were sent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FleetRequest {
    pub arrival_s: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    pub session: Option<u32>,
    /// Its turn in its session (0 for the first, and for trace requests).
    pub turn: u32,
    pub replica: u32,
    /// Infinite when refused.
    pub ttft_s: f64,
    pub tpot_s: f64,
    /// Its last token (or its refusal), in s.
    pub finish_s: f64,
    pub gpu_hit_tokens: u32,
    pub cpu_hit_tokens: u32,
    pub refused: bool,
}

/// One row of the comparison the panel shows: a routing policy, with or without the tier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FleetRow {
    pub routing: Routing,
    pub tier: bool,
    pub report: FleetReport,
}

/// Runs the workload through the fleet.
pub fn run_fleet(workload: FleetWorkload<'_>, config: &FleetConfig, cost: &StepCost) -> FleetReport {
    run_fleet_requests(workload, config, cost).0
}

/// [`run_fleet`] with every request's outcome.
pub fn run_fleet_requests(
    workload: FleetWorkload<'_>,
    config: &FleetConfig,
    cost: &StepCost,
) -> (FleetReport, Vec<FleetRequest>) {
    run::run(workload, config, cost)
}

/// Every routing policy without the tier, then (when `base.tier` is set) with it.
pub fn compare(workload: FleetWorkload<'_>, base: &FleetConfig, cost: &StepCost) -> Vec<FleetRow> {
    let tiers: &[bool] = if base.tier.is_some() { &[false, true] } else { &[false] };
    let mut rows = Vec::new();
    for &tier in tiers {
        for &routing in <Routing as crate::url_id::UrlId>::VARIANTS {
            let config = FleetConfig { routing, tier: if tier { base.tier } else { None }, ..*base };
            rows.push(FleetRow { routing, tier, report: run_fleet(workload, &config, cost) });
        }
    }
    rows
}
