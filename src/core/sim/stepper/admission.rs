//! Admission and preemption: who joins the batch (the preempted first, then arrivals in order,
//! while the concurrency cap and the KV pool allow) and who leaves it when the decodes' KV growth
//! would overflow the pool (the latest admitted, to be recomputed).

use super::lifecycle::{verdict, Verdict};
use super::Stepper;

impl Stepper<'_> {
    /// Admits waiting requests (preempted first, then arrivals in order) while the cap and the
    /// pool allow; a request that could never fit alone is refused.
    pub(super) fn admit(&mut self) {
        while (self.n_dec as usize + self.prompts.queue.len()) < self.server.max_concurrency as usize {
            let Some((id, generated)) = self.next_waiting() else { return };
            let r = self.life.reqs[id as usize];
            match verdict(&r, generated, self.kv_in_use(), self.server.kv_pool_tokens) {
                Verdict::Wait => return,
                Verdict::Refuse => {
                    self.take_waiting();
                    self.life.depart_unserved(id);
                    continue;
                }
                Verdict::Admit => self.take_waiting(),
            }
            if self.server.prefill_free {
                let total = r.prompt_tokens.saturating_add(generated);
                self.held_dec += f64::from(total);
                self.start_decode(id, generated, total);
            } else {
                self.prompts.push(id, &r, generated, &self.cost);
            }
            self.note_kv_peak();
        }
    }

    /// The request admission would take next and the tokens it had generated, without taking it.
    pub(super) fn next_waiting(&self) -> Option<(u32, u32)> {
        if let Some(&(id, generated)) = self.preempted.front() {
            return Some((id, generated));
        }
        (self.next_queued < self.life.arrived).then_some((self.next_queued as u32, 0))
    }

    fn take_waiting(&mut self) {
        if self.preempted.pop_front().is_none() {
            self.next_queued += 1;
        }
    }

    /// Preempts the latest-admitted decodes until the step's KV growth (one token per decode) fits.
    pub(super) fn make_room_to_grow(&mut self) {
        while self.n_dec > 0 && self.kv_in_use() + self.kv_growth() > self.server.kv_pool_tokens {
            let Some((id, epoch)) = self.order.pop() else { return };
            if self.seqs[id as usize].epoch != epoch {
                continue;
            }
            let generated = self.remove_decode(id);
            self.preempted.push_front((id, generated));
            self.life.trace.preemptions += 1;
        }
    }

    /// Takes a decoding sequence out of the aggregates (KV held, decode count) and makes its heap
    /// and order entries stale; returns the tokens it has generated.
    pub(super) fn remove_decode(&mut self, id: u32) -> u32 {
        let seq = self.seqs[id as usize];
        let decoded = (self.life.step - seq.start_step) as u32;
        if self.spec.is_some() {
            return self.remove_spec_decode(id, seq, decoded);
        }
        self.held_dec -= f64::from(seq.held0 + decoded);
        self.cached_dec -= f64::from(self.life.reqs[id as usize].cached_tokens);
        self.n_dec -= 1;
        self.seqs[id as usize].epoch = seq.epoch.wrapping_add(1);
        seq.generated + decoded
    }
}
