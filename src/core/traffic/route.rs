//! Routing a fleet's arrivals across its replicas.
//!
//! - Round robin: arrival i (in arrival order, every turn of every session counted) goes to
//!   replica i mod N, whatever the replicas hold.
//! - Least loaded: the replica with the fewest requests in it (queued or running) at the arrival
//!   instant, ties to the lowest index. A replica's state is read at the end of the step it is
//!   running when the request arrives (the fleet steps replicas in time order: see `fleet`).
//! - Affinity: a request of a session goes to replica hash(session) mod N, so every turn meets its
//!   own context; a request without a session goes by its prompt's first block hash mod N (prefix
//!   affinity: requests sharing a leading block share a replica), and by least loaded when it has
//!   no block. Affinity ignores load, so a hot prefix or session can queue on one replica.

use serde::{Deserialize, Serialize};

use super::sessions::mix;
use crate::url_id::UrlId;

/// How a fleet routes each arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Routing {
    RoundRobin,
    LeastLoaded,
    Affinity,
}

impl UrlId for Routing {
    const VARIANTS: &'static [Routing] = &[Routing::RoundRobin, Routing::LeastLoaded, Routing::Affinity];

    fn url_id(self) -> &'static str {
        match self {
            Routing::RoundRobin => "rr",
            Routing::LeastLoaded => "least",
            Routing::Affinity => "affinity",
        }
    }
}

/// What routing sees of one arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Its index in arrival order (0, 1, ...).
    pub index: u64,
    pub session: Option<u32>,
    /// Its prompt's first block hash, if it has blocks.
    pub first_block: Option<u64>,
}

/// The replica (0..loads.len()) `routing` sends `arrival` to; `loads` are the replicas' requests
/// queued or running at the arrival instant. 0 for an empty fleet.
pub fn route(routing: Routing, arrival: Arrival, loads: &[u32]) -> usize {
    let n = loads.len().max(1) as u64;
    match routing {
        Routing::RoundRobin => (arrival.index % n) as usize,
        Routing::LeastLoaded => least_loaded(loads),
        Routing::Affinity => match (arrival.session, arrival.first_block) {
            (Some(session), _) => (mix(u64::from(session), 0x5E55) % n) as usize,
            (None, Some(hash)) => (mix(hash, 0xB10C) % n) as usize,
            (None, None) => least_loaded(loads),
        },
    }
}

/// The index of the smallest load, the lowest index among equals (0 when empty).
pub fn least_loaded(loads: &[u32]) -> usize {
    let mut best = 0;
    for (i, &load) in loads.iter().enumerate() {
        if load < loads[best] {
            best = i;
        }
    }
    best
}
