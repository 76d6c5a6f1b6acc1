//! Game clocks: time plus increment per side. The clock of the side to move runs while a
//! game is played; the increment is added when a move is made (Fischer), and the side
//! whose time runs out loses, as in the match runner.
//!
//! Every method takes the time as an [`Instant`] from the caller, so the arithmetic is
//! tested without waiting.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::board::Color;

/// Longest base time accepted (10 hours), in seconds.
pub const MAX_BASE: f64 = 36_000.0;
/// Shortest base time accepted, in seconds.
pub const MIN_BASE: f64 = 1.0;
/// Largest increment accepted, in seconds.
pub const MAX_INC: f64 = 600.0;

/// A time control: base time and increment per move, for each side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Time for the whole game.
    pub base: Duration,
    /// Added after each move.
    pub inc: Duration,
}

impl TimeControl {
    /// A time control from seconds, checked: `base` in [`MIN_BASE`]..=[`MAX_BASE`],
    /// `inc` in 0..=[`MAX_INC`].
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
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            inc: Duration::from_secs_f64(inc),
        })
    }
}

/// Both clocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    control: Option<TimeControl>,
    /// Time left, White then Black, when the running clock last started.
    left: [Duration; 2],
    /// The clock running and since when.
    running: Option<(Color, Instant)>,
    /// Stopped until the next move (a fresh game, or after a take-back).
    paused: bool,
    /// The side whose time ran out.
    flag: Option<Color>,
}

/// `white` or `black`, as the page names the sides.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clocks {
    /// Clocks for `control` (`None`: no clocks), full and paused until the first move.
    pub fn new(control: Option<TimeControl>) -> Clocks {
        let full = control.map_or(Duration::ZERO, |c| c.base);
        Clocks {
            control,
            left: [full, full],
            running: None,
            paused: true,
            flag: None,
        }
    }

    /// The time control, if clocks are on.
    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// The side whose time ran out, if any.
    pub fn flag(&self) -> Option<Color> {
        self.flag
    }

    /// Stopped until the next move.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The clock running now, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// Time left for `side` at `now`.
    pub fn left(&self, side: Color, now: Instant) -> Duration {
        let left = self.left[index(side)];
        match self.running {
            Some((c, since)) if c == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// Stops the running clock, charging it the time since it started.
    fn settle(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left[index(c)] = self.left(c, now);
            self.running = None;
        }
    }

    /// `mover` made a move at `now`: its clock is charged and gets the increment, and
    /// the clocks are no longer paused. Nothing once a flag has fallen.
    pub fn moved(&mut self, mover: Color, now: Instant) {
        let Some(control) = self.control else { return };
        if self.flag.is_some() {
            return;
        }
        self.check(now);
        if self.flag.is_some() {
            return;
        }
        self.settle(now);
        self.left[index(mover)] += control.inc;
        self.paused = false;
    }

    /// Stops both clocks until the next move (take-back).
    pub fn pause(&mut self, now: Instant) {
        self.check(now);
        self.settle(now);
        self.paused = true;
    }

    /// Lets the clocks run again without a move (the player's choice, or the engine
    /// starting to think).
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Runs the clock of `side` (`None`: none), as the game calls for now; a paused
    /// clock, or one with a fallen flag, stays stopped.
    pub fn run(&mut self, side: Option<Color>, now: Instant) {
        self.check(now);
        let side = side.filter(|_| self.control.is_some() && !self.paused && self.flag.is_none());
        if self.running() == side {
            return;
        }
        self.settle(now);
        self.running = side.map(|c| (c, now));
    }

    /// Drops the flag of the running side if its time is out at `now`; that side, when it
    /// has just fallen.
    pub fn check(&mut self, now: Instant) -> Option<Color> {
        let (side, _) = self.running?;
        if self.flag.is_some() || !self.left(side, now).is_zero() {
            return None;
        }
        self.settle(now);
        self.flag = Some(side);
        Some(side)
    }

    /// When the running clock runs out, if one runs.
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        since.checked_add(self.left[index(side)])
    }

    /// The clocks as the page reads them at `now`: seconds left per side, which runs.
    pub fn to_json(&self, now: Instant) -> Value {
        let Some(control) = self.control else {
            return Value::Null;
        };
        let secs = |c: Color| (self.left(c, now).as_secs_f64() * 1000.0).round() / 1000.0;
        json!({
            "time": control.base.as_secs_f64(),
            "inc": control.inc.as_secs_f64(),
            "white": secs(Color::White),
            "black": secs(Color::Black),
            "running": self.running().map(side_name),
            "paused": self.paused,
            "flag": self.flag.map(side_name),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn clocks_run_for_the_side_to_move_and_add_the_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new(Some(TimeControl::from_secs(60.0, 2.0).unwrap()));
        c.run(Some(Color::White), t0);
        assert_eq!(c.running(), None, "paused until the first move");
        c.moved(Color::White, t0 + secs(5.0));
        assert_eq!(
            c.left(Color::White, t0 + secs(5.0)),
            secs(62.0),
            "no time charged before the first move"
        );
        c.run(Some(Color::Black), t0 + secs(5.0));
        assert_eq!(c.left(Color::Black, t0 + secs(8.0)), secs(57.0));
        c.moved(Color::Black, t0 + secs(8.0));
        c.run(Some(Color::White), t0 + secs(8.0));
        assert_eq!(c.left(Color::Black, t0 + secs(20.0)), secs(59.0));
        assert_eq!(c.left(Color::White, t0 + secs(20.0)), secs(50.0));
        // Take-back: both stop until the next move.
        c.pause(t0 + secs(20.0));
        c.run(Some(Color::White), t0 + secs(30.0));
        assert_eq!(c.left(Color::White, t0 + secs(90.0)), secs(50.0));
        assert!(c.paused());
        c.resume();
        c.run(Some(Color::White), t0 + secs(90.0));
        assert_eq!(c.deadline(), Some(t0 + secs(140.0)));
        assert_eq!(c.check(t0 + secs(139.0)), None);
        assert_eq!(c.check(t0 + secs(140.0)), Some(Color::White));
        assert_eq!(c.flag(), Some(Color::White));
        assert_eq!(c.check(t0 + secs(141.0)), None, "falls once");
        assert_eq!(c.left(Color::White, t0 + secs(200.0)), Duration::ZERO);
        c.moved(Color::White, t0 + secs(200.0));
        assert_eq!(
            c.left(Color::White, t0 + secs(200.0)),
            Duration::ZERO,
            "too late"
        );
        assert_eq!(c.to_json(t0 + secs(200.0))["flag"], "white");
    }

    #[test]
    fn a_move_after_the_flag_time_is_a_loss_on_time() {
        let t0 = Instant::now();
        let mut c = Clocks::new(Some(TimeControl::from_secs(3.0, 0.0).unwrap()));
        c.resume();
        c.run(Some(Color::White), t0);
        c.moved(Color::White, t0 + secs(3.5));
        assert_eq!(c.flag(), Some(Color::White));
    }

    #[test]
    fn no_clocks_never_run() {
        let t0 = Instant::now();
        let mut c = Clocks::new(None);
        c.resume();
        c.run(Some(Color::White), t0);
        assert_eq!((c.running(), c.deadline()), (None, None));
        assert_eq!(c.to_json(t0), Value::Null);
    }

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
}
