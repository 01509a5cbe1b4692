//! One replica of the fleet: a FIFO queue, admission under the concurrency cap and the KV pool in
//! blocks (its prefix cache, `BlockCache`), chunked prefill of the missed tokens, one decode token
//! per sequence per step, and its finishing decodes on a heap by due step.

mod step;

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::{FleetConfig, OffloadTier};
use crate::core::sim::{StepCost, StepLines};
use crate::core::traffic::BlockCache;

/// A request as the fleet runs it, and what happened to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job {
    pub arrival_s: f64,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    pub session: Option<u32>,
    pub turn: u32,
    /// Its hash chain is `hashes[chain_start..chain_start + context_blocks]`; the prompt's part,
    /// looked up on admission, is the first `prompt_blocks`.
    pub chain_start: usize,
    pub prompt_blocks: u32,
    /// Blocks cached when it finishes (sessions: its answer's full blocks too).
    pub context_blocks: u32,
    pub replica: u32,
    pub ttft_s: f64,
    pub finish_s: f64,
    pub gpu_hit_tokens: u32,
    pub cpu_hit_tokens: u32,
    pub gpu_hit_blocks: u32,
    /// Pool blocks it holds privately (reserved, not registered in the cache).
    pub private_blocks: u64,
    pub refused: bool,
}

impl Job {
    /// A job of (prompt, output) tokens with chain (start, prompt blocks, context blocks).
    pub fn new(
        arrival_s: f64,
        (prompt_tokens, output_tokens): (u32, u32),
        session: Option<u32>,
        turn: u32,
        (chain_start, prompt_blocks, context_blocks): (usize, u32, u32),
    ) -> Job {
        Job {
            arrival_s,
            prompt_tokens,
            output_tokens,
            session,
            turn,
            chain_start,
            prompt_blocks,
            context_blocks,
            replica: 0,
            ttft_s: f64::INFINITY,
            finish_s: f64::INFINITY,
            gpu_hit_tokens: 0,
            cpu_hit_tokens: 0,
            gpu_hit_blocks: 0,
            private_blocks: 0,
            refused: false,
        }
    }
}

/// Every replica's knobs, in blocks and seconds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ServerBlocks {
    pub block_tokens: u32,
    pub chunk_tokens: u32,
    pub max_concurrency: u32,
    pub pool_blocks: u64,
    /// The CPU tier's blocks (0 without a usable tier).
    pub cpu_blocks: u64,
    /// One block's copy over the tier's link, in s.
    pub transfer_s_per_block: f64,
    /// One block's KV, in B.
    pub block_bytes: f64,
}

/// What the replicas share: the jobs, their hash chains, the step pricing.
pub(crate) struct Shared<'a> {
    pub cost: &'a StepCost,
    pub lines: Option<StepLines>,
    pub server: ServerBlocks,
    pub config: FleetConfig,
    pub jobs: Vec<Job>,
    pub hashes: Cow<'a, [u64]>,
    /// Jobs that finished (or were refused) in the last step, for the sessions' next turns.
    pub finished: Vec<u32>,
}

/// Whole blocks of `tokens` (0 for NaN or negative, saturating).
fn whole_blocks(tokens: f64, block_tokens: u32) -> u64 {
    (tokens / f64::from(block_tokens)).floor() as u64
}

impl<'a> Shared<'a> {
    pub fn new(
        cost: &'a StepCost,
        lines: Option<StepLines>,
        config: &FleetConfig,
        block_tokens: u32,
        hashes: Cow<'a, [u64]>,
    ) -> Shared<'a> {
        let b = f64::from(block_tokens);
        let bytes_per_token =
            |t: &OffloadTier| if t.kv_bytes_per_token > 0.0 { t.kv_bytes_per_token } else { 0.0 };
        // A link that is not positive and finite, or a copy that would never end: no usable tier.
        let tier = config.tier.filter(|t| {
            t.link_bytes_per_s > 0.0 && (b * bytes_per_token(t) / t.link_bytes_per_s).is_finite()
        });
        let block_bytes = tier.map_or(0.0, |t| b * bytes_per_token(&t));
        let server = ServerBlocks {
            block_tokens,
            chunk_tokens: config.chunk_tokens,
            max_concurrency: config.max_concurrency,
            pool_blocks: whole_blocks(config.kv_pool_tokens, block_tokens),
            cpu_blocks: tier.map_or(0, |t| whole_blocks(t.capacity_tokens, block_tokens)),
            transfer_s_per_block: tier.map_or(0.0, |t| block_bytes / t.link_bytes_per_s),
            block_bytes,
        };
        Shared { cost, lines, server, config: *config, jobs: Vec::new(), hashes, finished: Vec::new() }
    }

    /// The job's prompt chain.
    pub fn prompt_chain(&self, job: &Job) -> &[u64] {
        &self.hashes[job.chain_start..job.chain_start + job.prompt_blocks as usize]
    }

    pub fn context_chain(&self, job: &Job) -> &[u64] {
        &self.hashes[job.chain_start..job.chain_start + job.context_blocks as usize]
    }
}

/// A sequence prefilling: `done` of `total` prompt tokens, its copy from the CPU tier ready at
/// `ready_s`, and the chunk the step being gathered gives it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prefill {
    pub id: u32,
    pub done: u32,
    pub total: u32,
    pub ready_s: f64,
    pub flop_done: f64,
    pub chunk: u32,
}

/// One replica's state.
pub(crate) struct Replica {
    pub clock_s: f64,
    pub step: u64,
    /// Requests queued or running.
    pub in_system: u32,
    /// Requests running (prefilling or decoding).
    pub running: u32,
    pub queue: VecDeque<u32>,
    pub prefilling: Vec<Prefill>,
    /// Prompt tokens done (cached or computed) by the prefilling sequences: their earlier KV.
    pub prefill_done: f64,
    pub n_dec: u32,
    /// KV tokens the decodes hold and read.
    pub held_dec: f64,
    /// Decodes by the step of their last token.
    pub finishing: BinaryHeap<Reverse<(u64, u32)>>,
    pub cache: BlockCache,
    /// When the link finishes its last queued copy, in s.
    pub link_free_s: f64,
    pub transfer_s_total: f64,
    pub transferred_blocks: u64,
    pub routed: u32,
}

impl Replica {
    pub fn new(server: &ServerBlocks) -> Replica {
        Replica {
            clock_s: 0.0,
            step: 0,
            in_system: 0,
            running: 0,
            queue: VecDeque::new(),
            prefilling: Vec::new(),
            prefill_done: 0.0,
            n_dec: 0,
            held_dec: 0.0,
            finishing: BinaryHeap::new(),
            cache: BlockCache::new(server.pool_blocks, server.cpu_blocks),
            link_free_s: 0.0,
            transfer_s_total: 0.0,
            transferred_blocks: 0,
            routed: 0,
        }
    }

    /// A request arrives at `t_s`; an idle replica's clock moves up to it.
    pub fn enqueue(&mut self, id: u32, t_s: f64) {
        if self.in_system == 0 && t_s > self.clock_s {
            self.clock_s = t_s;
        }
        self.queue.push_back(id);
        self.in_system += 1;
        self.routed += 1;
    }
}
