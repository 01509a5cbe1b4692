//! The stepper's finishing queue: a calendar of decodes by the step of their last token. Steps are
//! integers and every due step lies ahead of the current one, so entries go into one of a
//! power-of-two ring of buckets (due step mod the ring's size) as nodes of a singly linked list,
//! with a bitmap of the non-empty buckets: a push is O(1), retiring a step walks one bucket, and the
//! next due step is a scan of the bitmap from the current step. A ring shorter than the longest
//! decode can hold entries due a lap or more ahead; they stay in their bucket (each node keeps its
//! due step), so the next due step read off the bitmap is a lower bound: a run that stops there
//! finds nothing to retire and goes on. Stale entries (a decode preempted since) are dropped when
//! their bucket is walked; the caller tells them apart by epoch.

/// A finishing entry: request `id` (at decode `epoch`) writes its last token at step `due`.
#[derive(Clone, Copy, Debug)]
struct Node {
    due: u64,
    id: u32,
    epoch: u32,
    /// The next node of the same bucket, or [`NONE`].
    next: u32,
}

const NONE: u32 = u32::MAX;

/// The calendar (see the module).
#[derive(Clone, Debug)]
pub(super) struct Finishing {
    /// Each bucket's first node, or [`NONE`].
    heads: Vec<u32>,
    /// Bit b of word w set: bucket 64 w + b holds a node.
    occupied: Vec<u64>,
    mask: u64,
    nodes: Vec<Node>,
    /// Nodes free for reuse, linked through `next`.
    free: u32,
    live: usize,
    /// At or before the earliest due step of any entry (u64::MAX when empty): pushes lower it,
    /// and it is read again off the bitmap only once its bucket has been emptied.
    earliest: u64,
}

impl Finishing {
    /// Buckets for decodes of up to `steps_max` steps: the next power of two above, from 64 to 2^16.
    pub(super) fn new(steps_max: u64) -> Finishing {
        let size = steps_max.saturating_add(1).clamp(64, 1 << 16).next_power_of_two();
        Finishing {
            heads: vec![NONE; size as usize],
            occupied: vec![0; (size / 64) as usize],
            mask: size - 1,
            nodes: Vec::new(),
            free: NONE,
            live: 0,
            earliest: u64::MAX,
        }
    }

    /// Files request `id` (at `epoch`) as finishing at step `due`.
    pub(super) fn push(&mut self, due: u64, id: u32, epoch: u32) {
        let b = (due & self.mask) as usize;
        let node = Node { due, id, epoch, next: self.heads[b] };
        let at = if self.free == NONE {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let at = self.free;
            self.free = self.nodes[at as usize].next;
            self.nodes[at as usize] = node;
            at
        };
        self.heads[b] = at;
        self.occupied[b / 64] |= 1 << (b % 64);
        self.live += 1;
        self.earliest = self.earliest.min(due);
    }

    /// A step at or before the earliest due step after `step` (see the module); None when empty.
    #[inline]
    pub(super) fn next_due_after(&mut self, step: u64) -> Option<u64> {
        if self.earliest <= step {
            self.earliest = self.scan_after(step).unwrap_or(u64::MAX);
        }
        (self.earliest != u64::MAX).then_some(self.earliest)
    }

    /// The first step after `step` whose bucket holds a node; None when empty.
    fn scan_after(&self, step: u64) -> Option<u64> {
        if self.live == 0 {
            return None;
        }
        let words = self.occupied.len();
        let from = ((step.wrapping_add(1)) & self.mask) as usize;
        let (w0, bit0) = (from / 64, from % 64);
        let first = self.occupied[w0] & (u64::MAX << bit0);
        if first != 0 {
            return Some(step + 1 + (first.trailing_zeros() as usize - bit0) as u64);
        }
        for k in 1..=words {
            let w = (w0 + k) % words;
            if self.occupied[w] != 0 {
                let b = w * 64 + self.occupied[w].trailing_zeros() as usize;
                let ahead = (b + self.heads.len() - from) % self.heads.len();
                return Some(step + 1 + ahead as u64);
            }
        }
        None
    }

    /// Whether the bucket of `step` holds a node (due then, or a lap or more later).
    #[inline(always)]
    pub(super) fn may_be_due(&self, step: u64) -> bool {
        let b = (step & self.mask) as usize;
        self.occupied[b / 64] & (1 << (b % 64)) != 0
    }

    /// Takes out one entry due at `step` (or before) from its bucket as (id, epoch); None when the
    /// bucket holds none (entries due a lap or more later stay).
    pub(super) fn pop_due(&mut self, step: u64) -> Option<(u32, u32)> {
        let b = (step & self.mask) as usize;
        let (mut prev, mut at) = (NONE, self.heads[b]);
        while at != NONE && self.nodes[at as usize].due > step {
            (prev, at) = (at, self.nodes[at as usize].next);
        }
        if at == NONE {
            return None;
        }
        let node = self.nodes[at as usize];
        if prev == NONE {
            self.heads[b] = node.next;
        } else {
            self.nodes[prev as usize].next = node.next;
        }
        if self.heads[b] == NONE {
            self.occupied[b / 64] &= !(1 << (b % 64));
        }
        self.nodes[at as usize].next = self.free;
        self.free = at;
        self.live -= 1;
        Some((node.id, node.epoch))
    }
}
