//! How a game ends: the draw rules in force and the verdict they give.
//!
//! A side with no piece or no legal move loses (Art. 9.1). A game is drawn when a
//! position comes back for the `repetitions`-th time with the same side to move, or
//! after `quiet_moves` moves of each side without a capture or a man move. The FID's
//! texts name the repetition; the move limit (40 moves each by default) is the rule
//! tournament referees and every front end of Damiera apply. Either can be switched off.
//!
//! Each variant has its federation's rules ([`DrawRules::for_variant`]):
//!
//! - Italian: third repetition, 40 moves each (as above);
//! - English (WCDF rules of draughts, the 40-move rule): third repetition; 40 moves of
//!   each player in which no man advanced and no piece was removed;
//! - Russian (the rules of the Russian Draughts Federation): third repetition; 15 moves
//!   each of kings only (no man move, no capture); three kings or more against a lone
//!   king: 15 moves each; both sides with kings and the balance unchanged (no capture, no
//!   man crowned): 30 moves each with 4 or 5 pieces on the board, 60 with 6 or 7;
//! - Brazilian (the FMJD's international rules, as the Brazilian federation plays them on
//!   8x8): third repetition; 25 moves each of kings only; three kings, two kings and a
//!   man, or a king and two men against a lone king: 16 moves each; two kings, a king and
//!   a man, or a king against a lone king: 5 moves each.
//! - Damka: third repetition; 50 moves each without a capture (men's moves included:
//!   a material rule of every position, beside the move limit of 50 moves each of kings
//!   only that the search knows); one or two kings against a lone king drawn at once,
//!   when no capture is to be made.
//!
//! The material rules ([`Endings`]) count from the move that made the material (the last
//! capture, and for the Russian balance rule also the last crowning); the search knows
//! the repetition and `quiet_moves` only.

use std::fmt;

pub use crate::board::games::Endings;
use crate::board::{Color, Move, Position, Variant};

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
    /// The variant's rules for endings of little material.
    pub endings: Endings,
}

impl Default for DrawRules {
    /// Third occurrence; 40 moves each (the Italian and English rules).
    fn default() -> Self {
        DrawRules {
            repetitions: Some(3),
            quiet_moves: Some(40),
            endings: Endings::None,
        }
    }
}

/// One material rule: the endings it covers and the moves each side gets in them.
#[derive(Clone, Copy, Debug)]
struct EndingRule {
    /// What the draw is called (the PDN `Termination` text).
    name: &'static str,
    /// Moves per side.
    moves: u32,
    /// Whether the position is one of the rule's endings.
    covers: fn(&Position) -> bool,
    /// Whether a man crowned starts the count again (the Russian balance rule).
    crowning_resets: bool,
}

const RUSSIAN_RULES: [EndingRule; 3] = [
    EndingRule {
        name: "three kings against one",
        moves: 15,
        covers: kings_against_lone_king,
        crowning_resets: false,
    },
    EndingRule {
        name: "balance of 4 or 5 pieces",
        moves: 30,
        covers: |p| kings_on_both_sides(p, 4..=5),
        crowning_resets: true,
    },
    EndingRule {
        name: "balance of 6 or 7 pieces",
        moves: 60,
        covers: |p| kings_on_both_sides(p, 6..=7),
        crowning_resets: true,
    },
];

const FMJD_RULES: [EndingRule; 2] = [
    EndingRule {
        name: "three pieces against a king",
        moves: 16,
        covers: |p| against_lone_king(p, 3),
        crowning_resets: false,
    },
    EndingRule {
        name: "two pieces or one against a king",
        moves: 5,
        covers: |p| against_lone_king(p, 1) || against_lone_king(p, 2),
        crowning_resets: false,
    },
];

const DAMKA_RULES: [EndingRule; 2] = [
    EndingRule {
        name: "one or two kings against a lone king",
        moves: 0,
        covers: bare_kings_against_lone_king,
        crowning_resets: false,
    },
    // Any material: 50 moves each without a capture, men's moves included (the move
    // limit, `quiet_moves`, counts kings' moves only; it stays at 50 for the search).
    EndingRule {
        name: "any material, no capture",
        moves: 50,
        covers: |_| true,
        crowning_resets: false,
    },
];

/// One or two kings and no man against a lone king, with no capture to make: an ending
/// that cannot be won (Damka). A position where a king can be taken at once is not
/// covered, so a king left en prise is still lost.
fn bare_kings_against_lone_king(pos: &Position) -> bool {
    strong_and_lone(pos).is_some_and(|(strong, _)| {
        pos.men(strong) == 0
            && (1..=2).contains(&pos.kings(strong).count_ones())
            && !crate::movegen::has_capture(pos)
    })
}

/// The side with more pieces and the other, if one of them has a lone king.
fn strong_and_lone(pos: &Position) -> Option<(Color, Color)> {
    [Color::White, Color::Black].into_iter().find_map(|weak| {
        let lone = pos.count(weak) == 1 && pos.kings(weak).count_ones() == 1;
        lone.then_some((weak.opponent(), weak))
    })
}

/// Three or more kings (and no man) against a lone king.
fn kings_against_lone_king(pos: &Position) -> bool {
    strong_and_lone(pos)
        .is_some_and(|(strong, _)| pos.men(strong) == 0 && pos.kings(strong).count_ones() >= 3)
}

/// Exactly `pieces` pieces, a king among them, against a lone king.
fn against_lone_king(pos: &Position, pieces: u32) -> bool {
    strong_and_lone(pos)
        .is_some_and(|(strong, _)| pos.count(strong) == pieces && pos.kings(strong) != 0)
}

/// Both sides have a king and the board holds a number of pieces in `range`.
fn kings_on_both_sides(pos: &Position, range: std::ops::RangeInclusive<u32>) -> bool {
    pos.kings(Color::White) != 0
        && pos.kings(Color::Black) != 0
        && range.contains(&(pos.count(Color::White) + pos.count(Color::Black)))
}

impl Endings {
    fn rules(self) -> &'static [EndingRule] {
        match self {
            Endings::None => &[],
            Endings::Russian => &RUSSIAN_RULES,
            Endings::Fmjd => &FMJD_RULES,
            Endings::Damka => &DAMKA_RULES,
        }
    }

    /// The draw of a material rule at the last of `positions` (`moves[i]` leads from
    /// `positions[i]` to `positions[i + 1]`), if one has run out.
    pub(super) fn verdict(self, positions: &[Position], moves: &[Move]) -> Option<DrawReason> {
        let last = positions.len().checked_sub(1)?;
        self.rules().iter().find_map(|rule| {
            let covered = |i: usize| (rule.covers)(&positions[i]);
            let crowned = |i: usize| {
                positions[i + 1].all_kings().count_ones() > positions[i].all_kings().count_ones()
            };
            let resets = |i: usize| moves[i].is_capture() || (rule.crowning_resets && crowned(i));
            let plies = (0..last)
                .rev()
                .take_while(|&i| covered(i) && !resets(i))
                .count();
            (covered(last) && plies >= 2 * rule.moves as usize).then_some(DrawReason::Ending {
                rule: rule.name,
                moves: rule.moves,
            })
        })
    }
}

impl DrawRules {
    /// No draw rule at all: only the loss of every move ends a game.
    pub const OFF: DrawRules = DrawRules {
        repetitions: None,
        quiet_moves: None,
        endings: Endings::None,
    };

    /// The rules of `variant`'s federation (see the module text).
    pub fn for_variant(variant: Variant) -> DrawRules {
        let draws = variant.rules().draws;
        DrawRules {
            repetitions: Some(draws.repetitions),
            quiet_moves: Some(draws.quiet_moves),
            endings: draws.endings,
        }
    }

    /// The same rules with the repetition count set to `times` (0: off; 1 is refused,
    /// as in [`DrawRules::from_counts`]).
    pub fn with_repetitions(self, times: u32) -> Result<DrawRules, String> {
        let counts = DrawRules::from_counts(times, 0)?;
        Ok(DrawRules {
            repetitions: counts.repetitions,
            ..self
        })
    }

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
            endings: Endings::None,
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
    /// An unfinished game counted under Damka's `count-pieces` house rule: this side
    /// had more pieces.
    MorePieces,
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
    /// A material rule of the variant ran out (Russian, Brazilian).
    Ending {
        /// The rule's name: `three kings against one`, ...
        rule: &'static str,
        /// Moves per side it allows.
        moves: u32,
    },
    /// An unfinished game counted under Damka's `count-pieces` house rule: as many
    /// pieces each.
    EqualPieces,
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
            DrawReason::EqualPieces => f.write_str("pieces counted, as many each"),
            DrawReason::Ending { rule, moves: 0 } => write!(f, "drawn ending ({rule})"),
            DrawReason::Ending { rule, moves } => {
                write!(f, "{moves}-move rule of the ending ({rule})")
            }
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
            Verdict::Win(winner, WinReason::MorePieces) => {
                write!(f, "pieces counted, {} has more", winner.name())
            }
            Verdict::Draw(reason) => reason.fmt(f),
        }
    }
}

/// The count of Damka's `count-pieces` house rule, for an unfinished game: the side with
/// more pieces wins, kings and men counting one each; as many each is a draw.
pub fn count_pieces(pos: &Position) -> Verdict {
    let (white, black) = (pos.count(Color::White), pos.count(Color::Black));
    match white.cmp(&black) {
        std::cmp::Ordering::Greater => Verdict::Win(Color::White, WinReason::MorePieces),
        std::cmp::Ordering::Less => Verdict::Win(Color::Black, WinReason::MorePieces),
        std::cmp::Ordering::Equal => Verdict::Draw(DrawReason::EqualPieces),
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
