//! The network's recent scores, by position key: a position the search reaches again (by
//! another move order, a re-search, the next iteration) is scored without its dense
//! layers, the network's dearest part.
//!
//! One table per search thread, direct-mapped: each slot holds the key's top 48 bits and
//! the score, and a new score replaces whatever its slot held. A network's score depends
//! only on the pieces and the side to move, which the Zobrist key covers, so a hit is the
//! score the network would give (unless two positions share a slot and 48 key bits, about
//! once in 2^48 probes); the search is the same search, only faster.

/// log2 of the slots: 2^16 slots of 8 bytes, 512 KiB, within a core's L2 cache.
const SLOT_BITS: u32 = 16;
/// An empty slot, which [`ScoreCache::get`] matches to no key (a stored score that packs
/// to the same bits only costs a miss).
const EMPTY: u64 = u64::MAX;

/// Recent network scores of one search thread.
pub struct ScoreCache {
    slots: Vec<u64>,
}

impl ScoreCache {
    /// An empty cache.
    pub fn new() -> ScoreCache {
        ScoreCache {
            slots: vec![EMPTY; 1 << SLOT_BITS],
        }
    }

    /// The score stored for `key`, if any.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<i32> {
        let slot = self.slots[Self::index(key)];
        (slot != EMPTY && slot >> 16 == key >> 16).then_some(slot as u16 as i16 as i32)
    }

    /// Stores `score` (within `i16`) for `key`.
    #[inline(always)]
    pub fn put(&mut self, key: u64, score: i32) {
        debug_assert!(i16::try_from(score).is_ok());
        self.slots[Self::index(key)] = (key >> 16) << 16 | (score as i16 as u16) as u64;
    }

    #[inline(always)]
    fn index(key: u64) -> usize {
        (key as usize) & ((1 << SLOT_BITS) - 1)
    }
}

impl Default for ScoreCache {
    fn default() -> Self {
        ScoreCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_score_is_found_and_replaced() {
        let mut cache = ScoreCache::new();
        let key = 0x1234_5678_9ABC_DEF0;
        assert_eq!(cache.get(key), None);
        cache.put(key, -8_999);
        assert_eq!(cache.get(key), Some(-8_999));
        cache.put(key, 8_999);
        assert_eq!(cache.get(key), Some(8_999));
    }

    #[test]
    fn keys_sharing_a_slot_are_told_apart() {
        let mut cache = ScoreCache::new();
        let a = 0x0000_0000_0001_0005;
        let b = 0x0000_0000_0002_0005;
        cache.put(a, 17);
        assert_eq!(cache.get(b), None);
        cache.put(b, -3);
        assert_eq!(cache.get(a), None);
        assert_eq!(cache.get(b), Some(-3));
    }

    #[test]
    fn an_empty_slot_matches_no_key() {
        let cache = ScoreCache::new();
        assert_eq!(cache.get(u64::MAX), None);
        assert_eq!(cache.get(0), None);
    }
}
