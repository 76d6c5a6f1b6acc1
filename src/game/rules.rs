//! How a game ends: the draw rules in force and the verdict they give.
//!
//! A side with no piece or no legal move loses (Art. 9.1). A game is drawn when a
//! position comes back for the `repetitions`-th time with the same side to move, or
//! after `quiet_moves` moves of each side without a capture or a man move. The FID's
//! texts name the repetition; the move limit (40 moves each by default) is the rule
//! tournament referees and every front end of Damiera apply. Either can be switched off.

use std::fmt;

use crate::board::Color;

/// The search's shortcut of the repetition rule: inside a search tree a position that
/// comes back even once (twofold) is scored a draw, as engines do — going round in
/// circles gains nothing, and a side that could win would not repeat. `keys` are the
/// keys of the earlier positions on the path (game history then search line, oldest
/// first), `run` the reversible plies leading to `key`'s position: only a position of the
/// same side to move, an even number of plies back within the run, can be the same.
#[inline]
pub fn repeats_in_search(keys: &[u64], key: u64, run: usize) -> bool {
    let n = keys.len();
    (2..=run.min(n))
        .step_by(2)
        .any(|back| keys[n - back] == key)
}

/// The draw rules of a game. `None` switches a rule off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// The occurrence of a position (same side to move) that draws: 3 is the third.
    pub repetitions: Option<u32>,
    /// Moves per side without a capture or a man move that draw: 40 is 80 plies.
    pub quiet_moves: Option<u32>,
}

impl Default for DrawRules {
    /// Third occurrence; 40 moves each.
    fn default() -> Self {
        DrawRules {
            repetitions: Some(3),
            quiet_moves: Some(40),
        }
    }
}

impl DrawRules {
    /// No draw rule at all: only the loss of every move ends a game.
    pub const OFF: DrawRules = DrawRules {
        repetitions: None,
        quiet_moves: None,
    };

    /// The rules from command-line counts, where 0 switches a rule off. A repetition
    /// count of 1 would end every game at once, so it is refused.
    pub fn from_counts(repetitions: u32, quiet_moves: u32) -> Result<DrawRules, String> {
        if repetitions == 1 {
            return Err(
                "a repetition count of 1 would draw every game at once: use 0 (off) or 2 or more"
                    .into(),
            );
        }
        Ok(DrawRules {
            repetitions: (repetitions > 0).then_some(repetitions),
            quiet_moves: (quiet_moves > 0).then_some(quiet_moves),
        })
    }

    /// The same rules with the move limit set to `moves` per side (0: off).
    pub fn with_quiet_moves(self, moves: u32) -> DrawRules {
        DrawRules {
            quiet_moves: (moves > 0).then_some(moves),
            ..self
        }
    }

    /// Reversible plies (kings' quiet moves) after which the game is drawn, if limited.
    pub fn quiet_plies(&self) -> Option<usize> {
        self.quiet_moves.map(|m| 2 * m as usize)
    }
}

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The other side has no piece or no legal move (Art. 9.1).
    NoLegalMove,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The position occurred this many times with the same side to move.
    Repetition {
        /// Occurrences, the current one included.
        times: u32,
    },
    /// Each side made this many moves without a capture or a man move.
    QuietMoves {
        /// Moves per side.
        moves: u32,
    },
}

/// The state of a game under its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The game goes on.
    Ongoing,
    /// The side won.
    Win(Color, WinReason),
    /// Drawn.
    Draw(DrawReason),
}

impl Verdict {
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        *self != Verdict::Ongoing
    }

    /// The PDN result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&self) -> &'static str {
        match self {
            Verdict::Ongoing => "*",
            Verdict::Win(Color::White, _) => "1-0",
            Verdict::Win(Color::Black, _) => "0-1",
            Verdict::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::Repetition { times } => write!(f, "repetition ({times} times)"),
            DrawReason::QuietMoves { moves } => write!(
                f,
                "{moves}-move rule ({moves} moves each without a capture or a man move)"
            ),
        }
    }
}

/// Why the game ended, in words (the PDN `Termination` text): `Black has no legal
/// move`, `repetition (3 times)`, `40-move rule (...)`; `ongoing` before the end.
impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ongoing => f.write_str("ongoing"),
            Verdict::Win(winner, WinReason::NoLegalMove) => {
                write!(f, "{} has no legal move", winner.opponent().name())
            }
            Verdict::Draw(reason) => reason.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_switch_rules_off_and_refuse_one() {
        assert_eq!(DrawRules::from_counts(0, 0), Ok(DrawRules::OFF));
        assert_eq!(DrawRules::from_counts(3, 40), Ok(DrawRules::default()));
        assert!(DrawRules::from_counts(1, 40).is_err());
        assert_eq!(DrawRules::default().quiet_plies(), Some(80));
        assert_eq!(DrawRules::default().with_quiet_moves(0).quiet_plies(), None);
    }

    #[test]
    fn verdict_texts_and_results() {
        let win = Verdict::Win(Color::White, WinReason::NoLegalMove);
        assert_eq!(win.to_string(), "Black has no legal move");
        assert_eq!(win.result(), "1-0");
        let draw = Verdict::Draw(DrawReason::Repetition { times: 3 });
        assert_eq!(
            (draw.to_string().as_str(), draw.result()),
            ("repetition (3 times)", "1/2-1/2")
        );
        let quiet = Verdict::Draw(DrawReason::QuietMoves { moves: 40 });
        assert!(quiet.to_string().starts_with("40-move rule"));
        assert!(!Verdict::Ongoing.is_over() && quiet.is_over());
    }
}
