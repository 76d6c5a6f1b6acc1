//! The game a `pos` command describes: its current position and the keys of the
//! positions since the last irreversible move (for repetition draws).

use super::parser::PositionSpec;
use crate::board::{Move, Position};
use crate::movegen::parse_move;

/// A position with the part of its game that repetitions can reach.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// The current position.
    pub position: Position,
    /// Keys of the game's positions since its last irreversible move (men moves and
    /// captures are irreversible), oldest first, the current position excluded.
    pub history: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    /// A game starting at `position`, with no known past.
    pub fn new(position: Position) -> Self {
        Game {
            position,
            history: Vec::new(),
        }
    }

    /// The game of `pos <spec> moves="<moves>"`: every move is checked against the
    /// position it is played in. The error names the bad position or move.
    pub fn from_pos(spec: &PositionSpec, moves: &[String]) -> Result<Game, String> {
        let start = match spec {
            PositionSpec::Start => Position::start(),
            PositionSpec::Hub(text) => {
                Position::from_hub(text).map_err(|e| format!("bad position '{text}': {e}"))?
            }
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(&game.position, text)
                .map_err(|e| format!("move {} of moves: {e}", i + 1))?;
            game.play(mv);
        }
        Ok(game)
    }

    /// Plays a legal move, keeping the history since the last irreversible move.
    pub fn play(&mut self, mv: Move) {
        let king_moves = self.position.piece_at(mv.from()).is_some_and(|p| p.king);
        if king_moves && !mv.is_capture() {
            self.history.push(self.position.key());
        } else {
            self.history.clear();
        }
        self.position = self.position.play(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn start_with_moves() {
        let game = Game::from_pos(&PositionSpec::Start, &moves("22-19 11-15")).unwrap();
        assert_eq!(game.position.to_hub().chars().next(), Some('W'));
        assert!(game.history.is_empty());
    }

    #[test]
    fn king_moves_build_history_and_captures_clear_it() {
        // White king on 29, black king on 4.
        let spec = PositionSpec::Hub(format!("W{}B{}W{}", "e".repeat(3), "e".repeat(24), "eee"));
        let game = Game::from_pos(&spec, &moves("29-25 4-8 25-29 8-4")).unwrap();
        assert_eq!(game.history.len(), 4);
        let start = Game::from_pos(&spec, &[]).unwrap();
        assert_eq!(game.position.key(), start.position.key());
        assert_eq!(game.history[0], start.position.key());
    }

    #[test]
    fn illegal_move_is_named_with_legal_moves() {
        let err = Game::from_pos(&PositionSpec::Start, &moves("22-19 22-19")).unwrap_err();
        assert!(err.contains("move 2"), "{err}");
        assert!(err.contains("legal moves"), "{err}");
        let err = Game::from_pos(&PositionSpec::Hub("Wbbb".into()), &[]).unwrap_err();
        assert!(err.contains("bad position"), "{err}");
    }
}
