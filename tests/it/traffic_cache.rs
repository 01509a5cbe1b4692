//! The block cache (`core::traffic::BlockCache`): least recently used eviction, chain lookups that
//! stop at the first miss, demotion from the GPU to the CPU tier, the CPU tier dropping its oldest
//! block, and capacities never exceeded, on small hand-written sequences with every state written out.

use goodput_lab::core::traffic::{BlockCache, Lookup};

/// Admits `chain` needing `new_blocks`, then registers its misses as computed (they become cached
/// blocks pinned by the sequence), as a replica does for a prompt.
fn admit_and_compute(cache: &mut BlockCache, chain: &[u64], new_blocks: u64) -> bool {
    let hit = cache.lookup(chain);
    if !cache.admit(chain, hit, new_blocks) {
        return false;
    }
    for &hash in &chain[hit.gpu_blocks as usize..] {
        cache.register(hash);
    }
    true
}

fn within_capacity(cache: &BlockCache, cpu_capacity_blocks: u64) {
    assert!(cache.gpu_blocks() + cache.private_blocks() <= cache.pool_blocks(), "GPU tier over the pool");
    assert!(cache.cpu_blocks() <= cpu_capacity_blocks, "CPU tier over its capacity");
}

#[test]
fn finished_blocks_are_evicted_least_recently_used_first_tail_first_and_demoted_to_the_cpu_tier() {
    let mut cache = BlockCache::new(4, 2);
    assert!(admit_and_compute(&mut cache, &[1, 2], 2));
    assert_eq!((cache.gpu_blocks(), cache.private_blocks(), cache.free_blocks()), (2, 0, 2));
    // Unpinned last block first: 2 is the least recent, 1 (the chain's head) the most.
    cache.unpin(&[1, 2]);
    assert_eq!(cache.gpu_lru(), vec![2, 1]);
    // Three new blocks in a pool of 4 with 2 free: one eviction, the oldest (2), to the CPU tier.
    assert!(cache.admit(&[3, 4, 5], Lookup::default(), 3));
    assert_eq!(cache.gpu_lru(), vec![1]);
    assert_eq!(cache.cpu_lru(), vec![2]);
    assert_eq!((cache.evicted_blocks, cache.offloaded_blocks, cache.private_blocks()), (1, 1, 3));
    within_capacity(&cache, 2);
    for hash in [3, 4, 5] {
        cache.register(hash);
    }
    cache.unpin(&[3, 4, 5]);
    assert_eq!(cache.gpu_lru(), vec![1, 5, 4, 3]);
    // The pool is full of cached blocks: each new block evicts the oldest; the CPU tier (2 blocks)
    // takes 1, then drops 2 (its oldest) to take 5.
    assert!(cache.admit(&[8], Lookup::default(), 1));
    assert_eq!(cache.cpu_lru(), vec![2, 1]);
    assert!(cache.admit(&[9], Lookup::default(), 1));
    assert_eq!(cache.cpu_lru(), vec![1, 5]);
    assert_eq!(cache.gpu_lru(), vec![4, 3]);
    assert_eq!((cache.evicted_blocks, cache.offloaded_blocks), (3, 3));
    assert!(!cache.cpu_holds(2), "the CPU tier dropped its least recently used block");
    within_capacity(&cache, 2);
}

#[test]
fn a_chain_lookup_takes_the_leading_gpu_run_then_the_cpu_run_and_stops_at_the_first_miss() {
    let mut cache = BlockCache::new(3, 4);
    assert!(admit_and_compute(&mut cache, &[1, 2, 3], 3));
    cache.unpin(&[1, 2, 3]);
    // LRU is [3, 2, 1]: two new blocks evict 3 and 2 to the CPU tier.
    assert!(cache.admit(&[7, 8], Lookup::default(), 2));
    assert_eq!(cache.cpu_lru(), vec![3, 2]);
    assert_eq!(cache.lookup(&[1, 2, 3, 4]), Lookup { gpu_blocks: 1, cpu_blocks: 2, gpu_unpinned_blocks: 1 });
    // A missing first block ends the match, whatever follows.
    assert_eq!(cache.lookup(&[9, 1, 2]), Lookup::default());
    // A CPU run ends at a block the CPU lacks (1 is on the GPU only).
    assert_eq!(cache.lookup(&[2, 1]), Lookup { gpu_blocks: 0, cpu_blocks: 1, gpu_unpinned_blocks: 0 });
    assert_eq!(cache.lookup(&[1, 5, 2]), Lookup { gpu_blocks: 1, cpu_blocks: 0, gpu_unpinned_blocks: 1 });
}

#[test]
fn pinned_blocks_are_never_evicted_and_an_admission_that_cannot_fit_changes_nothing() {
    let mut cache = BlockCache::new(4, 0);
    assert!(admit_and_compute(&mut cache, &[1, 2], 2));
    // 1 and 2 stay pinned: 2 free blocks, nothing evictable, so 3 new blocks cannot fit.
    assert!(!cache.admit(&[5, 6, 7], Lookup::default(), 3));
    assert_eq!((cache.gpu_blocks(), cache.private_blocks(), cache.evicted_blocks), (2, 0, 0));
    assert!(cache.admit(&[5, 6], Lookup::default(), 2));
    assert_eq!(cache.free_blocks(), 0);
    assert_eq!((cache.gpu_refs(1), cache.gpu_refs(2)), (Some(1), Some(1)));
    // A second user of the chain pins the same blocks (shared, not copied).
    let hit = cache.lookup(&[1, 2]);
    assert_eq!(hit, Lookup { gpu_blocks: 2, cpu_blocks: 0, gpu_unpinned_blocks: 0 });
    assert!(cache.admit(&[1, 2], hit, 0));
    assert_eq!(cache.gpu_refs(1), Some(2));
    cache.unpin(&[1, 2]);
    assert_eq!(cache.gpu_lru(), Vec::<u64>::new(), "still pinned by the first user");
    cache.unpin(&[1, 2]);
    assert_eq!(cache.gpu_lru(), vec![2, 1]);
    within_capacity(&cache, 0);
}

#[test]
fn without_a_cpu_tier_an_evicted_block_is_dropped() {
    let mut cache = BlockCache::new(2, 0);
    assert!(admit_and_compute(&mut cache, &[1, 2], 2));
    cache.unpin(&[1, 2]);
    cache.release(0);
    assert!(cache.admit(&[3], Lookup::default(), 1));
    assert_eq!((cache.evicted_blocks, cache.offloaded_blocks, cache.cpu_blocks()), (1, 0, 0));
    assert_eq!(cache.lookup(&[1, 2]), Lookup { gpu_blocks: 1, cpu_blocks: 0, gpu_unpinned_blocks: 1 });
    assert_eq!(cache.lookup(&[2]), Lookup::default());
}

#[test]
fn a_block_already_on_the_cpu_tier_is_not_copied_again_on_eviction() {
    let mut cache = BlockCache::new(1, 2);
    assert!(admit_and_compute(&mut cache, &[1], 1));
    cache.unpin(&[1]);
    assert!(cache.admit(&[2], Lookup::default(), 1));
    assert_eq!((cache.evicted_blocks, cache.offloaded_blocks), (1, 1));
    cache.release(1);
    // 1 comes back from the CPU tier (the CPU keeps its copy), is computed into the GPU tier,
    // and is evicted again: the CPU already holds it.
    let hit = cache.lookup(&[1]);
    assert_eq!(hit, Lookup { gpu_blocks: 0, cpu_blocks: 1, gpu_unpinned_blocks: 0 });
    assert!(cache.admit(&[1], hit, 1));
    cache.register(1);
    cache.unpin(&[1]);
    assert!(cache.admit(&[3], Lookup::default(), 1));
    assert_eq!((cache.evicted_blocks, cache.offloaded_blocks, cache.cpu_blocks()), (2, 1, 1));
}

#[test]
fn a_growing_sequence_takes_a_free_block_then_evicts_the_oldest_cached_one_and_fails_when_all_are_held() {
    let mut cache = BlockCache::new(3, 0);
    assert!(admit_and_compute(&mut cache, &[1], 1));
    cache.unpin(&[1]);
    assert!(cache.admit(&[2], Lookup::default(), 1));
    assert!(cache.grow(), "one free block");
    assert_eq!((cache.free_blocks(), cache.evicted_blocks), (0, 0));
    assert!(cache.grow(), "no free block: the cached block 1 is evicted");
    assert_eq!((cache.evicted_blocks, cache.gpu_blocks(), cache.private_blocks()), (1, 0, 3));
    assert!(!cache.grow(), "every block is held");
    assert_eq!(cache.private_blocks(), 3);
    within_capacity(&cache, 0);
}
