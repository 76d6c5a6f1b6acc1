//! The game shown on the board: every line played (a [`Tree`] of moves), the line being
//! shown — a [`Game`] of the game room, so the rules' verdict is the same as everywhere
//! else — and the ply viewed in it, with the moves as the page reads them and PDN in and
//! out (variations included).

use serde_json::{Value, json};

use crate::board::games::{Kings, Landing, Precedence};
use crate::board::{Color, HouseRule, HouseRules, Move, Position, SquareNames, Variant};
use crate::game::pdn::Fix;
use crate::game::pdn::{PdnGame, PdnMove, Slot, number_word, parse_pdn, write_pdn};
use crate::game::pdn_file::{describe, read_recovering_in};
use crate::game::record::{RecordEnd, pdn_record};
use crate::game::replay::replay_game_in;
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{capture_paths, hub_text_in, legal_moves, parse_move, path_text};

use super::tree::{NodePath, Tree};

/// Deepest nesting of PDN variations read from a file; deeper ones are left out (they
/// are read recursively, and a file is outside input).
const MAX_VARIATION_DEPTH: usize = 24;

/// Every line played, the line shown and the ply viewed in it.
#[derive(Clone, Debug)]
pub struct ShownGame {
    tree: Tree,
    /// The line shown, from the start: child indices (see [`NodePath`]).
    path: NodePath,
    /// The line shown, replayed by the rules.
    game: Game,
    /// The ply viewed in the line (0 = start position).
    cursor: usize,
}

/// What a PDN file gives the board: one game, or the list to choose from.
#[derive(Clone, Debug)]
pub enum PdnLoad {
    /// The game to show, and the repairs made to it (one line each).
    Game(ShownGame, Vec<String>),
    /// The games to choose from, with what went wrong with the file.
    Choose(PdnChoice),
}

/// The games of a file to choose from.
#[derive(Clone, Debug, PartialEq)]
pub struct PdnChoice {
    /// One line about each game read, in file order, numbered as in the file.
    pub games: Vec<String>,
    /// The games' numbers in the file (a skipped game's number is missing).
    pub numbers: Vec<usize>,
    /// One line for each repair and each skipped game, naming game and line.
    pub warnings: Vec<String>,
    /// `12 games read (1 repaired), 2 skipped`.
    pub summary: String,
}

/// How the board's game ended (by the rules' verdict or a fallen flag), for the page and PDN.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardEnding {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why, in words (the PDN `Termination`).
    pub reason: String,
}

/// How the page marks a move of the tree (the review's `?`/`??`): given the moves
/// from the start up to and including it.
pub type MarkFn<'a> = dyn Fn(&[Move]) -> Option<&'static str> + 'a;

impl ShownGame {
    /// A game from `start` with no moves, under its variant's draw rules.
    pub fn new(start: Position) -> ShownGame {
        ShownGame::with_rules(start, DrawRules::for_variant(start.variant()))
    }

    /// A game from `start` with no moves, under `rules`.
    pub fn with_rules(start: Position, rules: DrawRules) -> ShownGame {
        ShownGame {
            tree: Tree::default(),
            path: Vec::new(),
            game: Game::with_rules(start, rules),
            cursor: 0,
        }
    }

    /// The line shown, as a game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Every line played.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The line shown, as child indices from the start.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.game.start()
    }

    /// The moves of the line shown.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// The ply viewed (0 = start position).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// True when the last position of the line is shown.
    pub fn at_end(&self) -> bool {
        self.cursor == self.game.plies()
    }

    /// The position viewed.
    pub fn current(&self) -> Position {
        self.game.positions()[self.cursor]
    }

    /// Shows ply `ply` of the line; `Err` when there is no such ply.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.game.plies() {
            return Err(format!(
                "no ply {ply}: the line has {} plies",
                self.game.plies()
            ));
        }
        self.cursor = ply;
        Ok(())
    }

    /// Shows the node at `path` (child indices from the start): its line, extended by
    /// main continuations, becomes the line shown, viewed at that node.
    pub fn select(&mut self, path: &[usize]) -> Result<(), String> {
        if self.tree.node(path).is_none() {
            return Err("no such move in the game".into());
        }
        let mut line = path.to_vec();
        self.tree.extend_main(&mut line);
        self.set_line(line);
        self.cursor = path.len();
        Ok(())
    }

    /// Shows the line `moves` (it must be in the tree), viewed at ply `ply`.
    pub fn select_moves(&mut self, moves: &[Move], ply: usize) -> Result<(), String> {
        let path = self
            .tree
            .find(moves)
            .ok_or("that line is no longer in the game")?;
        self.select(&path[..ply.min(path.len())])?;
        Ok(())
    }

    /// Makes `line` the line shown and replays it (it is in the tree).
    fn set_line(&mut self, line: NodePath) {
        let moves = self.tree.line(&line).unwrap_or_default();
        let mut game = Game::with_rules(self.start(), self.game.rules());
        for mv in moves {
            game.play(mv);
        }
        self.game = game;
        self.path = line;
        self.cursor = self.cursor.min(self.path.len());
    }

    /// After the tree changed: the line shown becomes the longest part of it the tree
    /// still holds.
    fn keep_line(&mut self) {
        let line = self.tree.find_prefix(self.game.moves());
        self.set_line(line);
    }

    /// Plays `text` (path or Hub form) in the position viewed. At the end of the line it
    /// extends the line; earlier, it follows the move if it was played there before and
    /// otherwise starts a variation: nothing is deleted. A position over by the rules
    /// takes no move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let verdict = self.verdict_at(self.cursor);
        if verdict.is_over() {
            return Err(format!("the game is over: {verdict}"));
        }
        let mv = parse_move(&self.current(), text).map_err(|e| e.to_string())?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays `text` at the end of the line shown (the engine's move), wherever the
    /// player is looking: a player viewing the end follows the move.
    pub fn play_at_end(&mut self, text: &str) -> Result<Move, String> {
        let viewed = self.cursor;
        let following = self.at_end();
        self.cursor = self.game.plies();
        let played = self.play_text(text);
        if !following || played.is_err() {
            self.cursor = viewed;
        }
        played
    }

    /// Plays a legal move in the position viewed (see [`ShownGame::play_text`]).
    pub fn play(&mut self, mv: Move) {
        let base = self.path[..self.cursor].to_vec();
        let Some(index) = self.tree.add(&base, mv) else {
            return;
        };
        if self.path.get(self.cursor) != Some(&index) {
            let mut line = base;
            line.push(index);
            self.tree.extend_main(&mut line);
            self.set_line(line);
        }
        self.cursor += 1;
    }

    /// Takes back moves at the end of the line shown until it is `human`'s turn again (at
    /// least one ply), showing the new end. A move with nothing played after it leaves
    /// the tree; one that has variations after it stays. `Err` at the start.
    pub fn take_back(&mut self, human: Option<Color>) -> Result<(), String> {
        if !self.back_one() {
            self.cursor = 0;
            return Err("nothing to take back".into());
        }
        if let Some(h) = human
            && self.game.position().side_to_move() != h
        {
            self.back_one();
        }
        self.cursor = self.game.plies();
        Ok(())
    }

    /// Drops the last move of the line shown (from the tree too when it is a leaf).
    fn back_one(&mut self) -> bool {
        let is_leaf = self.tree.node(&self.path).is_some_and(Tree::is_leaf);
        if self.path.is_empty() {
            return false;
        }
        if is_leaf {
            self.tree.remove(&self.path);
        }
        let mut line = self.path.clone();
        line.pop();
        self.set_line(line);
        true
    }

    /// Promotes the variation holding the move at `path` (see [`Tree::promote`]).
    pub fn promote(&mut self, path: &[usize]) -> Result<(), String> {
        self.tree.promote(path)?;
        self.keep_line();
        Ok(())
    }

    /// Deletes the move at `path` and everything played after it. The line shown, if it
    /// went through it, ends before it.
    pub fn delete(&mut self, path: &[usize]) -> Result<(), String> {
        self.tree.remove(path).ok_or("no such move in the game")?;
        self.keep_line();
        Ok(())
    }

    /// The rules' verdict at ply `ply` of the line shown.
    pub fn verdict_at(&self, ply: usize) -> Verdict {
        self.game.verdict_at(ply)
    }

    /// The verdict at the end of the line shown.
    pub fn verdict(&self) -> Verdict {
        self.game.verdict()
    }

    /// The line shown, one entry a move: ply, move number, side, path and Hub text.
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
                    "hub": hub_text_in(pos.variant(), mv),
                })
            })
            .collect()
    }

    /// The full-move number of ply index `i` (0-based), counting from the start side: a
    /// number starts with the variant's first mover (Black in English checkers).
    fn move_number(&self, i: usize) -> usize {
        let second_first = !opens_number(&self.start());
        (i + usize::from(second_first)) / 2 + 1
    }

    /// Every line played, as the page draws the move list: the main line, each move
    /// with its `path`, `ply`, `number`, `side`, `text`, whether it is on the line shown
    /// (`on_line`) or viewed (`current`), its review `mark`, and the `variations`
    /// played instead of it (each a list of moves of the same form).
    pub fn tree_json(&self, mark: &MarkFn<'_>) -> Vec<Value> {
        let mut walk = TreeWalk {
            shown: self,
            mark,
            moves: Vec::new(),
            path: Vec::new(),
        };
        walk.line(&self.tree, self.start(), 0)
    }

    /// The moves up to the ply viewed, Hub form (for `pos ... moves=`).
    pub fn hub_moves_to_cursor(&self) -> Vec<String> {
        self.moves()[..self.cursor]
            .iter()
            .map(|&m| hub_text_in(self.start().variant(), m))
            .collect()
    }

    /// The last move played to reach the ply viewed: from, to and captured squares.
    pub fn last_move(&self) -> Value {
        if self.cursor == 0 {
            return Value::Null;
        }
        let mv = self.moves()[self.cursor - 1];
        let number = |sq| self.start().variant().number_of(sq);
        let captured: Vec<u8> = mv.captured().iter().map(|&s| number(s)).collect();
        json!({"from": number(mv.from()), "to": number(mv.to()), "captured": captured})
    }

    /// The whole game as PDN (main line with every variation), with the given player
    /// names and the result of the main line, or `ending` when the game ended otherwise.
    pub fn to_pdn(&self, white: &str, black: &str, ending: Option<&BoardEnding>) -> String {
        let mut main = vec![];
        self.tree.extend_main(&mut main);
        let moves = self.tree.line(&main).unwrap_or_default();
        let mut game = Game::with_rules(self.start(), self.game.rules());
        for &mv in &moves {
            game.play(mv);
        }
        let mut record = board_record(&game, white, black, ending);
        // Each main-line move carries the alternatives to it as its variations.
        let mut node = &self.tree;
        for (ply, entry) in record.moves.iter_mut().enumerate() {
            let pos = game.positions()[ply];
            for alternative in 1..node.moves().count() {
                let mut words = Vec::new();
                movetext(node, pos, ply, alternative, &mut words);
                entry.variations.push(words.join(" "));
            }
            let Some(next) = node.child(0) else { break };
            node = next;
        }
        write_pdn(&[record])
    }

    /// The line shown, up to its end, as a PDN record without variations (for the
    /// annotated review).
    pub fn line_record(&self, white: &str, black: &str) -> PdnGame {
        board_record(&self.game, white, black, None)
    }

    /// The game of a PDN file's bytes (any encoding other programs write): game number
    /// `choice` + 1 of the file, or the only game. A file of several games without a
    /// choice, or whose reading found faults, gives the list to choose from with the
    /// warnings (a faulty game is repaired where its meaning is certain, else skipped:
    /// see [`read_recovering_in`]). The main line is replayed by the rules and its last
    /// ply shown; variations are kept as far as their moves are legal.
    /// A game's GameType picks its variant; a game without one is of `variant` (the
    /// board's). A game type Damiera does not play is refused by name.
    pub fn from_pdn(
        bytes: &[u8],
        choice: Option<usize>,
        variant: Variant,
    ) -> Result<PdnLoad, String> {
        let read = read_recovering_in(bytes, variant);
        let warning_of = |number: usize| {
            let lines = read.warnings.iter().filter(|w| w.game == number);
            lines.map(|w| w.to_string()).collect::<Vec<_>>()
        };
        let last = read.warnings.last().map(|w| w.game).into_iter();
        let count = read.games.iter().map(|g| g.number).chain(last).max();
        let chosen = match (choice, read.games.len()) {
            (_, 0) => {
                return Err(
                    match read.warnings.iter().rev().find(|w| w.fix == Fix::Skipped) {
                        Some(w) => format!("bad PDN: no game could be read: {w}"),
                        None => "the PDN file holds no game".into(),
                    },
                );
            }
            (Some(i), _) => match read.games.iter().find(|g| g.number == i + 1) {
                Some(game) => game,
                None if count.is_some_and(|n| i < n) => {
                    let why = warning_of(i + 1).pop().unwrap_or_default();
                    return Err(format!("bad PDN: game {} was skipped: {why}", i + 1));
                }
                None => {
                    let n = count.unwrap_or(0);
                    return Err(format!("no game {}: the PDN file holds {n}", i + 1));
                }
            },
            (None, 1) if read.warnings.is_empty() => &read.games[0],
            (None, _) => {
                let games = read.games.iter();
                return Ok(PdnLoad::Choose(PdnChoice {
                    games: games
                        .clone()
                        .map(|g| describe(g.number - 1, &g.pdn))
                        .collect(),
                    numbers: games.map(|g| g.number).collect(),
                    warnings: read.warnings.iter().map(|w| w.to_string()).collect(),
                    summary: read.summary(),
                }));
            }
        };
        let shown = ShownGame::from_record(&chosen.pdn, chosen.number - 1, variant)?;
        Ok(PdnLoad::Game(shown, warning_of(chosen.number)))
    }

    fn from_record(record: &PdnGame, index: usize, variant: Variant) -> Result<ShownGame, String> {
        let game =
            replay_game_in(record, index + 1, variant).map_err(|e| format!("bad PDN: {e}"))?;
        let mut shown = ShownGame::with_rules(game.start(), game.rules());
        graft(&mut shown.tree, &[], game.start(), &record.moves, 0);
        let mut main = Vec::new();
        shown.tree.extend_main(&mut main);
        shown.set_line(main);
        shown.cursor = shown.game.plies();
        Ok(shown)
    }
}

/// Walks the tree for [`ShownGame::tree_json`].
struct TreeWalk<'a, 'b> {
    shown: &'a ShownGame,
    mark: &'a MarkFn<'b>,
    moves: Vec<Move>,
    path: NodePath,
}

impl TreeWalk<'_, '_> {
    /// The line from `node` (in position `pos`) that starts with child `first` and goes
    /// on through main continuations; each main-continuation entry lists its siblings'
    /// lines as variations.
    fn line(&mut self, node: &Tree, pos: Position, first: usize) -> Vec<Value> {
        let depth = self.path.len();
        let mut out = Vec::new();
        let (mut node, mut pos, mut index) = (node, pos, first);
        while let Some(mv) = node.moves().nth(index) {
            let variations: Vec<Value> = if index == 0 {
                (1..node.moves().count())
                    .map(|j| Value::Array(self.line(node, pos, j)))
                    .collect()
            } else {
                Vec::new()
            };
            self.path.push(index);
            self.moves.push(mv);
            out.push(self.entry(&pos, mv, variations));
            let Some(next) = node.child(index) else { break };
            (node, pos, index) = (next, pos.play(mv), 0);
        }
        self.path.truncate(depth);
        self.moves.truncate(depth);
        out
    }

    fn entry(&self, pos: &Position, mv: Move, variations: Vec<Value>) -> Value {
        let ply = self.path.len();
        let shown = self.shown;
        let on_line = shown.path.starts_with(&self.path);
        json!({
            "path": self.path,
            "ply": ply,
            "number": shown.move_number(ply - 1),
            "side": pos.side_to_move().name(),
            "text": path_text(pos, mv),
            "on_line": on_line,
            "current": on_line && shown.cursor == ply,
            "mark": (self.mark)(&self.moves),
            "variations": variations,
        })
    }
}

/// Whether the side to move of `pos` makes the first move of a move number: the
/// variant's first mover (White, or Black in English checkers).
fn opens_number(pos: &Position) -> bool {
    pos.side_to_move() == pos.variant().first_mover()
}

/// The move number before the move of `pos`'s side to move (PDN's rule,
/// [`number_word`]): the variant's first mover (White; Black in English checkers) plays
/// the first move of a number.
fn push_number(words: &mut Vec<String>, pos: &Position, number: usize, opens: bool) {
    let slot = if opens_number(pos) {
        Slot::First
    } else {
        Slot::Second
    };
    words.extend(number_word(number as u32, slot, opens));
}

/// PDN movetext of the line from `node` that starts with child `first`, variations in
/// parentheses after the move they replace. `ply` is the ply index of the first move.
fn movetext(node: &Tree, pos: Position, ply: usize, first: usize, words: &mut Vec<String>) {
    let black_first = usize::from(!opens_number(&pos)) ^ (ply % 2);
    let number = |ply: usize| (ply + black_first) / 2 + 1;
    let (mut node, mut pos, mut ply, mut index) = (node, pos, ply, first);
    let mut opens = true;
    while let Some(mv) = node.moves().nth(index) {
        push_number(words, &pos, number(ply), opens);
        words.push(path_text(&pos, mv));
        opens = false;
        if index == 0 {
            for j in 1..node.moves().count() {
                words.push("(".into());
                movetext(node, pos, ply, j, words);
                words.push(")".into());
                opens = true;
            }
        }
        let Some(next) = node.child(index) else { break };
        (node, pos, ply, index) = (next, pos.play(mv), ply + 1, 0);
    }
}

/// The board's PDN record of `game`: its tags, and the result of `game` (or of
/// `ending`).
fn board_record(game: &Game, white: &str, black: &str, ending: Option<&BoardEnding>) -> PdnGame {
    let end = match ending {
        Some(e) => RecordEnd {
            result: e.result.to_string(),
            termination: Some(e.reason.clone()),
        },
        None => RecordEnd::of(game),
    };
    let tags = [
        ("Event", "Damiera web board"),
        ("White", white),
        ("Black", black),
    ];
    pdn_record(game, &tags, &end)
}

/// Adds a PDN line (`moves`, played from the node at `path`, position `pos`) to the
/// tree, with its variations, as far as its moves are legal.
fn graft(tree: &mut Tree, path: &[usize], pos: Position, moves: &[PdnMove], depth: usize) {
    let mut path = path.to_vec();
    let mut pos = pos;
    for m in moves {
        let Ok(mv) = parse_move(&pos, &m.text) else {
            return;
        };
        let Some(index) = tree.add(&path, mv) else {
            return;
        };
        if depth < MAX_VARIATION_DEPTH {
            for text in &m.variations {
                if let Some(line) = parse_pdn(text).ok().and_then(|g| g.into_iter().next()) {
                    graft(tree, &path, pos, &line.moves, depth + 1);
                }
            }
        }
        path.push(index);
        pos = pos.play(mv);
    }
}

/// The legal moves of `pos` for the page: Hub and path text, squares (numbers 1–32 in
/// the variant's numbering, as in `board`), and every landing-square path (start
/// included) by which the move can be made.
pub fn legal_json(pos: &Position) -> Vec<Value> {
    let variant = pos.variant();
    let number = |sq| variant.number_of(sq);
    legal_moves(pos)
        .as_slice()
        .iter()
        .map(|&mv| {
            let paths: Vec<Vec<u8>> = if mv.is_capture() {
                capture_paths(pos, mv)
                    .iter()
                    .map(|p| p.iter().map(|&s| number(s)).collect())
                    .collect()
            } else {
                vec![vec![number(mv.from()), number(mv.to())]]
            };
            let captured: Vec<u8> = mv.captured().iter().map(|&s| number(s)).collect();
            json!({
                "hub": hub_text_in(variant, mv),
                "text": path_text(pos, mv),
                "from": number(mv.from()),
                "to": number(mv.to()),
                "captured": captured,
                "paths": paths,
            })
        })
        .collect()
}

/// The 32 squares of `pos` as piece letters (`w b W B`, `e` for empty), in the
/// variant's numbering (the Hub position string without its side).
pub fn board_json(pos: &Position) -> String {
    pos.to_hub()[1..].to_string()
}

/// How the page draws `variant`'s board: for each square numbered 1–32 in the
/// variant's numbering (the order of [`board_json`]), its `number`, its `name` (`22`,
/// or `c3` in the algebraic variants) and its `row` (0 at the top, Black's side) and
/// `col` (0 at the left as White sees the board).
pub fn squares_json(variant: Variant) -> Vec<Value> {
    (1..=32u8)
        .filter_map(|n| variant.square_numbered(n).map(|sq| (n, sq)))
        .map(|(n, sq)| {
            let (row, col) = variant.row_col(sq);
            json!({"number": n, "name": variant.square_name(sq), "row": row, "col": col})
        })
        .collect()
}

/// Every game the board offers, for its selector: `name` and `title`, in the order of
/// [`Variant::ALL`].
pub fn games_json() -> Vec<Value> {
    Variant::ALL
        .iter()
        .map(|v| json!({"name": v.name(), "title": v.title()}))
        .collect()
}

/// The house rules the page offers as check boxes under the game selector: each with
/// whether it is on; none but for Damka.
pub fn house_rules_json(variant: Variant, house: HouseRules) -> Vec<Value> {
    if variant != Variant::Damka {
        return Vec::new();
    }
    HouseRule::ALL
        .iter()
        .map(|&r| json!({"name": r.name(), "on": house.contains(r)}))
        .collect()
}

/// What the page tells of `variant`'s rules, all read from them: the side that moves
/// first (whose moves carry the numbers), the capture rule and the steps (said when a
/// move is refused), the label of the square names and an example position text.
pub fn game_json(variant: Variant) -> Value {
    let rules = variant.rules();
    let capture = match rules.precedence {
        Precedence::Free => "Capturing is compulsory (any capture may be chosen)",
        Precedence::Quantity => {
            "Capturing is compulsory, and the capture that takes the most pieces must be made"
        }
        Precedence::QuantityThenKings => {
            "Capturing is compulsory, and the capture that takes the most pieces, then the most kings, must be made"
        }
        Precedence::Italian => {
            "Capturing is compulsory, and the capture the rules prefer (most pieces, then with a king, then most kings, then kings first) must be made"
        }
        Precedence::KingFirst => "Capturing is compulsory, and a king must capture if one can",
    };
    let kings = match rules.kings {
        Kings::Short => "kings one square in any diagonal direction",
        Kings::Flying(Landing::OnwardFirst) => "kings any distance along a free diagonal",
        Kings::Flying(Landing::JustBehind) => {
            "kings any distance along a free diagonal, landing just behind a piece they take"
        }
    };
    let (numbers, example) = match (rules.board.names, rules.board.mirrored) {
        (SquareNames::Numbers, false) => ("Square numbers (FID)", "W21-32:B1-12"),
        (SquareNames::Numbers, true) => ("Square numbers", "W21-32:B1-12"),
        (SquareNames::NumbersFromWhite, _) => {
            ("Square numbers (from White's side)", "W1-12:B21-32")
        }
        (SquareNames::Algebraic, _) => ("Square names (a1–h8)", "Wa1,c1,e1:Bb8,d8"),
    };
    let first = rules.first_mover.name();
    json!({
        "first_mover": first,
        "capture": capture,
        "step": format!("men move one square diagonally forward; {kings}"),
        "numbers": numbers,
        "placeholder": format!("{}:{example}", &first[..1]),
    })
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
        g.take_back(Some(Color::White)).unwrap();
        assert_eq!(g.moves().len(), 0, "back to White's turn");
        assert!(g.take_back(None).is_err());
        assert_eq!(g.tree().size(), 0, "taken back moves leave the tree");
    }

    fn texts(g: &ShownGame) -> Vec<String> {
        g.move_list()
            .iter()
            .map(|m| m["text"].as_str().unwrap_or("").to_string())
            .collect()
    }

    #[test]
    fn a_move_from_an_earlier_ply_starts_a_variation() {
        let mut g = ShownGame::new(Position::start());
        for m in ["22-18", "11-14", "18x11", "7x14"] {
            g.play_text(m).unwrap();
        }
        g.goto(1).unwrap();
        g.play_text("10-14").unwrap();
        assert_eq!(texts(&g), ["22-18", "10-14"], "the variation is shown");
        assert_eq!(g.path(), [0, 1]);
        assert_eq!(g.tree().size(), 5, "the main line is kept");
        // Playing the main line's move again follows it instead of adding one.
        g.goto(1).unwrap();
        g.play_text("11-14").unwrap();
        assert_eq!(texts(&g).len(), 4);
        assert_eq!((g.cursor(), g.tree().size()), (2, 5));
        // The tree as the page reads it: the variation after the move it replaces.
        let tree = g.tree_json(&|moves| (moves.len() == 2).then_some("?"));
        assert_eq!(tree.len(), 4);
        assert_eq!(tree[1]["text"], "11-14");
        assert_eq!(tree[1]["current"], true);
        assert_eq!(tree[1]["mark"], "?");
        assert_eq!(tree[1]["variations"][0][0]["text"], "10-14");
        assert_eq!(tree[1]["variations"][0][0]["path"], json!([0, 1]));
        assert_eq!(tree[1]["variations"][0][0]["on_line"], false);
        // Promote: the variation becomes the main line; the line shown stays shown.
        g.promote(&[0, 1]).unwrap();
        assert_eq!(texts(&g).len(), 4);
        assert_eq!(g.path(), [0, 1, 0, 0]);
        g.select(&[0, 0]).unwrap();
        assert_eq!(texts(&g), ["22-18", "10-14"]);
        assert_eq!(g.cursor(), 2);
        // Delete: only what was asked for goes.
        g.delete(&[0, 0]).unwrap();
        assert_eq!(texts(&g), ["22-18"]);
        assert_eq!(g.tree().size(), 4);
        assert!(g.delete(&[7]).is_err());
        assert!(g.select(&[0, 5]).is_err());
        // Take back drops a move with nothing after it, keeps one with variations.
        let mut g = ShownGame::new(Position::start());
        g.play_text("22-18").unwrap();
        g.play_text("11-14").unwrap();
        g.goto(1).unwrap();
        g.play_text("10-14").unwrap();
        g.take_back(None).unwrap();
        assert_eq!((g.moves().len(), g.tree().size()), (1, 2));
        g.take_back(None).unwrap();
        assert_eq!((g.moves().len(), g.tree().size()), (0, 2));
    }

    #[test]
    fn variations_round_trip_through_pdn() {
        let mut g = ShownGame::new(Position::start());
        for m in ["22-18", "11-14", "18x11", "7x14"] {
            g.play_text(m).unwrap();
        }
        g.goto(1).unwrap();
        g.play_text("10-14").unwrap();
        g.play_text("21-17").unwrap();
        g.goto(0).unwrap();
        g.play_text("21-17").unwrap();
        let text = g.to_pdn("a", "b", None);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("1. 22-18 (1. 21-17)"), "{flat}");
        assert!(flat.contains("11-14 (1... 10-14 2. 21-17)"), "{flat}");
        let back = loaded(text.as_bytes());
        assert_eq!(back.tree(), g.tree());
        assert_eq!(back.moves().len(), 4, "the main line is shown");
        let record = back.line_record("a", "b");
        assert_eq!(record.moves.len(), 4);
        assert!(record.moves.iter().all(|m| m.variations.is_empty()));
        // An illegal move in a variation ends the variation, not the file.
        let odd = b"1. 22-19 (1. 22-17 23-19) 11-15 *";
        assert_eq!(loaded(odd).tree().size(), 2);
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
        let text = g.to_pdn("me", "Damiera", None);
        assert!(text.contains("[White \"me\"]"), "{text}");
        let back = loaded(text.as_bytes());
        assert_eq!(back.moves(), g.moves());
        // Black to move first.
        let mut g = ShownGame::new(Position::parse("B:W22:B1").unwrap());
        for m in ["1-5", "22-18"] {
            g.play_text(m).unwrap();
        }
        let text = g.to_pdn("a", "b", None);
        assert!(text.contains("1... 1-5 2. 22-18"), "{text}");
        let back = loaded(text.as_bytes());
        assert_eq!((back.start(), back.moves()), (g.start(), g.moves()));
        assert!(ShownGame::from_pdn(b"1. 22-17 *", None, Variant::Italian).is_err());
        assert!(ShownGame::from_pdn(b"", None, Variant::Italian).is_err());
    }

    fn loaded(bytes: &[u8]) -> ShownGame {
        match ShownGame::from_pdn(bytes, None, Variant::Italian) {
            Ok(PdnLoad::Game(g, _)) => g,
            other => panic!("expected one game: {other:?}"),
        }
    }

    #[test]
    fn several_games_offer_a_choice() {
        let text = b"[White \"A\"]\n1. 22-18 *\n\n[White \"B\"]\n1. 21-17 11-14 *\n";
        let Ok(PdnLoad::Choose(choice)) = ShownGame::from_pdn(text, None, Variant::Italian) else {
            panic!("expected a choice");
        };
        assert_eq!(choice.games.len(), 2);
        assert!(choice.games[1].starts_with("2. B - ?"), "{choice:?}");
        assert_eq!(choice.numbers, [1, 2]);
        assert!(choice.warnings.is_empty());
        let Ok(PdnLoad::Game(g, warnings)) = ShownGame::from_pdn(text, Some(1), Variant::Italian)
        else {
            panic!("expected game 2");
        };
        assert_eq!(g.moves().len(), 2);
        assert!(warnings.is_empty());
        let err = ShownGame::from_pdn(text, Some(2), Variant::Italian)
            .err()
            .unwrap_or_default();
        assert_eq!(err, "no game 3: the PDN file holds 2");
        let english = b"[GameType \"21\"]\n1. 11-15 *";
        let Ok(PdnLoad::Game(g, _)) = ShownGame::from_pdn(english, None, Variant::Italian) else {
            panic!("an Italian board reads an English game as English");
        };
        assert_eq!(g.start(), Position::start_of(Variant::English));
        let Ok(PdnLoad::Game(g, _)) = ShownGame::from_pdn(english, None, Variant::English) else {
            panic!("an English board reads an English game");
        };
        assert_eq!(g.start(), Position::start_of(Variant::English));
        let international = b"[GameType \"20\"]\n1. 32-28 *";
        let err = ShownGame::from_pdn(international, None, Variant::Italian).err();
        assert!(
            err.unwrap_or_default()
                .contains("GameType 20 is international draughts")
        );
    }

    #[test]
    fn faulty_games_are_listed_with_their_warnings() {
        let text = b"[White \"A\"]\n1. 22-18 *\n\n[White \"B\"]\n1. 22-17 *\n\n\
                     [White \"C\"]\n[Event \"x\"\"]\n1. 21-17 1-0\n";
        let Ok(PdnLoad::Choose(choice)) = ShownGame::from_pdn(text, None, Variant::Italian) else {
            panic!("expected a choice");
        };
        assert_eq!(choice.numbers, [1, 3]);
        assert!(choice.games[1].starts_with("3. C - ?, x"), "{choice:?}");
        assert_eq!(choice.warnings.len(), 2, "{choice:?}");
        assert!(choice.warnings[0].starts_with("game 2, line 5: skipped: move 1 (White) `22-17`"));
        assert!(choice.warnings[1].starts_with("game 3, line 8: repaired: tag value ends"));
        assert_eq!(choice.summary, "2 games read (1 repaired), 1 skipped");
        let err = ShownGame::from_pdn(text, Some(1), Variant::Italian)
            .err()
            .unwrap_or_default();
        assert!(
            err.starts_with("bad PDN: game 2 was skipped: game 2, line 5"),
            "{err}"
        );
        let Ok(PdnLoad::Game(g, warnings)) = ShownGame::from_pdn(text, Some(2), Variant::Italian)
        else {
            panic!("expected game 3");
        };
        assert_eq!((g.moves().len(), warnings.len()), (1, 1));
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

    #[test]
    fn a_variant_board_is_drawn_and_played_in_its_numbering() {
        let squares = squares_json(Variant::Russian);
        assert_eq!(squares.len(), 32);
        assert_eq!(
            squares[0],
            json!({"number": 1, "name": "a1", "row": 7, "col": 0})
        );
        assert_eq!(
            squares[31],
            json!({"number": 32, "name": "h8", "row": 0, "col": 7})
        );
        let italian = squares_json(Variant::Italian);
        assert_eq!(
            italian[0],
            json!({"number": 1, "name": "1", "row": 0, "col": 0})
        );
        let mut g = ShownGame::new(Position::start_of(Variant::Russian));
        let legal = legal_json(&g.current());
        let c3d4 = legal.iter().find(|m| m["text"] == "c3-d4");
        let c3d4 = c3d4.unwrap_or_else(|| panic!("{legal:?}"));
        // c3 and d4 in the variant's numbers (a1 = 1), which the board string follows.
        assert_eq!(
            (&c3d4["from"], &c3d4["to"], &c3d4["hub"]),
            (&json!(10), &json!(14), &json!("c3-d4"))
        );
        g.play_text("c3-d4").unwrap();
        assert_eq!(g.hub_moves_to_cursor(), ["c3-d4"]);
        assert_eq!(
            board_json(&g.current()).chars().nth(13),
            Some('w'),
            "d4 is number 14"
        );
        assert_eq!(g.game().rules(), DrawRules::for_variant(Variant::Russian));
        // English: Black's first move and White's reply are both move 1.
        let mut g = ShownGame::new(Position::start_of(Variant::English));
        g.play_text("11-15").unwrap();
        g.play_text("23-19").unwrap();
        let list = g.move_list();
        assert_eq!(
            (&list[0]["number"], &list[1]["number"]),
            (&json!(1), &json!(1))
        );
        let pdn = g.to_pdn("W", "B", None);
        assert!(
            pdn.contains("[GameType \"21\"]") && pdn.contains("1. 11-15 23-19"),
            "{pdn}"
        );
    }
}
