//! The monotonic clock every search and game clock reads: [`Instant`].
//!
//! On every native target it is `std::time::Instant` itself. On WebAssembly in a browser
//! (`wasm32-unknown-unknown`) the standard library has no clock (`Instant::now` panics
//! there), so this room keeps its own: a time since an arbitrary origin, read from the
//! function the page's glue registers with [`set_now`] (`performance.now()` in the
//! Worker). Until one is registered the clock stands still at zero: searches then stop
//! only on depth, nodes or a stop, never on time, and nothing panics.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web::Instant;

/// Registers the clock of a browser build: a function returning milliseconds since any
/// fixed origin, never decreasing. Only the first registration counts; on native
/// targets this does nothing (the system's clock is used).
pub fn set_now(now_ms: fn() -> f64) {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    let _ = web::NOW.set(now_ms);
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    let _ = now_ms;
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod web {
    use std::ops::{Add, AddAssign, Sub};
    use std::sync::OnceLock;
    use std::time::Duration;

    pub(super) static NOW: OnceLock<fn() -> f64> = OnceLock::new();

    /// A point in time: the time since the registered clock's origin.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now, by the registered clock (zero when none is registered).
        pub fn now() -> Instant {
            let ms = NOW.get().map_or(0.0, |f| f());
            let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
            Instant(Duration::from_secs_f64(ms / 1000.0))
        }

        /// Time since `earlier` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// Time since `earlier` (zero if `earlier` is later).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// Time since `earlier`, if it is not later.
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }

        /// Time since this instant.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// This instant moved on by `d`, if representable.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// This instant moved back by `d`, if representable.
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            self.0 = self.0.saturating_add(d);
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, other: Instant) -> Duration {
            self.0.saturating_sub(other.0)
        }
    }
}
