//! [`GameClock`]: both sides' clocks in a played game. The clock of the side to move
//! runs; the increment is added when a move is made (Fischer), and the side whose time
//! runs out loses.
//!
//! Every method takes the time as an [`Instant`] from the caller, so the arithmetic is
//! tested without waiting.

use std::time::Duration;

use super::Instant;

use super::{TimeControl, TimeLeft};
use crate::board::Color;

/// Both clocks of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameClock {
    control: Option<TimeControl>,
    /// Time left, White then Black, when the running clock last started.
    left: [Duration; 2],
    /// The clock running and since when.
    running: Option<(Color, Instant)>,
    /// Stopped until the next move (a fresh game, or after a take-back).
    paused: bool,
    /// The side whose time ran out.
    flag: Option<Color>,
    /// How far past zero a clock may run before its flag falls (the match runner's
    /// allowance for process overhead; zero on the board).
    grace: Duration,
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl GameClock {
    /// Clocks for `control` (`None`: no clocks), full and paused until the first move.
    pub fn new(control: Option<TimeControl>) -> GameClock {
        let full = control.map_or(Duration::ZERO, |c| c.base);
        GameClock {
            control,
            left: [full, full],
            running: None,
            paused: true,
            flag: None,
            grace: Duration::ZERO,
        }
    }

    /// The same clocks, whose flags fall only when a clock has run `grace` past zero
    /// (the time over zero is forgiven: the clock reads zero, then gets its increment).
    pub fn with_grace(self, grace: Duration) -> GameClock {
        GameClock { grace, ..self }
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
        let (side, since) = self.running?;
        let spent = now.saturating_duration_since(since);
        if self.flag.is_some() || spent < self.left[index(side)].saturating_add(self.grace) {
            return None;
        }
        self.settle(now);
        self.flag = Some(side);
        Some(side)
    }

    /// When the running clock runs out, if one runs.
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        since.checked_add(self.left[index(side)].saturating_add(self.grace))
    }

    /// What `side` may spend on its move at `now`, as a search reads it; `None`
    /// without clocks.
    pub fn time_left(&self, side: Color, now: Instant) -> Option<TimeLeft> {
        let control = self.control?;
        Some(TimeLeft::from_secs(
            self.left(side, now).as_secs_f64(),
            control.inc.as_secs_f64(),
            None,
        ))
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
        let mut c = GameClock::new(Some(TimeControl::from_secs(60.0, 2.0).unwrap()));
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
    }

    #[test]
    fn a_move_after_the_flag_time_is_a_loss_on_time() {
        let t0 = Instant::now();
        let mut c = GameClock::new(Some(TimeControl::from_secs(3.0, 0.0).unwrap()));
        c.resume();
        c.run(Some(Color::White), t0);
        c.moved(Color::White, t0 + secs(3.5));
        assert_eq!(c.flag(), Some(Color::White));
    }

    #[test]
    fn a_grace_forgives_an_overrun_short_of_it() {
        let t0 = Instant::now();
        let control = TimeControl::new(1.0, 0.1);
        let mut c = GameClock::new(Some(control)).with_grace(secs(0.1));
        c.resume();
        c.run(Some(Color::White), t0);
        assert_eq!(c.deadline(), Some(t0 + secs(1.1)));
        c.moved(Color::White, t0 + secs(1.05));
        assert_eq!(c.flag(), None, "within the grace");
        assert_eq!(
            c.left(Color::White, t0 + secs(2.0)),
            secs(0.1),
            "zero, then the increment"
        );
        c.run(Some(Color::White), t0 + secs(2.0));
        c.moved(Color::White, t0 + secs(2.2));
        assert_eq!(c.flag(), Some(Color::White), "past the grace");
    }

    #[test]
    fn no_clocks_never_run() {
        let t0 = Instant::now();
        let mut c = GameClock::new(None);
        c.resume();
        c.run(Some(Color::White), t0);
        assert_eq!((c.running(), c.deadline()), (None, None));
        assert_eq!(c.time_left(Color::White, t0), None);
    }
}
