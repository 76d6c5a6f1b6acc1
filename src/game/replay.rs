//! Replays PDN games with the rules core: every move must be legal in turn.
//!
//! ```
//! use damiera::game::pdn::parse_pdn;
//! use damiera::game::replay::replay_game;
//! let games = parse_pdn("1. 22-18 11-14 2. 18x11 7x14 *").unwrap();
//! let replay = replay_game(&games[0], 1).unwrap();
//! assert_eq!(replay.positions.len(), 5);
//! ```

use std::fmt;

use crate::board::{Color, Move, Position};
use crate::movegen::{MoveError, legal_moves, parse_move};

use super::pdn::PdnGame;

/// A legally replayed game.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Every position, from the start position to the final one (one more than moves).
    pub positions: Vec<Position>,
    /// The moves played.
    pub moves: Vec<Move>,
}

impl Replay {
    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        self.positions
            .last()
            .copied()
            .unwrap_or_else(Position::start)
    }

    /// The loser when the game ended by the rules: the side to move in the final
    /// position has no legal move (Art. 9.1). `None` when the game could go on.
    pub fn loser_by_rules(&self) -> Option<Color> {
        let last = self.final_position();
        legal_moves(&last).is_empty().then(|| last.side_to_move())
    }
}

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

/// Replays `game` (numbered `game_no` in messages), stopping at the first illegal move.
pub fn replay_game(game: &PdnGame, game_no: usize) -> Result<Replay, ReplayError> {
    let mut pos = start_position(game, game_no)?;
    let mut replay = Replay {
        positions: vec![pos],
        moves: Vec::with_capacity(game.moves.len()),
    };
    for m in &game.moves {
        let mv = parse_move(&pos, &m.text).map_err(|error| ReplayError::IllegalMove {
            game: game_no,
            number: m.number,
            side: pos.side_to_move(),
            error,
        })?;
        pos = pos.play(mv);
        replay.moves.push(mv);
        replay.positions.push(pos);
    }
    Ok(replay)
}

/// Replays every game; the first error stops.
pub fn replay_all(games: &[PdnGame]) -> Result<Vec<Replay>, ReplayError> {
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
        assert_eq!(r.as_ref().map(|r| r.moves.len()), Ok(4));
        assert_eq!(r.map(|r| r.loser_by_rules()), Ok(None));
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
        assert_eq!(r.map(|r| r.loser_by_rules()), Ok(Some(Color::Black)));
    }

    #[test]
    fn bad_fen_is_reported() {
        let err = replay_game(&game("[FEN \"nonsense\"]\n1. 22-19 *"), 2);
        assert!(matches!(err, Err(ReplayError::BadFen { game: 2, .. })));
    }
}
