//! A replica's prefix cache in KV blocks, with least-recently-used eviction over two tiers.
//!
//! The GPU tier is the KV pool itself: its blocks not held by running sequences stay cached until
//! the pool needs them (as vLLM keeps freed blocks), so its capacity is the pool's blocks less the
//! blocks in use. A block a running sequence uses is pinned (a reference count) and never evicted;
//! a block whose last user finishes becomes evictable, most recently used. An optional CPU offload
//! tier of a fixed number of blocks takes every block evicted from the GPU (a copy, counted as
//! offload traffic unless the CPU already holds it) and drops its own least recently used block
//! when full. A CPU hit is copied back, and the CPU keeps its copy.
//!
//! Each tier is a hash map into a slab of nodes threaded on an intrusive LRU list: every block
//! operation is O(1) expected.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A slab index meaning "none".
const NIL: u32 = u32::MAX;

/// Block hashes are already well spread (or small integers, as Mooncake's `hash_ids`): one
/// multiply and a fold make a hash map key of them, far cheaper than SipHash.
#[derive(Default)]
struct BlockHasher(u64);

impl Hasher for BlockHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let mut z = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = z ^ (z >> 32);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    hash: u64,
    prev: u32,
    next: u32,
    /// Running sequences using the block (GPU tier only); on the LRU list exactly when 0.
    refs: u32,
}

/// One tier: its blocks by hash, and its evictable blocks on a list, least recently used first.
#[derive(Clone, Debug, Default)]
struct Tier {
    map: HashMap<u64, u32, BuildHasherDefault<BlockHasher>>,
    nodes: Vec<Node>,
    free: Vec<u32>,
    head: u32,
    tail: u32,
    listed: u64,
}

impl Tier {
    fn new() -> Tier {
        Tier { head: NIL, tail: NIL, ..Tier::default() }
    }

    fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Adds a block (not present) with `refs` users: listed as most recent when `refs` is 0.
    fn insert(&mut self, hash: u64, refs: u32) -> u32 {
        let node = Node { hash, prev: NIL, next: NIL, refs };
        let i = match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        self.map.insert(hash, i);
        if refs == 0 {
            self.link_back(i);
        }
        i
    }

    fn link_back(&mut self, i: u32) {
        let tail = self.tail;
        self.nodes[i as usize].prev = tail;
        self.nodes[i as usize].next = NIL;
        if tail == NIL {
            self.head = i;
        } else {
            self.nodes[tail as usize].next = i;
        }
        self.tail = i;
        self.listed += 1;
    }

    fn unlink(&mut self, i: u32) {
        let Node { prev, next, .. } = self.nodes[i as usize];
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        self.listed -= 1;
    }

    /// Moves a listed block to the most recent end.
    fn touch(&mut self, i: u32) {
        self.unlink(i);
        self.link_back(i);
    }

    /// Removes and returns the least recently used listed block.
    fn pop_lru(&mut self) -> Option<u64> {
        let i = self.head;
        if i == NIL {
            return None;
        }
        self.unlink(i);
        let hash = self.nodes[i as usize].hash;
        self.map.remove(&hash);
        self.free.push(i);
        Some(hash)
    }

    /// The listed blocks, least recently used first (for tests and inspection).
    fn lru_order(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.listed as usize);
        let mut i = self.head;
        while i != NIL {
            out.push(self.nodes[i as usize].hash);
            i = self.nodes[i as usize].next;
        }
        out
    }
}

/// What a prompt's hash chain finds: the leading run of blocks on the GPU, then the run that
/// continues on the CPU tier; the match stops at the first block found in neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lookup {
    pub gpu_blocks: u32,
    pub cpu_blocks: u32,
    /// Of the GPU hits, those no running sequence uses (evictable now; pinned by admission).
    pub gpu_unpinned_blocks: u32,
}

/// A replica's KV pool in blocks and its prefix cache over the GPU and an optional CPU tier.
#[derive(Clone, Debug)]
pub struct BlockCache {
    pool_blocks: u64,
    /// Blocks reserved by running sequences and not (yet) cached: partial blocks, output, misses
    /// still being prefilled.
    private_blocks: u64,
    gpu: Tier,
    cpu: Tier,
    cpu_capacity_blocks: u64,
    /// Blocks evicted from the GPU tier (each to the CPU tier when there is one, else dropped).
    pub evicted_blocks: u64,
    /// Blocks copied GPU -> CPU on eviction (not counted when the CPU already held the block).
    pub offloaded_blocks: u64,
}

mod ops;

impl BlockCache {
    /// An empty cache over a pool of `pool_blocks` and a CPU tier of `cpu_capacity_blocks` (0: none).
    pub fn new(pool_blocks: u64, cpu_capacity_blocks: u64) -> BlockCache {
        BlockCache {
            pool_blocks,
            private_blocks: 0,
            gpu: Tier::new(),
            cpu: Tier::new(),
            cpu_capacity_blocks,
            evicted_blocks: 0,
            offloaded_blocks: 0,
        }
    }

    pub fn pool_blocks(&self) -> u64 {
        self.pool_blocks
    }

    /// Blocks cached on the GPU, pinned or not.
    pub fn gpu_blocks(&self) -> u64 {
        self.gpu.len()
    }

    /// GPU blocks no running sequence uses: the cache's evictable part.
    pub fn gpu_evictable_blocks(&self) -> u64 {
        self.gpu.listed
    }

    pub fn cpu_blocks(&self) -> u64 {
        self.cpu.len()
    }

    pub fn private_blocks(&self) -> u64 {
        self.private_blocks
    }

    /// Pool blocks holding nothing: pool - cached on GPU - reserved privately.
    pub fn free_blocks(&self) -> u64 {
        self.pool_blocks.saturating_sub(self.gpu.len() + self.private_blocks)
    }

    /// The GPU tier's evictable blocks, least recently used first.
    pub fn gpu_lru(&self) -> Vec<u64> {
        self.gpu.lru_order()
    }

    /// The CPU tier's blocks, least recently used first.
    pub fn cpu_lru(&self) -> Vec<u64> {
        self.cpu.lru_order()
    }

    /// Whether the GPU tier holds `hash`, and its users.
    pub fn gpu_refs(&self, hash: u64) -> Option<u32> {
        self.gpu.map.get(&hash).map(|&i| self.gpu.nodes[i as usize].refs)
    }

    pub fn cpu_holds(&self, hash: u64) -> bool {
        self.cpu.map.contains_key(&hash)
    }
}
