//! Replays PDN games with the rules core: every move must be legal in turn.
//!
//! ```
//! use damiera_rules::game::pdn::parse_pdn;
//! use damiera_rules::game::replay::replay_game;
//! let games = parse_pdn("1. 22-18 11-14 2. 18x11 7x14 *").unwrap();
//! let game = replay_game(&games[0], 1).unwrap();
//! assert_eq!(game.positions().len(), 5);
//! ```

use std::fmt;

use crate::board::{Color, HouseRules, Position, Variant};
use crate::movegen::MoveError;

use super::Game;
use super::pdn::{Fix, PdnGame, PdnMove, PdnWarning, Slot};
use super::pdn_file::game_variant;

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `FEN` tag is not a valid position.
    BadFen {
        /// 1-based game number.
        game: usize,
        /// The reason.
        message: String,
    },
    /// The `GameType` tag names a game Damiera does not play.
    GameType {
        /// 1-based game number.
        game: usize,
        /// Which game type, in words.
        message: String,
    },
    /// The `HouseRules` tag names an unknown rule, or rules of a game other than Damka.
    HouseRules {
        /// 1-based game number.
        game: usize,
        /// The reason.
        message: String,
    },
    /// A move is not legal (or not even well formed) in its position.
    IllegalMove {
        /// 1-based game number.
        game: usize,
        /// The full-move number written in the PDN.
        number: u32,
        /// The side that had to move.
        side: Color,
        /// What the rules core said.
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BadFen { game, message } => write!(f, "game {game}: bad FEN: {message}"),
            ReplayError::GameType { game, message } => write!(f, "game {game}: {message}"),
            ReplayError::HouseRules { game, message } => {
                write!(f, "game {game}: HouseRules: {message}")
            }
            ReplayError::IllegalMove {
                game,
                number,
                side,
                error,
            } => write!(f, "game {game}, move {number} ({side:?}): {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The start position of an Italian game: its `FEN` tag, or the initial position.
pub fn start_position(game: &PdnGame, game_no: usize) -> Result<Position, ReplayError> {
    start_position_in(game, game_no, Variant::Italian)
}

/// The start position of a game of `variant`: its `FEN` tag in the variant's notation,
/// or the variant's initial position, under the house rules of its `HouseRules` tag.
pub fn start_position_in(
    game: &PdnGame,
    game_no: usize,
    variant: Variant,
) -> Result<Position, ReplayError> {
    let house = house_rules_of(game, game_no, variant)?;
    let start = match game.tag("FEN") {
        None => Position::start_of(variant),
        Some(text) => Position::parse_in(variant, text).map_err(|e| ReplayError::BadFen {
            game: game_no,
            message: e.to_string(),
        })?,
    };
    Ok(start.with_house_rules(house))
}

/// The house rules of a game's `HouseRules` tag (none without one), checked against its
/// game.
fn house_rules_of(
    game: &PdnGame,
    game_no: usize,
    variant: Variant,
) -> Result<HouseRules, ReplayError> {
    let text = game.tag("HouseRules").unwrap_or("");
    HouseRules::parse(text)
        .and_then(|house| house.check_variant(variant).map(|()| house))
        .map_err(|message| ReplayError::HouseRules {
            game: game_no,
            message,
        })
}

/// The variant of a game ([`game_variant`]) as a replay error.
fn variant_of(game: &PdnGame, game_no: usize, default: Variant) -> Result<Variant, ReplayError> {
    game_variant(game, default).map_err(|message| ReplayError::GameType {
        game: game_no,
        message,
    })
}

/// Replays `game` (numbered `game_no` in messages) in the variant of its `GameType`
/// (Italian without one) under that variant's draw rules, stopping at the first
/// illegal move. A game of a type Damiera does not play is refused.
pub fn replay_game(game: &PdnGame, game_no: usize) -> Result<Game, ReplayError> {
    replay_game_in(game, game_no, Variant::Italian)
}

/// [`replay_game`], a game without `GameType` being of `default`.
pub fn replay_game_in(
    game: &PdnGame,
    game_no: usize,
    default: Variant,
) -> Result<Game, ReplayError> {
    let variant = variant_of(game, game_no, default)?;
    let mut replay = Game::new(start_position_in(game, game_no, variant)?);
    for m in &game.moves {
        let side = replay.position().side_to_move();
        replay
            .play_text(&m.text)
            .map_err(|error| ReplayError::IllegalMove {
                game: game_no,
                number: m.number,
                side,
                error,
            })?;
    }
    Ok(replay)
}

/// Replays every game; the first error stops.
pub fn replay_all(games: &[PdnGame]) -> Result<Vec<Game>, ReplayError> {
    games
        .iter()
        .enumerate()
        .map(|(i, g)| replay_game(g, i + 1))
        .collect()
}

/// Longest look-ahead spent on ambiguous moves in one game, in replays of the moves
/// that follow; past it an ambiguous move takes its first candidate.
const LOOKAHEAD_BUDGET: usize = 256;

/// An ambiguous move of a game and the candidate taken.
struct Choice {
    /// Index of the move in the game.
    index: usize,
    /// The candidates, in move-list order (by squares: from, to, men taken).
    candidates: Vec<String>,
    /// The candidate taken.
    taken: String,
    /// Whether the moves that follow decided it (else it is the first candidate).
    decided: bool,
}

/// How far a replay went.
struct Attempt {
    game: Game,
    /// The index of the first move that could not be played, and why.
    failed: Option<(usize, MoveError)>,
    choices: Vec<Choice>,
}

impl Attempt {
    fn reached(&self, moves: usize) -> usize {
        self.failed.as_ref().map_or(moves, |(i, _)| *i)
    }
}

/// Replays `moves[from..]` in `game`; an ambiguous move takes the candidate with which
/// the most moves that follow replay, the first in move-list order on a tie.
fn replay_from(mut game: Game, moves: &[PdnMove], from: usize, budget: &mut usize) -> Attempt {
    for (i, m) in moves.iter().enumerate().skip(from) {
        let candidates = match game.play_text(&m.text) {
            Ok(_) => continue,
            Err(MoveError::Ambiguous { candidates, .. }) => candidates,
            Err(error) => {
                return Attempt {
                    game,
                    failed: Some((i, error)),
                    choices: Vec::new(),
                };
            }
        };
        let mut best: Option<(Attempt, String)> = None;
        let mut ties = 0;
        for text in &candidates {
            let mut tried = game.clone();
            if tried.play_text(text).is_err() {
                continue;
            }
            let attempt = if *budget > 0 {
                *budget -= 1;
                replay_from(tried, moves, i + 1, budget)
            } else {
                Attempt {
                    game: tried,
                    failed: None,
                    choices: Vec::new(),
                }
            };
            let reached = attempt.reached(moves.len());
            match &best {
                Some((b, _)) if reached < b.reached(moves.len()) => {}
                Some((b, _)) if reached == b.reached(moves.len()) => ties += 1,
                _ => {
                    best = Some((attempt, text.clone()));
                    ties = 0;
                }
            }
            if *budget == 0 && best.is_some() {
                break;
            }
        }
        let Some((mut attempt, taken)) = best else {
            let error = MoveError::Ambiguous {
                text: m.text.clone(),
                candidates,
            };
            return Attempt {
                game,
                failed: Some((i, error)),
                choices: Vec::new(),
            };
        };
        let choice = Choice {
            index: i,
            candidates,
            taken,
            decided: ties == 0 && *budget > 0,
        };
        attempt.choices.insert(0, choice);
        return attempt;
    }
    Attempt {
        game,
        failed: None,
        choices: Vec::new(),
    }
}

/// Replays a game of a recovering read ([`crate::game::pdn::recover_pdn`]), numbered
/// `number` and starting on line `line`, its moves on `move_lines`. An ambiguous short
/// capture (`3x26` where two captures take that path's men in number) is resolved by
/// the moves that follow where they decide it, else it is the first candidate in
/// move-list order (by squares: from, to, then the men taken); either way `game`'s move
/// takes the full path and a warning says so. A game that cannot be replayed (another
/// `GameType`, a bad `FEN`, an illegal move) is refused with the warning that skips it.
/// `lines` are the game's first line and its moves' lines; a game without `GameType` is
/// of `default`.
pub fn replay_recovering(
    game: &mut PdnGame,
    number: usize,
    (line, move_lines): (usize, &[usize]),
    default: Variant,
) -> Result<(Game, Vec<PdnWarning>), PdnWarning> {
    let skip = |line: usize, fault: String| PdnWarning {
        game: number,
        line,
        fix: Fix::Skipped,
        fault,
    };
    let variant = game_variant(game, default).map_err(|e| {
        skip(
            line,
            format!("{e}: `{}`", clip(game.tag("GameType").unwrap_or(""))),
        )
    })?;
    if let Err(e) = house_rules_of(game, number, variant) {
        let e = e.to_string();
        let reason = e.trim_start_matches(&format!("game {number}: "));
        return Err(skip(line, reason.to_string()));
    }
    let start = start_position_in(game, number, variant).map_err(|e| {
        let fen = game.tag("FEN").unwrap_or("");
        let e = e.to_string();
        let reason = e.trim_start_matches(&format!("game {number}: "));
        skip(line, format!("{reason}: `{}`", clip(fen)))
    })?;
    let mut budget = LOOKAHEAD_BUDGET;
    let attempt = replay_from(Game::new(start), &game.moves, 0, &mut budget);
    if let Some((i, error)) = attempt.failed {
        let m = &game.moves[i];
        let side = attempt.game.positions()[i].side_to_move();
        let line = move_lines.get(i).copied().unwrap_or(line);
        return Err(skip(
            line,
            format!("move {} ({side:?}) `{}`: {error}", m.number, m.text),
        ));
    }
    let mut warnings = Vec::new();
    for choice in attempt.choices {
        let m = &mut game.moves[choice.index];
        let how = if choice.decided {
            "the moves that follow decide it".to_string()
        } else {
            "the first in move-list order, as no later move decides it".to_string()
        };
        warnings.push(PdnWarning {
            game: number,
            line: move_lines.get(choice.index).copied().unwrap_or(line),
            fix: Fix::Repaired,
            fault: format!(
                "ambiguous move `{}` at move {}{}, could be {}: read as {}, {how}",
                m.text,
                m.number,
                match m.slot {
                    Slot::First => ".",
                    Slot::Second => "...",
                },
                choice.candidates.join(" or "),
                choice.taken
            ),
        });
        m.text = choice.taken;
    }
    Ok((attempt.game, warnings))
}

/// At most 40 characters of a tag value, control characters as spaces: for a warning
/// of one line.
fn clip(text: &str) -> String {
    text.chars()
        .take(40)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::parse_pdn;
    use crate::game::{Verdict, WinReason};

    fn game(text: &str) -> PdnGame {
        parse_pdn(text)
            .ok()
            .and_then(|g| g.into_iter().next())
            .unwrap_or_default()
    }

    #[test]
    fn legal_game_replays() {
        let r = replay_game(&game("1. 22-18 11-14 2. 18x11 7x14 *"), 1);
        let r = r.map_err(|e| e.to_string());
        assert_eq!(r.as_ref().map(|r| r.moves().len()), Ok(4));
        assert_eq!(r.map(|r| r.verdict()), Ok(Verdict::Ongoing));
    }

    #[test]
    fn first_illegal_move_is_reported() {
        let err = replay_game(&game("1. 22-18 11-14 2. 21-17 12-16 *"), 3);
        let text = err.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.starts_with("game 3, move 2 (White): illegal move \"21-17\""),
            "{text}"
        );
        assert!(text.contains("18x11"), "{text}");
    }

    #[test]
    fn fen_start_and_loss_by_rules() {
        // White man on 10 takes Black's last man on 6, landing on 3.
        let r = replay_game(&game("[FEN \"W:W10:B6\"]\n1. 10x3 *"), 1);
        let r = r.map_err(|e| e.to_string());
        let white_wins = Verdict::Win(Color::White, WinReason::NoLegalMove);
        assert_eq!(r.map(|r| r.verdict()), Ok(white_wins));
    }

    #[test]
    fn other_game_types_are_refused() {
        let err = replay_game(&game("[GameType \"20\"]\n1. 32-28 *"), 4);
        let text = err.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.starts_with(
                "game 4: GameType 20 is international draughts, which Damiera does not play"
            ),
            "{text}"
        );
    }

    #[test]
    fn game_type_picks_the_variant_and_its_notation() {
        // English: Black moves first; 11-15 23-19 8-11 22-17 (an opening, "Old Fourteenth"-like).
        let english = replay_game(
            &game("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *"),
            1,
        );
        let english = english.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(english.start(), Position::start_of(Variant::English));
        assert_eq!(english.plies(), 4);
        // Without GameType a reader told English reads the same moves.
        let untagged = replay_game_in(&game("1. 11-15 23-19 *"), 1, Variant::English);
        assert!(untagged.is_ok(), "{untagged:?}");
        assert!(
            replay_game(&game("1. 11-15 23-19 *"), 1).is_err(),
            "Italian by default"
        );
        // Russian: algebraic moves, captures with ':' or 'x'.
        let russian = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *";
        let russian = replay_game(&game(russian), 1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(russian.position().variant(), Variant::Russian);
        let with_x = replay_game(&game("[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4xf6 *"), 1);
        assert!(with_x.is_ok(), "{with_x:?}");
        // Brazilian with a FEN in its notation.
        let brazilian = "[GameType \"26\"]\n[FEN \"W:WKa1:Bb2,h8\"]\n1. a1xc3 *";
        let brazilian = replay_game(&game(brazilian), 1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(brazilian.position().to_fen(), "B:WKc3:Bh8");
    }

    #[test]
    fn bad_fen_is_reported() {
        let err = replay_game(&game("[FEN \"nonsense\"]\n1. 22-19 *"), 2);
        assert!(matches!(err, Err(ReplayError::BadFen { game: 2, .. })));
    }
}
