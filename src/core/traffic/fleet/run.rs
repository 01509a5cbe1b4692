//! The fleet's event loop: release the arrivals due, route each, step the busy replica whose clock
//! is earliest, and (for sessions) send each finished turn's next turn a think time later.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::replica::{Job, Replica, Shared};
use super::{report, FleetConfig, FleetReport, FleetRequest, FleetWorkload};
use crate::sim::{StepCost, StepLines};
use crate::traffic::route::{route, Arrival};
use crate::traffic::sessions::{context_chain, SessionSpec};

/// Arrivals not yet released, earliest first (ties in creation order). A non-negative f64's bits
/// order as the number does.
type Pending = BinaryHeap<Reverse<(u64, u32)>>;

struct Fleet<'a> {
    shared: Shared<'a>,
    replicas: Vec<Replica>,
    pending: Pending,
    sessions: Option<SessionSpec>,
    config: FleetConfig,
    /// Arrivals released so far (round robin's index).
    released: u64,
    /// A safety bound on replica steps, grown with every job's tokens.
    max_steps: u64,
    steps: u64,
}

/// Runs the workload; the report and every request's outcome.
pub(super) fn run(
    workload: FleetWorkload<'_>,
    config: &FleetConfig,
    cost: &StepCost,
) -> (FleetReport, Vec<FleetRequest>) {
    let config = FleetConfig {
        replicas: config.replicas.max(1),
        chunk_tokens: config.chunk_tokens.max(1),
        max_concurrency: config.max_concurrency.max(1),
        block_tokens: config.block_tokens.max(1),
        ..*config
    };
    let (block_tokens, hashes, sessions) = match workload {
        FleetWorkload::Trace(t) => (t.block_tokens.max(1), Cow::Borrowed(&t.blocks[..]), None),
        FleetWorkload::Sessions(s) => (config.block_tokens, Cow::Owned(Vec::new()), Some(s)),
    };
    let shared = Shared::new(cost, StepLines::new(cost), &config, block_tokens, hashes);
    let replicas = (0..config.replicas).map(|_| Replica::new(&shared.server)).collect();
    let mut fleet = Fleet {
        shared,
        replicas,
        pending: Pending::new(),
        sessions,
        config,
        released: 0,
        max_steps: 1024,
        steps: 0,
    };
    match workload {
        FleetWorkload::Trace(t) => fleet.add_trace(t),
        FleetWorkload::Sessions(s) => fleet.add_first_turns(&s),
    }
    fleet.drive();
    report::summarize(&fleet.shared, &fleet.replicas)
}

/// An arrival time as a heap key: NaN and negatives at 0, finite.
fn time_key(t_s: f64) -> u64 {
    if t_s > 0.0 {
        t_s.min(f64::MAX).to_bits()
    } else {
        0
    }
}

impl Fleet<'_> {
    fn push_job(&mut self, job: Job) {
        let id = self.shared.jobs.len() as u32;
        self.max_steps = self
            .max_steps
            .saturating_add(4 * (u64::from(job.prompt_tokens) + u64::from(job.output_tokens)) + 16);
        self.pending.push(Reverse((time_key(job.arrival_s), id)));
        self.shared.jobs.push(job);
    }

    fn add_trace(&mut self, trace: &crate::traffic::RequestTrace) {
        let b = self.shared.server.block_tokens;
        for (i, r) in trace.requests.iter().enumerate() {
            let chain = trace.request_blocks(i);
            let prompt_tokens = r.prompt_tokens.max(1);
            let blocks = (chain.len() as u64).min(u64::from(prompt_tokens.div_ceil(b))) as u32;
            let start = if blocks == 0 { 0 } else { r.blocks_start as usize };
            let arrival_s = if r.arrival_s > 0.0 { r.arrival_s } else { 0.0 };
            let output_tokens = r.output_tokens.max(1);
            self.push_job(Job::new(
                arrival_s,
                (prompt_tokens, output_tokens),
                r.session,
                0,
                (start, blocks, blocks),
            ));
        }
    }

    fn add_first_turns(&mut self, spec: &SessionSpec) {
        for (session, start_s) in spec.starts_s().into_iter().enumerate() {
            self.add_turn(spec, session as u32, 0, start_s, spec.first_prompt_tokens());
        }
    }

    /// Turn `turn` of `session`, arriving at `arrival_s` with `prompt_tokens`.
    fn add_turn(&mut self, spec: &SessionSpec, session: u32, turn: u32, arrival_s: f64, prompt_tokens: u32) {
        let b = self.shared.server.block_tokens;
        let output_tokens = spec.output_tokens.max(1);
        // The answer's last token is never fed back, so its KV is never computed: the context's
        // cached blocks are the full blocks of prompt + output - 1 tokens.
        let context_blocks =
            ((u64::from(prompt_tokens) + u64::from(output_tokens) - 1) / u64::from(b)) as u32;
        let hashes = self.shared.hashes.to_mut();
        let start = hashes.len();
        context_chain(session, spec.system_tokens, b, context_blocks, hashes);
        let blocks = (start, prompt_tokens / b, context_blocks);
        self.push_job(Job::new(arrival_s, (prompt_tokens, output_tokens), Some(session), turn, blocks));
    }

    fn drive(&mut self) {
        loop {
            let next_s = self.pending.peek().map(|Reverse((_, id))| self.shared.jobs[*id as usize].arrival_s);
            let busy = self.earliest_busy();
            if let Some(t_s) = next_s {
                if busy.is_none_or(|r| t_s <= self.replicas[r].clock_s) {
                    self.release_next();
                    continue;
                }
            }
            let Some(r) = busy else { break };
            if self.steps >= self.max_steps {
                break;
            }
            self.steps += 1;
            let next_s = next_s.unwrap_or(f64::INFINITY);
            let horizon_s = if self.sessions.is_some() { next_s.min(self.earliest_other(r)) } else { next_s };
            self.replicas[r].step(&mut self.shared, next_s, horizon_s);
            self.continue_sessions();
        }
    }

    /// The busy replica with the earliest clock (the lowest index among equals).
    fn earliest_busy(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, r) in self.replicas.iter().enumerate() {
            if r.in_system > 0 && best.is_none_or(|b| r.clock_s < self.replicas[b].clock_s) {
                best = Some(i);
            }
        }
        best
    }

    /// The earliest clock of the busy replicas other than `r` (infinite when none).
    fn earliest_other(&self, r: usize) -> f64 {
        let others = self.replicas.iter().enumerate().filter(|&(i, q)| i != r && q.in_system > 0);
        others.map(|(_, q)| q.clock_s).fold(f64::INFINITY, f64::min)
    }

    fn release_next(&mut self) {
        let Some(Reverse((_, id))) = self.pending.pop() else { return };
        let job = self.shared.jobs[id as usize];
        let loads: Vec<u32> = self.replicas.iter().map(|r| r.in_system).collect();
        let first_block = (job.prompt_blocks > 0).then(|| self.shared.hashes[job.chain_start]);
        let arrival = Arrival { index: self.released, session: job.session, first_block };
        let r = route(self.config.routing, arrival, &loads).min(self.replicas.len() - 1);
        self.released += 1;
        self.shared.jobs[id as usize].replica = r as u32;
        self.replicas[r].enqueue(id, job.arrival_s);
    }

    /// Sends the next turn of every session whose turn just finished.
    fn continue_sessions(&mut self) {
        let Some(spec) = self.sessions else {
            self.shared.finished.clear();
            return;
        };
        let finished = std::mem::take(&mut self.shared.finished);
        for &id in &finished {
            let job = self.shared.jobs[id as usize];
            let Some(session) = job.session.filter(|_| !job.refused && job.turn + 1 < spec.turns()) else {
                continue;
            };
            let turn = job.turn + 1;
            let arrival_s = job.finish_s + spec.think_before_s(session, turn);
            self.add_turn(&spec, session, turn, arrival_s, spec.next_prompt_tokens(job.prompt_tokens));
        }
        self.shared.finished = finished;
        self.shared.finished.clear();
    }
}
