//! The cache's operations: look a chain up, admit a sequence (pin its GPU hits, make room),
//! register the blocks it computed, and let them go when it finishes.

use super::{BlockCache, Lookup};

impl BlockCache {
    /// The chain's leading run of blocks on the GPU, then the run continuing on the CPU tier (a
    /// block past the first CPU hit counts only if the CPU holds it: GPU blocks behind an evicted
    /// one are rare, since a finished chain is evicted tail first).
    pub fn lookup(&self, chain: &[u64]) -> Lookup {
        let mut out = Lookup::default();
        let mut rest = chain.iter();
        for hash in rest.by_ref() {
            match self.gpu.map.get(hash) {
                Some(&i) => {
                    out.gpu_blocks += 1;
                    if self.gpu.nodes[i as usize].refs == 0 {
                        out.gpu_unpinned_blocks += 1;
                    }
                }
                None => {
                    if self.cpu.map.contains_key(hash) {
                        out.cpu_blocks += 1;
                        break;
                    }
                    return out;
                }
            }
        }
        for hash in rest {
            if !self.cpu.map.contains_key(hash) {
                break;
            }
            out.cpu_blocks += 1;
        }
        out
    }

    /// Admits a sequence whose chain found `hit` (from [`BlockCache::lookup`] on `chain`, unchanged
    /// since) and which needs `new_blocks` more pool blocks: pins its GPU hits, marks its CPU hits
    /// used, and evicts least recently used GPU blocks until the new blocks fit. False, and nothing
    /// changed, when they cannot fit even with every evictable block gone.
    pub fn admit(&mut self, chain: &[u64], hit: Lookup, new_blocks: u64) -> bool {
        let evictable = self.gpu.listed.saturating_sub(u64::from(hit.gpu_unpinned_blocks));
        if new_blocks > self.free_blocks() + evictable {
            return false;
        }
        let gpu = hit.gpu_blocks as usize;
        for hash in &chain[..gpu] {
            self.pin(*hash);
        }
        for hash in &chain[gpu..gpu + hit.cpu_blocks as usize] {
            if let Some(&i) = self.cpu.map.get(hash) {
                self.cpu.touch(i);
            }
        }
        while self.free_blocks() < new_blocks {
            if !self.evict_one() {
                break;
            }
        }
        self.private_blocks += new_blocks;
        true
    }

    /// One more user of a GPU block (taken off the LRU list if it had none).
    fn pin(&mut self, hash: u64) {
        let Some(&i) = self.gpu.map.get(&hash) else { return };
        if self.gpu.nodes[i as usize].refs == 0 {
            self.gpu.unlink(i);
        }
        self.gpu.nodes[i as usize].refs += 1;
    }

    /// A private block the sequence has computed becomes the cached block `hash`, pinned by it. If
    /// the GPU already holds `hash` (another sequence computed it meanwhile) the sequence uses that
    /// one and its private block is freed.
    pub fn register(&mut self, hash: u64) {
        self.private_blocks = self.private_blocks.saturating_sub(1);
        if self.gpu.map.contains_key(&hash) {
            self.pin(hash);
        } else {
            self.gpu.insert(hash, 1);
        }
    }

    /// A finished sequence lets go of its cached blocks, last block first, so its chain's leading
    /// blocks end up most recently used and are evicted last (as vLLM frees a sequence's blocks
    /// in reverse).
    pub fn unpin(&mut self, chain: &[u64]) {
        for hash in chain.iter().rev() {
            let Some(&i) = self.gpu.map.get(hash) else { continue };
            let node = &mut self.gpu.nodes[i as usize];
            if node.refs == 0 {
                continue;
            }
            node.refs -= 1;
            if node.refs == 0 {
                self.gpu.link_back(i);
            }
        }
    }

    /// One more private block for a growing sequence, evicting the least recently used GPU block if
    /// none is free; false, and nothing changed, when every block is held.
    pub fn grow(&mut self) -> bool {
        if self.free_blocks() == 0 && !self.evict_one() {
            return false;
        }
        self.private_blocks += 1;
        true
    }

    /// Frees `blocks` private blocks.
    pub fn release(&mut self, blocks: u64) {
        self.private_blocks = self.private_blocks.saturating_sub(blocks);
    }

    /// Evicts the GPU tier's least recently used evictable block to the CPU tier (dropping the CPU
    /// tier's least recently used block when full) or, without a tier, drops it. False when no GPU
    /// block is evictable.
    pub fn evict_one(&mut self) -> bool {
        let Some(hash) = self.gpu.pop_lru() else { return false };
        self.evicted_blocks += 1;
        if self.cpu_capacity_blocks == 0 {
            return true;
        }
        if let Some(&i) = self.cpu.map.get(&hash) {
            self.cpu.touch(i);
            return true;
        }
        if self.cpu.len() >= self.cpu_capacity_blocks {
            self.cpu.pop_lru();
        }
        self.cpu.insert(hash, 0);
        self.offloaded_blocks += 1;
        true
    }
}
