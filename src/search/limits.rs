//! Search limits and time management.

use std::time::{Duration, Instant};

/// A game clock for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Time left before this move's increment, in seconds (negative when the clock is
    /// under one increment); `time + inc` is available for the move.
    pub time: f64,
    /// Increment per move, in seconds.
    pub inc: f64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Several limits may be combined: the first one reached stops.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum number of nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Fixed time for this move, seconds.
    pub move_time: Option<f64>,
    /// Game clock.
    pub clock: Option<Clock>,
    /// Search until stopped (analysis); the answer is held until stopped.
    pub infinite: bool,
    /// The score matters, not only the move: a forced move is searched like any other
    /// (batch analysis with a time per position).
    pub analysis: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed-node search.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn move_time(seconds: f64) -> Self {
        Limits {
            move_time: Some(seconds),
            ..Limits::default()
        }
    }

    /// Whether any time limit applies.
    pub fn is_timed(&self) -> bool {
        self.move_time.is_some() || self.clock.is_some()
    }

    /// Whether a position with one legal move is answered at once (depth 1): in timed
    /// play, where thinking about a forced move only spends the clock. Analysis
    /// (infinite, or `analysis`) and fixed depth or nodes search it like any other.
    pub fn reply_forced_at_once(&self) -> bool {
        self.is_timed() && !self.infinite && !self.analysis
    }
}

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
/// Hub semantics (protocol.md, `level`): `time` is the clock before this move's
/// increment, which is added before the move, so this move can use `time + inc`
/// (pydraughts, for one, sends its clock minus the increment).
fn clock_budget(clock: &Clock) -> Budget {
    let inc = secs(clock.inc);
    let left = secs(clock.time + clock.inc);
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

/// Elapsed-time checks for one search.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Instant,
}

impl Timer {
    /// Starts now.
    pub fn start() -> Self {
        Timer {
            start: Instant::now(),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
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
            let b = clock_budget(&Clock {
                time,
                inc,
                moves_to_go: None,
            });
            assert!(b.soft <= b.hard, "{time} {inc}: {b:?}");
            assert!(
                b.hard.as_secs_f64() <= (time + inc - 0.06).max(0.001),
                "{time} {inc}: {b:?}"
            );
        }
    }

    #[test]
    fn increment_of_this_move_is_usable() {
        // A short clock with a large increment: the increment is added before the move.
        let b = clock_budget(&Clock {
            time: 0.2,
            inc: 2.0,
            moves_to_go: None,
        });
        assert!(b.soft > Duration::from_millis(500), "{b:?}");
        assert!(b.hard < Duration::from_millis(2140), "{b:?}");
    }

    #[test]
    fn last_move_before_control_keeps_a_reserve() {
        let b = clock_budget(&Clock {
            time: 1.0,
            inc: 0.0,
            moves_to_go: Some(1),
        });
        assert!(b.hard <= Duration::from_millis(940), "{b:?}");
        assert!(b.soft >= Duration::from_millis(400), "{b:?}");
    }

    #[test]
    fn negative_time_means_less_than_one_increment_left() {
        let b = clock_budget(&Clock {
            time: -0.05,
            inc: 0.1,
            moves_to_go: None,
        });
        assert!(
            b.hard <= Duration::from_millis(50) && b.soft <= b.hard,
            "{b:?}"
        );
        let gone = clock_budget(&Clock {
            time: -1.0,
            inc: 0.1,
            moves_to_go: None,
        });
        assert_eq!(gone.hard, Duration::from_millis(1));
    }

    #[test]
    fn move_time_keeps_overhead() {
        let b = Budget::from_limits(&Limits::move_time(1.0)).unwrap();
        assert_eq!(b.hard, Duration::from_millis(970));
        assert_eq!(Budget::from_limits(&Limits::depth(3)), None);
    }
}
