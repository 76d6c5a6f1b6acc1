//! The game shown on the board: a [`Game`] of the game room and the ply being viewed,
//! with its moves and verdict as the page reads them, and PDN in and out.

use serde_json::{Value, json};

use crate::board::{Color, Move, Position};
use crate::game::pdn::{PdnGame, parse_pdn, write_pdn};
use crate::game::pdn_file::{describe, read_games};
use crate::game::replay::replay_game;
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{capture_paths, hub_text, legal_moves, path_text};

/// A game and the ply shown on the board.
#[derive(Clone, Debug)]
pub struct ShownGame {
    game: Game,
    cursor: usize,
}

/// What a PDN file gives the board: one game, or the list to choose from.
#[derive(Clone, Debug)]
pub enum PdnLoad {
    /// The game to show.
    Game(ShownGame),
    /// The file holds several games: one line about each, in file order.
    Choose(Vec<String>),
}

impl ShownGame {
    /// A game from `start` with no moves, under the default draw rules.
    pub fn new(start: Position) -> ShownGame {
        ShownGame::with_rules(start, DrawRules::default())
    }

    /// A game from `start` with no moves, under `rules`.
    pub fn with_rules(start: Position, rules: DrawRules) -> ShownGame {
        ShownGame {
            game: Game::with_rules(start, rules),
            cursor: 0,
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.game.start()
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The ply shown (0 = start position).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// True when the last position is shown.
    pub fn at_end(&self) -> bool {
        self.cursor == self.game.plies()
    }

    /// The position shown.
    pub fn current(&self) -> Position {
        self.game.positions()[self.cursor]
    }

    /// Shows ply `ply`; `Err` when there is no such ply.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.game.plies() {
            return Err(format!(
                "no ply {ply}: the game has {} plies",
                self.game.plies()
            ));
        }
        self.cursor = ply;
        Ok(())
    }

    /// Plays `text` (path or Hub form) in the position shown; later moves are dropped.
    /// A game over by the rules at the ply shown takes no move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let verdict = self.verdict_at(self.cursor);
        if verdict.is_over() {
            return Err(format!("the game is over: {verdict}"));
        }
        self.game.truncate(self.cursor);
        let mv = self.game.play_text(text).map_err(|e| e.to_string())?;
        self.cursor += 1;
        Ok(mv)
    }

    /// Plays a legal move in the position shown, dropping the moves after it.
    pub fn play(&mut self, mv: Move) {
        self.game.truncate(self.cursor);
        self.game.play(mv);
        self.cursor += 1;
    }

    /// Takes back moves until it is `human`'s turn again (at least one ply), showing
    /// the new last position. `Err` at the start of the game.
    pub fn take_back(&mut self, human: Option<Color>) -> Result<(), String> {
        if self.game.undo().is_none() {
            self.cursor = 0;
            return Err("nothing to take back".into());
        }
        if let Some(h) = human
            && self.game.position().side_to_move() != h
            && self.game.plies() > 0
        {
            self.game.undo();
        }
        self.cursor = self.game.plies();
        Ok(())
    }

    /// The rules' verdict at ply `ply`.
    pub fn verdict_at(&self, ply: usize) -> Verdict {
        self.game.verdict_at(ply)
    }

    /// The verdict at the last ply.
    pub fn verdict(&self) -> Verdict {
        self.game.verdict()
    }

    /// Move list entries: ply, move number, side and path text.
    pub fn move_list(&self) -> Vec<Value> {
        let positions = self.game.positions();
        self.moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let pos = positions[i];
                json!({
                    "ply": i + 1,
                    "number": self.move_number(i),
                    "side": pos.side_to_move().name(),
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
        self.moves()[..self.cursor]
            .iter()
            .map(|&m| hub_text(m))
            .collect()
    }

    /// The last move played to reach the ply shown: from, to and captured squares.
    pub fn last_move(&self) -> Value {
        if self.cursor == 0 {
            return Value::Null;
        }
        let mv = self.moves()[self.cursor - 1];
        let captured: Vec<u8> = mv.captured().iter().map(|s| s.number()).collect();
        json!({"from": mv.from().number(), "to": mv.to().number(), "captured": captured})
    }

    /// The game as PDN, with the given player names. The moves go through the PDN
    /// reader (movetext we write ourselves), so the record is built by the same code
    /// that reads uploads, whatever fields a PDN move grows.
    pub fn to_pdn(&self, white: &str, black: &str) -> Result<String, String> {
        let verdict = self.verdict();
        let result = verdict.result();
        let mut movetext = String::new();
        for (i, &mv) in self.moves().iter().enumerate() {
            let pos = self.game.positions()[i];
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
        if verdict.is_over() {
            game.set_tag("Termination", &verdict.to_string());
        }
        Ok(write_pdn(&[game]))
    }

    /// The game of a PDN file's bytes (any encoding other programs write): game
    /// `choice` (0-based), or the only game; a file of several games without a choice
    /// gives the list to choose from. The game is replayed by the rules and its last
    /// ply shown.
    pub fn from_pdn(bytes: &[u8], choice: Option<usize>) -> Result<PdnLoad, String> {
        let games = read_games(bytes).map_err(|e| format!("bad PDN: {e}"))?;
        let index = match (choice, games.len()) {
            (_, 0) => return Err("the PDN file holds no game".into()),
            (Some(i), n) if i >= n => {
                return Err(format!("no game {}: the PDN file holds {n}", i + 1));
            }
            (Some(i), _) => i,
            (None, 1) => 0,
            (None, _) => {
                let list = games.iter().enumerate().map(|(i, g)| describe(i, g));
                return Ok(PdnLoad::Choose(list.collect()));
            }
        };
        Ok(PdnLoad::Game(ShownGame::from_record(&games[index], index)?))
    }

    fn from_record(record: &PdnGame, index: usize) -> Result<ShownGame, String> {
        let game = replay_game(record, index + 1).map_err(|e| format!("bad PDN: {e}"))?;
        let cursor = game.plies();
        Ok(ShownGame { game, cursor })
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
        let mut g = ShownGame::new(Position::start());
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
        let mut g = ShownGame::new(Position::start());
        assert!(g.play_text("22-17").is_err());
        assert!(g.play_text("nonsense").is_err());
        let lost = Position::parse("W:W:B1").unwrap();
        let mut g = ShownGame::new(lost);
        assert_eq!(g.verdict().result(), "0-1");
        assert!(g.play_text("1-5").unwrap_err().contains("game is over"));
    }

    #[test]
    fn repetition_and_forty_moves() {
        let start = Position::parse("W:WK29:BK4").unwrap();
        let mut g = ShownGame::new(start);
        for m in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29"] {
            g.play_text(m).unwrap();
        }
        assert_eq!(g.verdict(), Verdict::Ongoing);
        g.play_text("8-4").unwrap();
        assert_eq!(g.verdict().to_string(), "repetition (3 times)");
        assert_eq!(g.game().reversible_plies(), 8);
    }

    #[test]
    fn pdn_round_trip() {
        let mut g = ShownGame::new(Position::start());
        for m in ["22-18", "11-14", "18x11", "7x14"] {
            g.play_text(m).unwrap();
        }
        let text = g.to_pdn("me", "Damiera").unwrap();
        assert!(text.contains("[White \"me\"]"), "{text}");
        let back = loaded(text.as_bytes());
        assert_eq!(back.moves(), g.moves());
        // Black to move first.
        let mut g = ShownGame::new(Position::parse("B:W22:B1").unwrap());
        for m in ["1-5", "22-18"] {
            g.play_text(m).unwrap();
        }
        let text = g.to_pdn("a", "b").unwrap();
        assert!(text.contains("1... 1-5 2. 22-18"), "{text}");
        let back = loaded(text.as_bytes());
        assert_eq!((back.start(), back.moves()), (g.start(), g.moves()));
        assert!(ShownGame::from_pdn(b"1. 22-17 *", None).is_err());
        assert!(ShownGame::from_pdn(b"", None).is_err());
    }

    fn loaded(bytes: &[u8]) -> ShownGame {
        match ShownGame::from_pdn(bytes, None) {
            Ok(PdnLoad::Game(g)) => g,
            other => panic!("expected one game: {other:?}"),
        }
    }

    #[test]
    fn several_games_offer_a_choice() {
        let text = b"[White \"A\"]\n1. 22-18 *\n\n[White \"B\"]\n1. 21-17 11-14 *\n";
        let Ok(PdnLoad::Choose(list)) = ShownGame::from_pdn(text, None) else {
            panic!("expected a choice");
        };
        assert_eq!(list.len(), 2);
        assert!(list[1].starts_with("2. B - ?"), "{list:?}");
        let Ok(PdnLoad::Game(g)) = ShownGame::from_pdn(text, Some(1)) else {
            panic!("expected game 2");
        };
        assert_eq!(g.moves().len(), 2);
        let err = ShownGame::from_pdn(text, Some(2)).err().unwrap_or_default();
        assert_eq!(err, "no game 3: the PDN file holds 2");
        let english = b"[GameType \"21\"]\n1. 22-18 *";
        let err = ShownGame::from_pdn(english, None).err().unwrap_or_default();
        assert_eq!(
            err,
            "bad PDN: PDN game 1: GameType 21 is English draughts, not Italian"
        );
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
