//! Time management: the budget of one move from its [`Limits`].

use std::time::Duration;

use crate::clock::{Limits, TimeLeft};

/// Time the process needs around a move on a game clock (reading, writing, waking
/// threads), kept twice over with a share of the clock as the clock's reserve.
pub const OVERHEAD: Duration = Duration::from_millis(30);

/// What a fixed move time keeps back for answering: the search stops this much before the
/// time is up. Measured from `go` to `done` over the Hub on an idle machine, the answer
/// comes 0.5–5 ms after the hard limit (the stop check every 1,024 nodes, unwinding, the
/// last `info`, the process being scheduled): at 0.1 s a move, a mean of 0.095 s.
pub const MOVE_TIME_OVERHEAD: Duration = Duration::from_millis(5);

/// The time budget of one move: a soft limit (do not start another iteration after it)
/// and a hard limit (stop at once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Aim: no new iteration starts after this.
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
    /// A fixed move time: the time is the move's whatever happens, so the search spends
    /// it all (to `hard`) rather than stopping early on a proven or database score.
    pub spend_all: bool,
}

impl Budget {
    /// The budget for `limits`, or `None` when no time limit applies.
    pub fn from_limits(limits: &Limits) -> Option<Budget> {
        let mut budget: Option<Budget> = None;
        if let Some(t) = limits.move_time {
            budget = Some(move_time_budget(secs(t)));
        }
        if let Some(clock) = limits.clock {
            let b = clock_budget(&clock);
            budget = Some(match budget {
                Some(m) => Budget {
                    soft: m.soft.min(b.soft),
                    hard: m.hard.min(b.hard),
                    spend_all: false,
                },
                None => b,
            });
        }
        budget
    }
}

fn secs(t: f64) -> Duration {
    Duration::from_secs_f64(if t.is_finite() {
        t.clamp(0.0, 1e7)
    } else {
        0.0
    })
}

/// A fixed move time `t`: searched to within [`MOVE_TIME_OVERHEAD`] of it (at most 3 %
/// of it for very short times), iteration after iteration until the hard limit stops one.
fn move_time_budget(t: Duration) -> Budget {
    let keep = MOVE_TIME_OVERHEAD.min(t * 3 / 100);
    let hard = t.saturating_sub(keep).max(Duration::from_millis(1));
    Budget {
        soft: hard,
        hard,
        spend_all: true,
    }
}

/// Spends about 1/moves-left of the clock plus most of the increment, never more than
/// a fraction of what is left, and keeps a reserve for process overhead.
///
/// `remaining` is all this move may use (the increment comes after it, see
/// [`crate::clock`]).
fn clock_budget(clock: &TimeLeft) -> Budget {
    let inc = secs(clock.increment());
    let left = secs(clock.remaining());
    let moves_left = clock.moves_to_go.map_or(30, |m| m.clamp(1, 30));
    let reserve = OVERHEAD * 2 + left / 50;
    let usable = left.saturating_sub(reserve);
    let soft = (usable / moves_left + inc * 3 / 4).min(usable / 2);
    let hard = (soft * 4).min(usable / 3 + inc / 2).min(usable).max(soft);
    let floor = Duration::from_millis(1);
    Budget {
        soft: soft.max(floor),
        hard: hard.max(floor),
        spend_all: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_never_exceeds_time_left() {
        for (time, inc) in [
            (10.0, 0.1),
            (0.05, 0.0),
            (0.3, 0.1),
            (600.0, 0.0),
            (1.0, 5.0),
        ] {
            let b = clock_budget(&TimeLeft::from_secs(time + inc, inc, None));
            assert!(b.soft <= b.hard, "{time} {inc}: {b:?}");
            assert!(
                b.hard.as_secs_f64() <= (time + inc - 0.06).max(0.001),
                "{time} {inc}: {b:?}"
            );
        }
    }

    #[test]
    fn increment_of_this_move_is_usable() {
        // A short clock that got a large increment after the last move.
        let b = clock_budget(&TimeLeft::from_secs(2.2, 2.0, None));
        assert!(b.soft > Duration::from_millis(500), "{b:?}");
        assert!(b.hard < Duration::from_millis(2140), "{b:?}");
    }

    #[test]
    fn last_move_before_control_keeps_a_reserve() {
        let b = clock_budget(&TimeLeft::from_secs(1.0, 0.0, Some(1)));
        assert!(b.hard <= Duration::from_millis(940), "{b:?}");
        assert!(b.soft >= Duration::from_millis(400), "{b:?}");
    }

    #[test]
    fn little_or_no_time_left_keeps_to_the_floor() {
        let b = clock_budget(&TimeLeft::from_secs(0.05, 0.1, None));
        assert!(
            b.hard <= Duration::from_millis(50) && b.soft <= b.hard,
            "{b:?}"
        );
        let gone = clock_budget(&TimeLeft::from_secs(-0.9, 0.1, None));
        assert_eq!(gone.hard, Duration::from_millis(1));
    }

    #[test]
    fn move_time_is_spent_to_its_overhead() {
        let b = Budget::from_limits(&Limits::move_time(1.0)).unwrap();
        assert_eq!(b.hard, Duration::from_millis(995));
        assert_eq!(b.soft, b.hard);
        assert!(b.spend_all);
        let short = Budget::from_limits(&Limits::move_time(0.01)).unwrap();
        assert_eq!(short.hard, Duration::from_micros(9_700));
        assert_eq!(Budget::from_limits(&Limits::depth(3)), None);
    }

    #[test]
    fn a_clock_with_a_move_time_does_not_spend_all() {
        let mut limits = Limits::move_time(1.0);
        limits.clock = Some(TimeLeft::from_secs(0.5, 0.0, None));
        let b = Budget::from_limits(&limits).unwrap();
        assert!(!b.spend_all && b.hard < Duration::from_millis(500), "{b:?}");
    }
}
