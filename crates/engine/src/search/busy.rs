//! Which positions the threads of a Lazy SMP search are busy with, so that one thread
//! can put off a move another is already searching (simplified ABDADA, after Tom
//! Kerrigan): by the time it comes back to the move, the other thread's result is often
//! in the transposition table.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the table (a power of two); a slot holds the key of one position being
/// searched.
const SLOTS: usize = 1 << 14;

/// A small lossy set of the positions threads are searching. A collision only makes a
/// thread search a move a little earlier or later: the result is never changed.
pub(crate) struct BusyPositions {
    slots: Box<[AtomicU64]>,
}

impl BusyPositions {
    /// An empty set.
    pub(crate) fn new() -> Self {
        BusyPositions {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Whether some thread marked `key` and has not cleared it yet.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub(crate) fn mark(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`, if its slot still holds it.
    #[inline]
    pub(crate) fn clear(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_seen_until_cleared() {
        let busy = BusyPositions::new();
        let key = 0x1234_5678_9abc_def1;
        assert!(!busy.contains(key));
        busy.mark(key);
        assert!(busy.contains(key));
        busy.clear(key);
        assert!(!busy.contains(key));
    }

    #[test]
    fn clearing_leaves_another_key_in_the_same_slot() {
        let busy = BusyPositions::new();
        let (a, b) = (5u64, 5u64 + SLOTS as u64);
        busy.mark(a);
        busy.mark(b);
        busy.clear(a);
        assert!(busy.contains(b));
        assert!(!busy.contains(a));
    }
}
