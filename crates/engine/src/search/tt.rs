//! The transposition table: shared by all search threads without locks. Each entry is two
//! atomic words, `key ^ data` and `data`; a torn write (two threads storing at once) shows
//! as a key mismatch and is ignored.

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact.
    Exact = 1,
    /// The true score is at least this (a fail high).
    Lower = 2,
    /// The true score is at most this (a fail low).
    Upper = 3,
}

/// What the table remembers of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Score, in table form (see [`super::score::to_table`]).
    pub score: i32,
    /// Remaining depth of the search that produced it.
    pub depth: i32,
    /// How the score bounds the truth.
    pub bound: Bound,
    /// Index of the best move in the position's generated move list, if any.
    pub move_index: Option<usize>,
}

const ENTRIES_PER_BUCKET: usize = 4;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots one key may use: one 64-byte cache line, so a probe reads one line.
#[repr(C, align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| Slot::empty()))
    }
}

/// A fixed-size table; never grows.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    bucket_mask: usize,
    generation: AtomicU64,
}

impl Entry {
    fn pack(self, generation: u64) -> u64 {
        let score = (self.score as i16 as u16) as u64;
        let depth = (self.depth.clamp(-1, 254) + 1) as u64;
        let mv = self.move_index.map_or(0xFF, |i| i.min(0xFE)) as u64;
        score | depth << 16 | (self.bound as u64) << 24 | (generation & 0x3F) << 26 | mv << 32
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let mv = ((data >> 32) & 0xFF) as usize;
        Some(Entry {
            score: (data & 0xFFFF) as u16 as i16 as i32,
            depth: ((data >> 16) & 0xFF) as i32 - 1,
            bound,
            move_index: if mv == 0xFF { None } else { Some(mv) },
        })
    }
}

impl Slot {
    fn empty() -> Slot {
        Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }
    }
}

/// Buckets of a table of about `mib` MiB: a power of two, at least one.
fn bucket_count(mib: usize) -> usize {
    let bytes = mib.max(1).saturating_mul(1024 * 1024);
    let buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
    1usize << (usize::BITS - 1 - buckets.leading_zeros())
}

fn generation_of(data: u64) -> u64 {
    (data >> 26) & 0x3F
}

impl TranspositionTable {
    /// A table of about `mib` MiB (at least one bucket). For a size a user chose, use
    /// [`TranspositionTable::try_new`]: this one aborts when the memory is not there.
    pub fn new(mib: usize) -> Self {
        let count = bucket_count(mib);
        Self::filled(Vec::with_capacity(count), count)
    }

    /// A table of about `mib` MiB, or an error when that much memory cannot be reserved
    /// (the size is too large for the address space, or the system refuses it).
    pub fn try_new(mib: usize) -> Result<Self, String> {
        let refused = || format!("cannot allocate a transposition table of {mib} MiB");
        if mib.checked_mul(1 << 20).is_none() {
            return Err(refused());
        }
        let count = bucket_count(mib);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| refused())?;
        Ok(Self::filled(buckets, count))
    }

    /// The table of `count` empty buckets in `buckets`, which has room for them: its
    /// memory is advised huge pages before the first write.
    fn filled(mut buckets: Vec<Bucket>, count: usize) -> Self {
        crate::memory::advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize_with(count, Bucket::empty);
        TranspositionTable {
            bucket_mask: buckets.len() - 1,
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    /// Size in bytes.
    #[cfg(test)]
    fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (for `new-game`, and so fixed-depth searches repeat exactly).
    pub fn clear(&self) {
        for slot in self.buckets.iter().flat_map(|b| &b.0) {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot; ENTRIES_PER_BUCKET] {
        &self.buckets[key as usize & self.bucket_mask].0
    }

    /// Starts loading `key`'s bucket into the cache, for a probe or store soon after.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                Entry::unpack(data)
            } else {
                None
            }
        })
    }

    /// Stores an entry, replacing the same position or the least valuable slot.
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i64::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if check ^ data == key {
                    // Keep a deeper result of the same search unless this one is exact.
                    if let Some(old) = Entry::unpack(data) {
                        let same_search = generation_of(data) == generation & 0x3F;
                        if same_search && old.depth > entry.depth + 2 && entry.bound != Bound::Exact
                        {
                            return;
                        }
                    }
                }
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 0x3F) as i64;
            let value = ((data >> 16) & 0xFF) as i64 - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let data = entry.pack(generation);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
        bucket[victim].data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            score: -1234,
            depth: 7,
            bound: Bound::Lower,
            move_index: Some(3),
        };
        tt.store(0xDEAD_BEEF, e);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
        let q = Entry {
            score: 9990,
            depth: -1,
            bound: Bound::Exact,
            move_index: None,
        };
        tt.store(42, q);
        assert_eq!(tt.probe(42), Some(q));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        for mib in [usize::MAX, usize::MAX >> 20, 1 << 40] {
            // black_box: an allocation nobody uses may be optimised away.
            match std::hint::black_box(TranspositionTable::try_new(mib)) {
                Ok(tt) => panic!("{mib} MiB allocated: {} bytes", tt.size_bytes()),
                Err(e) => assert_eq!(
                    e,
                    format!("cannot allocate a transposition table of {mib} MiB")
                ),
            }
        }
        let tt = TranspositionTable::try_new(2).unwrap();
        assert_eq!(tt.size_bytes(), 2 * 1024 * 1024);
    }

    #[test]
    fn size_is_bounded() {
        let tt = TranspositionTable::new(4);
        assert!(tt.size_bytes() <= 4 * 1024 * 1024);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                Entry {
                    score: 0,
                    depth: 1,
                    bound: Bound::Exact,
                    move_index: None,
                },
            );
        }
        assert!(tt.size_bytes() <= 4 * 1024 * 1024);
    }
}
