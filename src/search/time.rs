//! Time management: the budget of one move from its [`Limits`].

use std::time::Duration;

use crate::clock::{Limits, TimeLeft};

/// Time the process needs around a move (reading, writing, waking threads).
pub const OVERHEAD: Duration = Duration::from_millis(30);

/// The time budget of one move: a soft limit (do not start another iteration after it)
/// and a hard limit (stop at once).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Aim: no new iteration starts after this.
    pub soft: Duration,
    /// Never search longer than this.
    pub hard: Duration,
}

impl Budget {
    /// The budget for `limits`, or `None` when no time limit applies.
    pub fn from_limits(limits: &Limits) -> Option<Budget> {
        let mut budget: Option<Budget> = None;
        if let Some(t) = limits.move_time {
            let hard = secs(t)
                .saturating_sub(OVERHEAD)
                .max(Duration::from_millis(1));
            budget = Some(Budget { soft: hard, hard });
        }
        if let Some(clock) = limits.clock {
            let b = clock_budget(&clock);
            budget = Some(match budget {
                Some(m) => Budget {
                    soft: m.soft.min(b.soft),
                    hard: m.hard.min(b.hard),
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
    fn move_time_keeps_overhead() {
        let b = Budget::from_limits(&Limits::move_time(1.0)).unwrap();
        assert_eq!(b.hard, Duration::from_millis(970));
        assert_eq!(Budget::from_limits(&Limits::depth(3)), None);
    }
}
