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
//!
//! Also here, the two hints the transposition table gives the hardware: huge pages for
//! its memory ([`advise_huge_pages`]) and a prefetch of the bucket a search is about to
//! read ([`prefetch`]). Both only change speed, never contents.
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

/// Asks the system to back `block` with huge pages (2 MiB on x86-64 Linux), where whole
/// aligned huge pages fit in it: a table read at random then misses the TLB far less.
/// Call it before the block is first written. Linux only, and only a hint: with
/// transparent huge pages off (`/sys/kernel/mm/transparent_hugepage/enabled` = never),
/// or elsewhere, nothing changes.
pub fn advise_huge_pages<T>(block: &[T]) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const PAGE: usize = 4096;
        let start = block.as_ptr() as usize;
        let end = start + std::mem::size_of_val(block);
        let first = start.next_multiple_of(PAGE);
        if end > first + PAGE {
            let len = (end - first) / PAGE * PAGE;
            // SAFETY: the range lies inside `block`'s allocation (rounded inward to whole
            // pages), and MADV_HUGEPAGE changes how its pages are backed, never what they
            // hold. A refusal (EINVAL without THP support) only leaves small pages.
            let _ = unsafe { libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = block;
}

/// Starts loading the cache line of `item` into the cache, to be read soon; returns at
/// once. A no-op off x86-64.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch only hints at the cache, reads nothing the program sees and
        // cannot fault; the address comes from a live reference. SSE, which it needs, is
        // part of every x86-64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
