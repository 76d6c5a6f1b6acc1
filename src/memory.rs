//! The allocator's policy for big blocks: on Linux with glibc, every block of 1 MiB or
//! more (a transposition table, a MultiPV table) is a mapping of its own, given back to
//! the system the moment it is freed.
//!
//! glibc raises its mmap threshold each time it frees a mapped block (up to 32 MiB), so
//! once a table of a few MiB has been replaced, the next tables up to that size come from
//! the heap, and the heap keeps their memory after they are freed. Measured with a
//! `damiera hub` resizing its table at random between 1 and 32 MiB and searching: at the
//! same 32 MiB table its resident memory wandered between 65 and 96 MiB, against a flat
//! 47-49 MiB with the threshold set (setting it turns the dynamic threshold off). The
//! hour-long soak run (`tests/soak.rs`) failed on that growth.
//!
//! Other platforms keep their allocator's defaults (Windows gives blocks this large back).
#![allow(unsafe_code)]

/// Blocks at least this large are mapped on their own (Linux, glibc).
pub const BIG_BLOCK: usize = 1 << 20;

/// Applies the policy; call it once, first thing in `main`, before any thread starts.
pub fn give_big_blocks_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let threshold = libc::c_int::try_from(BIG_BLOCK).unwrap_or(libc::c_int::MAX);
        // SAFETY: `mallopt` only sets an allocator parameter (it takes the allocator's
        // own lock); M_MMAP_THRESHOLD accepts any value up to 32 MiB on 64-bit targets.
        // Its return value (0 when refused) leaves the defaults, which are only slower
        // to give memory back, so it is ignored.
        let _ = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, threshold) };
    }
}
