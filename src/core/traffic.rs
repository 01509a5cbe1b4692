//! Recorded and multi-turn traffic: a trace's requests as the readers normalize them (arrival,
//! lengths, session, prefix blocks), and what is built on them: the trace's statistics, block
//! hashes for sessions, the KV block cache with its offload tier, routing across replicas and the
//! fleet run that replays them.
//!
//! Every trace format reads into one [`RequestTrace`]: requests sorted by arrival, the first at
//! t = 0, each with the hashes of its prompt's full blocks of [`RequestTrace::block_tokens`] tokens
//! (the Mooncake trace's `hash_ids`, or synthesized: a session's context grows append-only, so its
//! block i is the same block in every later turn). Two requests share a prefix block exactly when
//! their hash chains agree up to it.

pub mod blocks;
mod cache;
mod fleet;
mod route;
mod sessions;
pub mod stats;
pub mod trace;

pub use cache::{BlockCache, Lookup};
pub use fleet::{
    compare, run_fleet, run_fleet_requests, FleetConfig, FleetReport, FleetRequest, FleetRow, FleetWorkload,
    OffloadTier,
};
pub use route::{least_loaded, route, Arrival, Routing};
pub use sessions::{context_chain, mix, SessionSpec, SYSTEM_PREFIX};

pub use trace::{RequestTrace, TraceFormat, TraceRequest};
