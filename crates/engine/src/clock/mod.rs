//! How long a side may think, said one way for every front end: a [`TimeControl`]
//! (base time and increment), the [`GameClock`] of both sides in a played game, the
//! [`TimeLeft`] a search reads off it, and the [`Limits`] of one search.
//!
//! **The increment is Fischer's**: it is added to a side's clock after each move that
//! side completes, so a side with `remaining` seconds may spend all of them on its move
//! (and gets the increment back once it has moved). The Hub protocol's `level time=T
//! inc=I` says it the other way (the increment is added before the move, so `T + I` is
//! usable); the Hub parser converts it, and the Hub client writes it back.

mod game_clock;
pub mod instant;

use std::time::Duration;

pub use game_clock::GameClock;
pub use instant::Instant;

/// Longest base time the board accepts (10 hours), in seconds.
pub const MAX_BASE: f64 = 36_000.0;
/// Shortest base time the board accepts, in seconds.
pub const MIN_BASE: f64 = 1.0;
/// Largest increment the board accepts, in seconds.
pub const MAX_INC: f64 = 600.0;

/// A time control: base time for the game and the increment added after each move, the
/// same for both sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time for the whole game.
    pub base: Duration,
    /// Added after each move (Fischer).
    pub inc: Duration,
}

impl TimeControl {
    /// A time control from seconds within the board's bounds: `base` in
    /// [`MIN_BASE`]..=[`MAX_BASE`], `inc` in 0..=[`MAX_INC`].
    pub fn from_secs(base: f64, inc: f64) -> Result<TimeControl, String> {
        if !(MIN_BASE..=MAX_BASE).contains(&base) {
            return Err(format!(
                "clock time must be from {MIN_BASE} to {MAX_BASE} seconds, not {base}"
            ));
        }
        if !(0.0..=MAX_INC).contains(&inc) {
            return Err(format!(
                "clock increment must be from 0 to {MAX_INC} seconds, not {inc}"
            ));
        }
        Ok(TimeControl::new(base, inc))
    }

    /// A time control from seconds, unchecked but for what a [`Duration`] cannot hold
    /// (negative or not a number: 0).
    pub fn new(base: f64, inc: f64) -> TimeControl {
        let secs = |t: f64| Duration::try_from_secs_f64(t).unwrap_or(Duration::ZERO);
        TimeControl {
            base: secs(base),
            inc: secs(inc),
        }
    }

    /// As PDN's `TimeControl` tag and `--tc` write it: `10+0.1`.
    pub fn describe(&self) -> String {
        format!("{}+{}", self.base.as_secs_f64(), self.inc.as_secs_f64())
    }
}

/// Longest time a clock reading holds, in seconds (about 31 years): longer ones are
/// read as this.
pub const MAX_CLOCK_SECS: f64 = 1e9;

/// The clock of the side to move, read at the start of its move, to the millisecond
/// (so that its text forms read back exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Milliseconds the side may spend on this move (negative: its clock has run out).
    pub remaining_ms: i64,
    /// Milliseconds added after each of its moves (Fischer).
    pub increment_ms: i64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

impl TimeLeft {
    /// A reading from seconds, rounded to the millisecond; a negative or NaN increment
    /// is 0, and times beyond [`MAX_CLOCK_SECS`] either way are read as that.
    pub fn from_secs(remaining: f64, increment: f64, moves_to_go: Option<u32>) -> TimeLeft {
        TimeLeft {
            remaining_ms: millis(remaining),
            increment_ms: millis(increment).max(0),
            moves_to_go,
        }
    }

    /// Seconds the side may spend on this move.
    pub fn remaining(&self) -> f64 {
        self.remaining_ms as f64 / 1000.0
    }

    /// Seconds added after each move.
    pub fn increment(&self) -> f64 {
        self.increment_ms as f64 / 1000.0
    }
}

/// Seconds as whole milliseconds, within [`MAX_CLOCK_SECS`] (NaN: 0).
pub fn millis(secs: f64) -> i64 {
    if secs.is_nan() {
        return 0;
    }
    (secs.clamp(-MAX_CLOCK_SECS, MAX_CLOCK_SECS) * 1000.0).round() as i64
}

/// Milliseconds as the shortest decimal seconds that read back to them: `10`, `0.1`,
/// `-1.05`.
pub fn seconds_text(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let (whole, frac) = (ms.unsigned_abs() / 1000, ms.unsigned_abs() % 1000);
    if frac == 0 {
        format!("{sign}{whole}")
    } else {
        let digits = format!("{frac:03}");
        format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
    }
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
    /// The side's game clock.
    pub clock: Option<TimeLeft>,
    /// Search until stopped (analysis); the answer is held until stopped.
    pub infinite: bool,
    /// The score matters, not only the move: a forced move is searched like any other
    /// (batch analysis with a time per position).
    pub analysis: bool,
    /// When this move's time began (the Hub: when its `go` arrived); `None`: when the
    /// search starts. Time limits and `info` times count from here.
    pub since: Option<Instant>,
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

    /// Search until stopped.
    pub fn infinite() -> Self {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// Whether any time limit applies.
    pub fn is_timed(&self) -> bool {
        self.move_time.is_some() || self.clock.is_some()
    }

    /// Whether a position with one legal move is answered at once (depth 1): on a game
    /// clock, where thinking about a forced move only spends the clock. A fixed move time
    /// is the move's whatever it does, so it is spent searching the position after the
    /// forced move (the table keeps what it finds for the next move); analysis (infinite,
    /// or `analysis`) and fixed depth or nodes search it like any other.
    pub fn reply_forced_at_once(&self) -> bool {
        self.clock.is_some() && self.move_time.is_none() && !self.infinite && !self.analysis
    }

    /// The limits as a PDN `TimeControl` value reads them, with the game's time control:
    /// `10+0.1`, `movetime 0.2`, `depth 3`, `nodes 5000`, joined by `, `.
    pub fn describe(&self, control: Option<TimeControl>) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = control {
            parts.push(tc.describe());
        }
        if let Some(t) = self.move_time {
            parts.push(format!("movetime {t}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_checked() {
        assert!(TimeControl::from_secs(0.5, 0.0).is_err());
        assert!(TimeControl::from_secs(3.0, -1.0).is_err());
        assert!(TimeControl::from_secs(f64::NAN, 0.0).is_err());
        assert!(TimeControl::from_secs(1e300, 0.0).is_err());
        assert_eq!(
            TimeControl::from_secs(300.0, 3.0).map(|t| t.inc),
            Ok(Duration::from_secs(3))
        );
    }

    #[test]
    fn clock_texts_read_back_to_the_millisecond() {
        for ms in [0, 1, 10, 100, 1050, -1050, -1, 12_345, 1_000_000_000_000] {
            let text = seconds_text(ms);
            assert_eq!(millis(text.parse().unwrap()), ms, "{text}");
        }
        assert_eq!(seconds_text(100), "0.1");
        assert_eq!(seconds_text(-1050), "-1.05");
        assert_eq!(millis(f64::INFINITY), 1_000_000_000_000);
        assert_eq!(TimeLeft::from_secs(1.0, -2.0, None).increment_ms, 0);
    }

    #[test]
    fn limits_describe_themselves_as_pdn_does() {
        let limits = Limits {
            depth: Some(3),
            move_time: Some(0.2),
            ..Limits::default()
        };
        assert_eq!(
            limits.describe(Some(TimeControl::new(10.0, 0.1))),
            "10+0.1, movetime 0.2, depth 3"
        );
        assert_eq!(Limits::nodes(5000).describe(None), "nodes 5000");
    }
}
