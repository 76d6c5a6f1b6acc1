//! The game shown on the board: start position, moves, the ply being viewed, the
//! rules' verdict (no move, repetition, 40-move rule) and PDN in and out.

use serde_json::{Value, json};

use crate::board::{Color, Move, Position};
use crate::game::pdn::{parse_pdn, write_pdn};
use crate::game::replay::replay_game;
use crate::movegen::{capture_paths, hub_text, legal_moves, parse_move, path_text};

/// Plies without a capture or a man move that draw the game (40 moves per side).
pub const QUIET_PLIES_DRAW: usize = 80;

/// How often a position must occur (same side to move) to draw.
pub const REPETITIONS_DRAW: usize = 3;

/// A game: the start position, every move played, and the ply shown on the board.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    cursor: usize,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// PDN result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why, in words.
    pub reason: String,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Game {
    /// A game from `start` with no moves.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            cursor: 0,
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The ply shown (0 = start position).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// True when the last position is shown.
    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The position shown.
    pub fn current(&self) -> Position {
        self.positions[self.cursor]
    }

    /// Shows ply `ply`; `Err` when there is no such ply.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.moves.len() {
            return Err(format!(
                "no ply {ply}: the game has {} plies",
                self.moves.len()
            ));
        }
        self.cursor = ply;
        Ok(())
    }

    /// Plays `text` (path or Hub form) in the position shown; later moves are dropped.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        if let Some(end) = self.ending_at(self.cursor) {
            return Err(format!("the game is over: {}", end.reason));
        }
        let mv = parse_move(&self.current(), text).map_err(|e| e.to_string())?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a legal move in the position shown, dropping the moves after it.
    pub fn play(&mut self, mv: Move) {
        let next = self.current().play(mv);
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.moves.push(mv);
        self.positions.push(next);
        self.cursor += 1;
    }

    /// Takes back moves until it is `human`'s turn again (at least one ply), showing
    /// the new last position. `Err` at the start of the game.
    pub fn take_back(&mut self, human: Option<Color>) -> Result<(), String> {
        self.cursor = self.moves.len();
        if self.moves.is_empty() {
            return Err("nothing to take back".into());
        }
        self.pop();
        if let Some(h) = human
            && self.current().side_to_move() != h
            && !self.moves.is_empty()
        {
            self.pop();
        }
        Ok(())
    }

    fn pop(&mut self) {
        self.moves.pop();
        self.positions.pop();
        self.cursor = self.moves.len();
    }

    /// The rules' verdict at ply `ply`, if the game is over there.
    pub fn ending_at(&self, ply: usize) -> Option<Ending> {
        let pos = self.positions[ply];
        if legal_moves(&pos).is_empty() {
            let side = pos.side_to_move();
            let result = if side == Color::White { "0-1" } else { "1-0" };
            let reason = format!("{} has no legal move", side_name(side));
            return Some(Ending { result, reason });
        }
        let seen = self.positions[..=ply].iter().filter(|p| **p == pos).count();
        if seen >= REPETITIONS_DRAW {
            let reason = format!("repetition ({seen} times)");
            return Some(Ending {
                result: "1/2-1/2",
                reason,
            });
        }
        if self.quiet_plies(ply) >= QUIET_PLIES_DRAW {
            let reason = "40-move rule (40 moves each without a capture or a man move)".into();
            return Some(Ending {
                result: "1/2-1/2",
                reason,
            });
        }
        None
    }

    /// Plies before `ply` since the last capture or man move.
    fn quiet_plies(&self, ply: usize) -> usize {
        (0..ply)
            .rev()
            .take_while(|&i| {
                let mv = self.moves[i];
                let king = self.positions[i]
                    .piece_at(mv.from())
                    .is_some_and(|p| p.king);
                king && !mv.is_capture()
            })
            .count()
    }

    /// The verdict at the last ply.
    pub fn ending(&self) -> Option<Ending> {
        self.ending_at(self.moves.len())
    }

    /// Move list entries: ply, move number, side and path text.
    pub fn move_list(&self) -> Vec<Value> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let pos = self.positions[i];
                json!({
                    "ply": i + 1,
                    "number": self.move_number(i),
                    "side": side_name(pos.side_to_move()),
                    "text": path_text(&pos, mv),
                    "hub": hub_text(mv),
                })
            })
            .collect()
    }

    /// The full-move number of ply index `i` (0-based), counting from the start side.
    fn move_number(&self, i: usize) -> usize {
        let black_first = self.start().side_to_move() == Color::Black;
        (i + usize::from(black_first)) / 2 + 1
    }

    /// The moves up to the ply shown, Hub form (for `pos ... moves=`).
    pub fn hub_moves_to_cursor(&self) -> Vec<String> {
        self.moves[..self.cursor]
            .iter()
            .map(|&m| hub_text(m))
            .collect()
    }

    /// The last move played to reach the ply shown: from, to and captured squares.
    pub fn last_move(&self) -> Value {
        if self.cursor == 0 {
            return Value::Null;
        }
        let mv = self.moves[self.cursor - 1];
        let captured: Vec<u8> = mv.captured().iter().map(|s| s.number()).collect();
        json!({"from": mv.from().number(), "to": mv.to().number(), "captured": captured})
    }

    /// The game as PDN, with the given player names. The moves go through the PDN
    /// reader (movetext we write ourselves), so the record is built by the same code
    /// that reads uploads, whatever fields a PDN move grows.
    pub fn to_pdn(&self, white: &str, black: &str) -> Result<String, String> {
        let result = self.ending().map_or("*", |e| e.result);
        let mut movetext = String::new();
        for (i, &mv) in self.moves.iter().enumerate() {
            let pos = self.positions[i];
            let number = self.move_number(i);
            match pos.side_to_move() {
                Color::White => movetext.push_str(&format!("{number}. ")),
                Color::Black if i == 0 => movetext.push_str(&format!("{number}... ")),
                Color::Black => {}
            }
            movetext.push_str(&path_text(&pos, mv));
            movetext.push(' ');
        }
        movetext.push_str(result);
        let mut game = parse_pdn(&movetext)
            .map_err(|e| format!("cannot write the game as PDN: {e}"))?
            .into_iter()
            .next()
            .unwrap_or_default();
        for (k, v) in [
            ("Event", "Damiera web board"),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("GameType", "22"),
        ] {
            game.set_tag(k, v);
        }
        if self.start() != Position::start() {
            game.set_tag("SetUp", "1");
            game.set_tag("FEN", &self.start().to_fen());
        }
        if let Some(end) = self.ending() {
            game.set_tag("Termination", &end.reason);
        }
        Ok(write_pdn(&[game]))
    }

    /// The first game of a PDN text, replayed by the rules; the last ply is shown.
    pub fn from_pdn(text: &str) -> Result<Game, String> {
        let games = parse_pdn(text).map_err(|e| format!("bad PDN: {e}"))?;
        let first = games.first().ok_or("the PDN text holds no game")?;
        let replay = replay_game(first, 1).map_err(|e| format!("bad PDN: {e}"))?;
        let cursor = replay.moves.len();
        Ok(Game {
            positions: replay.positions,
            moves: replay.moves,
            cursor,
        })
    }
}

/// The legal moves of `pos` for the page: Hub and path text, squares, and every
/// landing-square path (start included) by which the move can be made.
pub fn legal_json(pos: &Position) -> Vec<Value> {
    legal_moves(pos)
        .as_slice()
        .iter()
        .map(|&mv| {
            let paths: Vec<Vec<u8>> = if mv.is_capture() {
                capture_paths(pos, mv)
                    .iter()
                    .map(|p| p.iter().map(|s| s.number()).collect())
                    .collect()
            } else {
                vec![vec![mv.from().number(), mv.to().number()]]
            };
            let captured: Vec<u8> = mv.captured().iter().map(|s| s.number()).collect();
            json!({
                "hub": hub_text(mv),
                "text": path_text(pos, mv),
                "from": mv.from().number(),
                "to": mv.to().number(),
                "captured": captured,
                "paths": paths,
            })
        })
        .collect()
}

/// The 32 squares of `pos` as piece letters (`w b W B`, `e` for empty).
pub fn board_json(pos: &Position) -> String {
    pos.to_hub()[1..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_goto_and_take_back() {
        let mut g = Game::new(Position::start());
        g.play_text("22-19").unwrap();
        g.play_text("11-15").unwrap();
        assert_eq!(g.moves().len(), 2);
        g.goto(1).unwrap();
        assert!(g.goto(3).is_err());
        g.play_text("10-14").unwrap();
        assert_eq!(g.moves().len(), 2, "moves after the shown ply are dropped");
        g.take_back(Some(Color::White)).unwrap();
        assert_eq!(g.moves().len(), 0, "back to White's turn");
        assert!(g.take_back(None).is_err());
    }

    #[test]
    fn illegal_and_finished_games_refuse_moves() {
        let mut g = Game::new(Position::start());
        assert!(g.play_text("22-17").is_err());
        assert!(g.play_text("nonsense").is_err());
        let lost = Position::parse("W:W:B1").unwrap();
        let mut g = Game::new(lost);
        let end = g.ending().unwrap();
        assert_eq!(end.result, "0-1");
        assert!(g.play_text("1-5").unwrap_err().contains("game is over"));
    }

    #[test]
    fn repetition_and_forty_moves() {
        let start = Position::parse("W:WK29:BK4").unwrap();
        let mut g = Game::new(start);
        for m in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29"] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.ending(), None);
        g.play_text("8-4").unwrap();
        assert_eq!(g.ending().unwrap().reason, "repetition (3 times)");
        assert!(g.quiet_plies(8) == 8);
    }

    #[test]
    fn pdn_round_trip() {
        let mut g = Game::new(Position::start());
        for m in ["22-18", "11-14", "18x11", "7x14"] {
            g.play_text(m).unwrap();
        }
        let text = g.to_pdn("me", "Damiera").unwrap();
        assert!(text.contains("[White \"me\"]"), "{text}");
        let back = Game::from_pdn(&text).unwrap();
        assert_eq!(back.moves(), g.moves());
        // Black to move first.
        let mut g = Game::new(Position::parse("B:W22:B1").unwrap());
        for m in ["1-5", "22-18"] {
            g.play_text(m).unwrap();
        }
        let text = g.to_pdn("a", "b").unwrap();
        assert!(text.contains("1... 1-5 2. 22-18"), "{text}");
        let back = Game::from_pdn(&text).unwrap();
        assert_eq!((back.start(), back.moves()), (g.start(), g.moves()));
        assert!(Game::from_pdn("1. 22-17 *").is_err());
        assert!(Game::from_pdn("").is_err());
    }

    #[test]
    fn legal_moves_carry_paths() {
        let pos = Position::parse("W:W19:B14,6").unwrap();
        let legal = legal_json(&pos);
        assert_eq!(legal.len(), 1);
        assert_eq!(legal[0]["paths"], json!([[19, 10, 3]]));
        let ring = Position::parse("W:WK18:B14,15,22,23").unwrap();
        let legal = legal_json(&ring);
        assert_eq!(legal.len(), 1, "one move");
        assert_eq!(
            legal[0]["paths"].as_array().map(Vec::len),
            Some(2),
            "two paths"
        );
    }
}
