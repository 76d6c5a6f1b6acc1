//! Replays PDN games with the rules core: every move must be legal in turn.
//!
//! ```
//! use damiera::game::pdn::parse_pdn;
//! use damiera::game::replay::replay_game;
//! let games = parse_pdn("1. 22-18 11-14 2. 18x11 7x14 *").unwrap();
//! let game = replay_game(&games[0], 1).unwrap();
//! assert_eq!(game.positions().len(), 5);
//! ```

use std::fmt;

use crate::board::{Color, Position};
use crate::movegen::MoveError;

use super::Game;
use super::pdn::PdnGame;
use super::pdn_file::check_game_type;

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
    /// The `GameType` tag names another game.
    GameType {
        /// 1-based game number.
        game: usize,
        /// Which game type, in words.
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

/// The start position of a game: its `FEN` tag, or the initial position.
pub fn start_position(game: &PdnGame, game_no: usize) -> Result<Position, ReplayError> {
    match game.tag("FEN") {
        None => Ok(Position::start()),
        Some(text) => Position::parse(text).map_err(|e| ReplayError::BadFen {
            game: game_no,
            message: e.to_string(),
        }),
    }
}

/// Replays `game` (numbered `game_no` in messages) under the default draw rules,
/// stopping at the first illegal move. A game of another `GameType` is refused.
pub fn replay_game(game: &PdnGame, game_no: usize) -> Result<Game, ReplayError> {
    check_game_type(game).map_err(|message| ReplayError::GameType {
        game: game_no,
        message,
    })?;
    let mut replay = Game::new(start_position(game, game_no)?);
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
        let err = replay_game(&game("[GameType \"21\"]\n1. 22-18 *"), 4);
        let text = err.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(text, "game 4: GameType 21 is English draughts, not Italian");
    }

    #[test]
    fn bad_fen_is_reported() {
        let err = replay_game(&game("[FEN \"nonsense\"]\n1. 22-19 *"), 2);
        assert!(matches!(err, Err(ReplayError::BadFen { game: 2, .. })));
    }
}
