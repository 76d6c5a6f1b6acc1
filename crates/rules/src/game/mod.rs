//! The game room: one [`Game`] — start position, moves, the history that repetitions
//! and the move limit can reach, and the verdict under [`DrawRules`] — and the game
//! records that carry games in and out of Damiera (PDN, with their replay).
//!
//! Every front end (the Hub session, the console, the web board, the match runner,
//! self-play, `analyse`) keeps its games here, so a game ends at the same ply whatever
//! plays it; the search takes its move limit from the same [`DrawRules`]. The room
//! depends on `board` and `movegen` only.
//!
//! ```
//! use damiera_rules::board::Position;
//! use damiera_rules::game::{DrawReason, Game, Verdict};
//! // A white king on 29 and a black king on 4 shuffle back and forth.
//! let mut game = Game::new(Position::parse("W:WK29:BK4").unwrap());
//! for text in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4"] {
//!     game.play_text(text).unwrap();
//! }
//! assert_eq!(game.verdict(), Verdict::Draw(DrawReason::Repetition { times: 3 }));
//! ```

mod draw_rules;
pub mod openings;
pub mod pdn;
pub mod pdn_file;
pub mod record;
pub mod replay;

pub use draw_rules::{
    DrawReason, DrawRules, Endings, Verdict, WinReason, count_pieces, repeats_in_search,
};

use crate::board::{HouseRule, Move, Position};
use crate::movegen::{MoveError, is_irreversible, legal_moves, parse_move};

/// A game: its start position, the moves played, every position they lead through and
/// the draw rules it is played under.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    rules: DrawRules,
    /// The start position, then the position after each move.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` under the rules of its variant ([`DrawRules::for_variant`]:
    /// for Italian the third occurrence and 40 moves each).
    pub fn new(start: Position) -> Game {
        Game::with_rules(start, DrawRules::for_variant(start.variant()))
    }

    /// A game from `start` under `rules`.
    pub fn with_rules(start: Position, rules: DrawRules) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The game from `start` through `moves` (path or Hub text), each checked against
    /// the position it is played in; the error names the move by its 1-based index.
    pub fn from_texts<S: AsRef<str>>(
        start: Position,
        rules: DrawRules,
        moves: &[S],
    ) -> Result<Game, String> {
        let mut game = Game::with_rules(start, rules);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        Ok(game)
    }

    /// The draw rules.
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// Changes the draw rules (the moves stay).
    pub fn set_rules(&mut self, rules: DrawRules) {
        self.rules = rules;
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.positions[self.moves.len()]
    }

    /// The start position and the position after each move (one more than moves).
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Plays `mv`, which must be legal in the current position (see [`Game::play_text`]
    /// for moves from outside).
    pub fn play(&mut self, mv: Move) {
        let next = self.position().play(mv);
        self.moves.push(mv);
        self.positions.push(next);
    }

    /// Plays a move given as text (path form `22x15x6` or Hub form), checked against the
    /// rules. A finished game takes moves too while any is legal: front ends that end
    /// games check [`Game::verdict`] first.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = parse_move(&self.position(), text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// Keeps the first `plies` moves (all of them when there are fewer).
    pub fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
        self.positions.truncate(self.moves.len() + 1);
    }

    /// Reversible plies (kings' quiet moves) just before ply `ply`: the run since the
    /// last irreversible move, or since the start.
    fn run_at(&self, ply: usize) -> usize {
        (0..ply)
            .rev()
            .take_while(|&i| !is_irreversible(&self.positions[i], self.moves[i]))
            .count()
    }

    /// Reversible plies since the last capture or man move (or the start): what the
    /// move limit counts.
    pub fn reversible_plies(&self) -> usize {
        self.run_at(self.moves.len())
    }

    /// Keys of the positions since the last irreversible move, oldest first, the
    /// current one excluded: every earlier position that can come back. Its length is
    /// [`Game::reversible_plies`]. The search takes it for repetitions and the limit.
    pub fn history_keys(&self) -> Vec<u64> {
        let ply = self.moves.len();
        self.positions[ply - self.run_at(ply)..ply]
            .iter()
            .map(Position::key)
            .collect()
    }

    /// The verdict at the current position.
    pub fn verdict(&self) -> Verdict {
        self.verdict_at(self.moves.len())
    }

    /// The verdict of the game stopped here unfinished (at a move limit of a match, or
    /// when a player asks): its [`Game::verdict`] if it is over, else under Damka's
    /// `count-pieces` house rule the count ([`count_pieces`]), else still ongoing.
    pub fn adjudicated(&self) -> Verdict {
        let verdict = self.verdict();
        let pos = self.position();
        if verdict.is_over() || !pos.house_rules().contains(HouseRule::CountPieces) {
            return verdict;
        }
        count_pieces(&pos)
    }

    /// The verdict at ply `ply` (0 = the start position), as if the game stopped there;
    /// a ply past the end is read as the end. In order: no legal move loses, then the
    /// repetition, then the move limit, then the variant's material rules.
    pub fn verdict_at(&self, ply: usize) -> Verdict {
        let ply = ply.min(self.moves.len());
        let pos = self.positions[ply];
        if legal_moves(&pos).is_empty() {
            return Verdict::Win(pos.side_to_move().opponent(), WinReason::NoLegalMove);
        }
        let run = self.run_at(ply);
        if let Some(wanted) = self.rules.repetitions {
            let key = pos.key();
            let times = self.positions[ply - run..=ply]
                .iter()
                .filter(|p| p.key() == key)
                .count() as u32;
            if times >= wanted {
                return Verdict::Draw(DrawReason::Repetition { times });
            }
        }
        if let (Some(moves), Some(limit)) = (self.rules.quiet_moves, self.rules.quiet_plies())
            && run >= limit
        {
            return Verdict::Draw(DrawReason::QuietMoves { moves });
        }
        self.rules
            .endings
            .verdict(&self.positions[..=ply], &self.moves[..ply])
            .map_or(Verdict::Ongoing, Verdict::Draw)
    }
}

#[cfg(test)]
mod tests;
