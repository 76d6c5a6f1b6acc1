//! The time each engine used for its moves: how a match shows that an engine spends the
//! time it is given (a fixed move time to within a few percent) and never overruns.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The thinking times of one engine's moves, from `go` to its answer as the runner saw
/// them (process and pipe overhead included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TimeUse {
    /// Moves timed.
    pub moves: u64,
    /// Their time in all, seconds.
    pub total: f64,
    /// The longest, seconds.
    pub max: f64,
}

impl TimeUse {
    /// Adds one move that took `elapsed`.
    pub fn add(&mut self, elapsed: Duration) {
        let t = elapsed.as_secs_f64();
        self.moves += 1;
        self.total += t;
        self.max = self.max.max(t);
    }

    /// Adds the moves of `other`.
    pub fn absorb(&mut self, other: &TimeUse) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    /// Mean time per move, seconds; `None` before the first move.
    pub fn mean(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total / self.moves as f64)
    }

    /// `mean 0.0953 s, max 0.1008 s over 4210 moves`, or `no moves`.
    pub fn describe(&self) -> String {
        match self.mean() {
            Some(mean) => format!(
                "mean {mean:.4} s, max {:.4} s over {} moves",
                self.max, self.moves
            ),
            None => "no moves".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_max_of_moves() {
        let mut a = TimeUse::default();
        assert_eq!(a.mean(), None);
        assert_eq!(a.describe(), "no moves");
        a.add(Duration::from_millis(100));
        a.add(Duration::from_millis(50));
        let mut b = TimeUse::default();
        b.add(Duration::from_millis(120));
        a.absorb(&b);
        assert_eq!(a.moves, 3);
        assert!((a.mean().unwrap_or(0.0) - 0.09).abs() < 1e-9);
        assert!((a.max - 0.12).abs() < 1e-9);
        assert_eq!(a.describe(), "mean 0.0900 s, max 0.1200 s over 3 moves");
    }
}
