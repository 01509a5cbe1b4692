//! A decode's context grows one token a step and takes a new block each time it crosses a block
//! boundary; when the pool has none left (after evicting every unpinned cached block) the latest
//! started decode is preempted, its blocks let go, and it is recomputed later (vLLM's policy, as
//! the single-replica engine's): its prompt's blocks stay cached, unpinned, so its recompute may
//! hit them.

use std::cmp::Reverse;

use super::{Replica, Shared};

impl Replica {
    /// Starts (or resumes) `id`'s decode after its prompt (and, resumed, its recomputed tokens):
    /// the token just produced is number generated + 1; the rest come one a step.
    pub(super) fn start_decode(&mut self, s: &mut Shared, id: u32) {
        let job = s.jobs[id as usize];
        let generated0 = job.generated + 1;
        let remaining = job.output_tokens.saturating_sub(generated0);
        if remaining == 0 {
            self.finish(s, id);
            return;
        }
        let held0 = job.prompt_tokens + job.generated;
        let j = &mut s.jobs[id as usize];
        (j.decode_start_step, j.held0, j.generated0) = (self.step, held0, generated0);
        self.n_dec += 1;
        self.held_dec += f64::from(held0);
        self.finishing.push(Reverse((self.step + u64::from(remaining), id, job.epoch)));
        self.order.push((id, job.epoch));
        if self.order.len() > 4 * self.n_dec as usize + 64 {
            let jobs = &s.jobs;
            self.order.retain(|&(id, epoch)| jobs[id as usize].epoch == epoch);
        }
        // Holding c tokens in whole blocks, it next needs a block when it writes token c + 1 with
        // c a multiple of the block: (B - c mod B) mod B steps of room, then every B steps.
        let b = u64::from(s.server.block_tokens);
        let room = (b - u64::from(held0) % b) % b;
        self.growing.push(Reverse((self.step + 1 + room, id, job.epoch)));
    }

    /// Gives every decode whose context needs a new block in the coming step its block, preempting
    /// the latest started decodes while the pool has none. True if any decode was preempted.
    pub(super) fn grow_due(&mut self, s: &mut Shared) -> bool {
        let next = self.step + 1;
        let b = u64::from(s.server.block_tokens);
        let mut preempted = false;
        while let Some(&Reverse((due, id, epoch))) = self.growing.peek() {
            if due > next {
                break;
            }
            self.growing.pop();
            if s.jobs[id as usize].epoch != epoch {
                continue;
            }
            loop {
                if self.cache.grow() {
                    s.jobs[id as usize].private_blocks += 1;
                    self.growing.push(Reverse((due + b, id, epoch)));
                    break;
                }
                let Some(victim) = self.latest_decode(s) else { break };
                self.preempt(s, victim);
                preempted = true;
                if victim == id {
                    break;
                }
            }
        }
        preempted
    }

    /// The latest started decode still running, taken off the order.
    fn latest_decode(&mut self, s: &Shared) -> Option<u32> {
        while let Some((id, epoch)) = self.order.pop() {
            if s.jobs[id as usize].epoch == epoch {
                return Some(id);
            }
        }
        None
    }

    /// Preempts a decode: its KV leaves the batch, its blocks are let go (the cached ones stay
    /// cached, unpinned), and it waits at the queue's head to recompute its prompt and the tokens
    /// it generated.
    fn preempt(&mut self, s: &mut Shared, id: u32) {
        let job = s.jobs[id as usize];
        let decoded = (self.step - job.decode_start_step) as u32;
        self.n_dec -= 1;
        self.held_dec -= f64::from(job.held0 + decoded);
        let chain = &s.hashes[job.chain_start..job.chain_start + job.pinned_blocks as usize];
        self.cache.unpin(chain);
        self.cache.release(job.private_blocks);
        let j = &mut s.jobs[id as usize];
        j.generated = job.generated0 + decoded;
        j.epoch = job.epoch.wrapping_add(1);
        (j.private_blocks, j.pinned_blocks) = (0, 0);
        j.preemptions += 1;
        self.running -= 1;
        self.preemptions += 1;
        self.queue.push_front(id);
    }
}
