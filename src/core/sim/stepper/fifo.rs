//! The stepper's prefill queue: a first-in first-out queue on one `Vec` and a head index, so the
//! step loop walks its live part as one slice (a `VecDeque` splits it in two and wraps every index).

/// A FIFO of `T`: items `head..` of `items` are live; the dead front is dropped when it grows past
/// the live part (amortised O(1) per item).
#[derive(Clone, Debug)]
pub(super) struct Fifo<T> {
    items: Vec<T>,
    head: usize,
}

impl<T> Fifo<T> {
    pub(super) fn new() -> Fifo<T> {
        Fifo { items: Vec::new(), head: 0 }
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.items.len() - self.head
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.head == self.items.len()
    }

    pub(super) fn push_back(&mut self, item: T) {
        if self.head > 32 && self.head * 2 > self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        self.items.push(item);
    }

    #[inline]
    pub(super) fn live_mut(&mut self) -> &mut [T] {
        &mut self.items[self.head..]
    }

    #[inline]
    pub(super) fn front_mut(&mut self) -> Option<&mut T> {
        self.items.get_mut(self.head)
    }

    /// Drops the front item (nothing if empty); the queue is reset once it empties.
    #[inline]
    pub(super) fn pop_front(&mut self) {
        if self.head < self.items.len() {
            self.head += 1;
        }
        if self.head == self.items.len() {
            self.items.clear();
            self.head = 0;
        }
    }
}
