//! PDN games indexed by position: for each position the games passed through, which
//! move each played there, and how each game ended. `book import` makes a book of the
//! counts ([`GameIndex::to_book`]); the opening explorer lists a position's moves with
//! their games ([`GameIndex::moves_of`]).

use std::collections::HashMap;

use super::key::book_key;
use super::{Book, Entry, encode};
use crate::board::{Color, Move, Position, Variant};
use crate::game::pdn_file::PdnRead;
use crate::movegen::legal_moves;

/// How a game ended, as its PDN result says (`1-0` a win for White whoever moved first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0` (or `2-0`).
    WhiteWon,
    /// `1/2-1/2` (or `1-1`).
    Drawn,
    /// `0-1` (or `0-2`).
    BlackWon,
}

impl Outcome {
    /// The outcome of a PDN result token; `None` for an unknown result.
    pub fn of_result(token: &str) -> Option<Outcome> {
        match token.trim() {
            "1-0" | "2-0" => Some(Outcome::WhiteWon),
            "0-1" | "0-2" => Some(Outcome::BlackWon),
            "1/2-1/2" | "1-1" => Some(Outcome::Drawn),
            _ => None,
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::WhiteWon => Some(Color::White),
            Outcome::Drawn => None,
            Outcome::BlackWon => Some(Color::Black),
        }
    }

    /// The PDN result text: `1-0`, `1/2-1/2`, `0-1`.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::WhiteWon => "1-0",
            Outcome::Drawn => "1/2-1/2",
            Outcome::BlackWon => "0-1",
        }
    }
}

/// One game of the index: its number in its file, its players and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedGame {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// The `White` tag (`?` when missing).
    pub white: String,
    /// The `Black` tag (`?` when missing).
    pub black: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// A move of a position with the games that played it there (indices into
/// [`GameIndex::games`], in file order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveGames {
    /// The move, legal in the position.
    pub mv: Move,
    /// The games that played it.
    pub games: Vec<usize>,
}

/// A move as the book writes it ([`encode`]).
type Code = (u8, u8, u32, u8);

/// The games of one game type with a result, indexed by the book key of every position
/// of their first plies.
#[derive(Clone, Debug)]
pub struct GameIndex {
    game: Variant,
    games: Vec<IndexedGame>,
    /// By book key: the side to move there, and each (move, game) once.
    at: HashMap<u64, (Color, Vec<(Code, u32)>)>,
    left_out: usize,
}

impl GameIndex {
    /// The games of `reads` that are of `game` and have a result, their first `plies`
    /// plies (all with `None`); the others are left out and counted.
    pub fn new(game: Variant, reads: &[PdnRead], plies: Option<usize>) -> GameIndex {
        let mut index = GameIndex {
            game,
            games: Vec::new(),
            at: HashMap::new(),
            left_out: 0,
        };
        for file_game in reads.iter().flat_map(|r| &r.games) {
            let replay = &file_game.replay;
            let outcome = file_game.pdn.result_or_tag().and_then(Outcome::of_result);
            let (Some(outcome), true) = (outcome, replay.start().variant() == game) else {
                index.left_out += 1;
                continue;
            };
            let Ok(id) = u32::try_from(index.games.len()) else {
                index.left_out += 1;
                continue;
            };
            let tag = |name| {
                file_game
                    .pdn
                    .tag(name)
                    .filter(|v: &&str| !v.trim().is_empty())
                    .unwrap_or("?")
                    .to_string()
            };
            index.games.push(IndexedGame {
                number: file_game.number,
                white: tag("White"),
                black: tag("Black"),
                outcome,
            });
            let steps = replay.positions().iter().zip(replay.moves());
            for (position, &mv) in steps.take(plies.unwrap_or(usize::MAX)) {
                let (_, list) = index
                    .at
                    .entry(book_key(position))
                    .or_insert_with(|| (position.side_to_move(), Vec::new()));
                let item = (encode(game, mv), id);
                // A game that comes back to a position counts once for its move there.
                if !list.contains(&item) {
                    list.push(item);
                }
            }
        }
        index
    }

    /// The game type of the games.
    pub fn game(&self) -> Variant {
        self.game
    }

    /// The games indexed, in file order.
    pub fn games(&self) -> &[IndexedGame] {
        &self.games
    }

    /// Games left out: of another game type, or without a result.
    pub fn left_out(&self) -> usize {
        self.left_out
    }

    /// The moves the games played in `position`, most played first (ties in the order of
    /// the move generator); a recorded move that is not legal there (a key collision) is
    /// left out.
    pub fn moves_of(&self, position: &Position) -> Vec<MoveGames> {
        let game = self.game;
        if game != position.variant() {
            return Vec::new();
        }
        let Some((_, list)) = self.at.get(&book_key(position)) else {
            return Vec::new();
        };
        let mut moves: Vec<MoveGames> = legal_moves(position)
            .as_slice()
            .iter()
            .map(|&mv| {
                let code = encode(game, mv);
                let games = list
                    .iter()
                    .filter(|(c, _)| *c == code)
                    .map(|&(_, id)| id as usize)
                    .collect();
                MoveGames { mv, games }
            })
            .filter(|m| !m.games.is_empty())
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.games.len()));
        moves
    }

    /// The counts as a book (entries without a value): each move's games, and of them
    /// those won and lost by the side that played it.
    pub fn to_book(&self) -> Book {
        let mut entries = Vec::new();
        for (&key, (mover, list)) in &self.at {
            let mut by_move: HashMap<Code, (u32, u32, u32)> = HashMap::new();
            for &(code, id) in list {
                let Some(g) = self.games.get(id as usize) else {
                    continue;
                };
                let c = by_move.entry(code).or_default();
                c.0 = c.0.saturating_add(1);
                match g.outcome.winner() {
                    Some(w) if w == *mover => c.1 = c.1.saturating_add(1),
                    Some(_) => c.2 = c.2.saturating_add(1),
                    None => {}
                }
            }
            entries.extend(by_move.into_iter().map(
                |((from, to, captured, crowns), (count, wins, losses))| Entry {
                    key,
                    from,
                    to,
                    captured,
                    flags: crowns,
                    depth: 0,
                    value: 0,
                    search: 0,
                    count,
                    wins,
                    losses,
                },
            ));
        }
        Book::new(self.game, entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn_file::read_recovering_in;

    #[test]
    fn counts_are_for_the_mover_in_the_book_and_whites_in_the_index() {
        // English: Black moves first; White wins the first game, draws the second.
        let pdn = "[GameType \"21\"][Result \"1-0\"]\n1. 11-15 23-19 1-0\n\
                   [GameType \"21\"][Result \"1/2-1/2\"]\n1. 11-15 22-18 1/2-1/2\n\
                   [GameType \"21\"]\n1. 11-15 *\n";
        let read = read_recovering_in(pdn.as_bytes(), Variant::English);
        let index = GameIndex::new(Variant::English, &[read], None);
        assert_eq!((index.games().len(), index.left_out()), (2, 1));
        let start = Position::start_of(Variant::English);
        let moves = index.moves_of(&start);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].games, [0, 1]);
        assert_eq!(index.games()[0].outcome, Outcome::WhiteWon);
        let book = index.to_book();
        let entry = book.probe(&start)[0].entry;
        // 11-15 was Black's: one loss, one draw.
        assert_eq!((entry.count, entry.wins, entry.losses), (2, 0, 1));
        assert!(
            index
                .moves_of(&Position::start_of(Variant::Italian))
                .is_empty()
        );
    }
}
