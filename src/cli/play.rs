//! `damiera play [--variant V] [--color white|black] [--time S] [--fen F]`: a person
//! plays the engine in a terminal, resigns or offers a draw ([`crate::engine::accepts_draw`]
//! decides). [`ConsoleGame`] is the whole game as a state machine driven by text lines,
//! so tests feed it strings; [`run`] connects it to stdin and stdout.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::engine_args::EngineArgs;
use super::{VariantArg, board_view};
use crate::board::{Color, HouseRule, Move, Position, Variant};
use crate::clock::Limits;
use crate::engine::{EngineOptions, Thinker, answer_draw_offer, load_databases};
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{legal_moves, line_words, parse_move, path_text, sort_moves_in};
use crate::search::eval::EvalFile;
use crate::search::score;
use crate::search::{RootLine, SearchInfo, SearchResult};

/// Longest thinking time accepted, in seconds.
const MAX_TIME: f64 = 3600.0;
/// Best moves shown by `hint` (and `analyse`).
const HINT_LINES: usize = 3;
/// Least time between two printed analysis lines (the last one is always printed).
const INFO_INTERVAL: Duration = Duration::from_millis(100);
/// Screen width the text is wrapped to.
const WIDTH: usize = 78;

/// The person's side, as `--color` takes it.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum HumanSide {
    /// White: moves first, starts on 21-32.
    White,
    /// Black: starts on 1-12.
    Black,
    /// Both sides: you enter every move; the engine moves when you type `go`.
    Both,
}

impl HumanSide {
    /// The person's colour; `None` when the person plays both sides.
    pub fn color(self) -> Option<Color> {
        match self {
            HumanSide::White => Some(Color::White),
            HumanSide::Black => Some(Color::Black),
            HumanSide::Both => None,
        }
    }
}

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game played.
    #[command(flatten)]
    pub variant: VariantArg,
    /// Damka's house rules.
    #[command(flatten)]
    pub house: super::HouseArg,
    /// Your side.
    #[arg(long, value_enum, default_value = "white")]
    pub color: HumanSide,
    /// Seconds the engine thinks per move.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Starting position (PDN FEN or Hub position string, in the variant's notation); the
    /// variant's initial position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Endgame database directory [default: $XDG_DATA_HOME/damiera/egdb, used when present].
    #[arg(long)]
    pub egdb_path: Option<std::path::PathBuf>,
    /// Fixed search depth instead of a time per move (reproducible; for tests).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Moves per side without a capture or a man move that draw the game (0: no limit)
    /// [default: the variant's rule: 40 Italian and English, 15 Russian, 25 Brazilian].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub draw_moves: Option<u32>,
    /// The engine's settings.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// The opening book.
    #[command(flatten)]
    pub book: super::book::BookArg,
}

/// Parses a thinking time in seconds: a number above 0 and at most an hour.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_TIME => Ok(t),
        _ => Err(format!(
            "time {text:?} is not a number of seconds above 0 and at most {MAX_TIME}"
        )),
    }
}

/// How long the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Think {
    /// Seconds per move.
    Time(f64),
    /// A fixed depth (deterministic).
    Depth(u32),
}

impl Think {
    fn limits(self) -> Limits {
        match self {
            Think::Time(t) => Limits::move_time(t),
            Think::Depth(d) => Limits::depth(d),
        }
    }

    fn describe(self) -> String {
        match self {
            Think::Time(t) => format!("{t} s a move"),
            Think::Depth(d) => format!("depth {d}"),
        }
    }
}

/// What the caller does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The person quit.
    Quit,
}

/// A game ended by the players rather than by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreed {
    /// This side resigned.
    Resigned(Color),
    /// A draw offer was accepted.
    Draw,
}

/// A game between a person and the engine, driven by text lines.
pub struct ConsoleGame {
    game: Game,
    /// A resignation or an accepted draw offer, which ends the game at this ply.
    agreed: Option<Agreed>,
    /// The person's side; `None`: both (the engine moves only on `go`).
    human: Option<Color>,
    flipped: bool,
    think: Think,
    engine: Thinker,
}

impl ConsoleGame {
    /// A game from `start` under the default draw rules, the person playing `human`
    /// (`None`: both sides) against `engine`, which thinks as `think` says (its MultiPV
    /// is set per search: one line to move, more for `hint`).
    pub fn new(
        start: Position,
        human: Option<Color>,
        think: Think,
        engine: Thinker,
    ) -> ConsoleGame {
        ConsoleGame {
            game: Game::new(start),
            agreed: None,
            human,
            flipped: false,
            think,
            engine,
        }
    }

    /// The console's engine: the engine's defaults (the embedded weights, no databases).
    pub fn default_engine() -> Result<Thinker, String> {
        Thinker::new(EngineOptions::default())
    }

    /// Plays under `rules` from now on (and in every new game).
    pub fn with_rules(mut self, rules: DrawRules) -> ConsoleGame {
        self.game.set_rules(rules);
        self
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The person's side (`None`: both).
    pub fn human(&self) -> Option<Color> {
        self.human
    }

    /// The resignation or agreed draw that ended the game, if any.
    pub fn agreed(&self) -> Option<Agreed> {
        self.agreed
    }

    /// Greets the person, shows the board and lets the engine move if it starts.
    pub fn begin(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let variant = self.game.start().variant();
        writeln!(
            out,
            "Damiera - {} ({}, 8x8).",
            variant.title(),
            variant.rules().rulebook
        )?;
        match self.human {
            Some(human) => writeln!(
                out,
                "You play {}; the engine plays {} ({}).",
                human.name(),
                human.opponent().name(),
                self.think.describe()
            )?,
            None => writeln!(
                out,
                "You play both sides; type 'go' for an engine move ({}).",
                self.think.describe()
            )?,
        }
        let (quiet, capture, short) = examples(variant);
        writeln!(
            out,
            "Type a move as its squares: {quiet}, or {capture} for a capture (every landing\n\
             square; {short} is enough when only one capture fits). Type 'help' for commands."
        )?;
        self.after_change(out)
    }

    /// Handles one line typed by the person: a move or a command.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<Flow> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => self.prompt(out)?,
            "quit" | "exit" | "q" => {
                writeln!(out, "Goodbye.")?;
                return Ok(Flow::Quit);
            }
            "help" | "?" | "h" => self.help(out)?,
            "moves" => self.show_moves(out)?,
            "board" => self.show(out)?,
            "undo" | "u" => self.undo(out)?,
            "flip" => self.flip(out)?,
            "new" => self.new_game(out)?,
            "fen" => self.set_position(rest, out)?,
            "time" => self.set_time(rest, out)?,
            "go" => self.go(out)?,
            "analyse" | "analyze" | "hint" => self.hint(out)?,
            "resign" => self.resign(out)?,
            "draw" => self.offer_draw(out)?,
            "count" => self.count(out)?,
            _ if looks_like_move(word) => self.human_move(line, out)?,
            _ => {
                writeln!(
                    out,
                    "Unknown command {word:?}. Type 'help' for the commands."
                )?;
                self.prompt(out)?;
            }
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn help(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "{HELP}")?;
        self.prompt(out)
    }

    fn show_moves(&self, out: &mut impl Write) -> std::io::Result<()> {
        let pos = self.position();
        let moves = sorted_move_texts(&pos);
        if moves.is_empty() {
            writeln!(out, "{} has no legal move.", pos.side_to_move().name())?;
        } else {
            writeln!(out, "Legal moves:")?;
            writeln!(out, "{}", board_view::wrap(&moves, "  ", WIDTH))?;
        }
        self.prompt(out)
    }

    /// Damka's `count-pieces` house rule: the result if the game stopped here.
    fn count(&self, out: &mut impl Write) -> std::io::Result<()> {
        let pos = self.position();
        if !pos.house_rules().contains(HouseRule::CountPieces) {
            writeln!(
                out,
                "Pieces are not counted in this game (Damka's --house-rule count-pieces)."
            )?;
        } else {
            let verdict = self.game.adjudicated();
            writeln!(
                out,
                "If the game stopped here: {} ({verdict}).",
                verdict.result()
            )?;
        }
        self.prompt(out)
    }

    fn flip(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        self.flipped = !self.flipped;
        writeln!(out, "Board turned: {} at the bottom.", self.bottom().name())?;
        self.show(out)
    }

    fn new_game(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let start = self.game.start();
        self.reset(Position::start_of(start.variant()).with_house_rules(start.house_rules()));
        writeln!(out, "New game. You play {}.", self.human_sides())?;
        self.after_change(out)
    }

    /// `White`, `Black` or `both sides`.
    fn human_sides(&self) -> &'static str {
        self.human.map_or("both sides", Color::name)
    }

    fn set_position(&mut self, text: &str, out: &mut impl Write) -> std::io::Result<()> {
        if text.is_empty() {
            writeln!(out, "Position: {}", self.position().to_fen())?;
            return self.prompt(out);
        }
        let start = self.game.start();
        match Position::parse_in(start.variant(), text) {
            Ok(pos) => {
                self.reset(pos.with_house_rules(start.house_rules()));
                writeln!(out, "Position set. You play {}.", self.human_sides())?;
                self.after_change(out)
            }
            Err(e) => {
                writeln!(out, "Cannot set the position: {e}.")?;
                self.prompt(out)
            }
        }
    }

    fn reset(&mut self, pos: Position) {
        self.game = Game::with_rules(pos, self.game.rules());
        self.agreed = None;
        self.engine.new_game();
    }

    /// Whether the game is over: by the rules, a resignation or an agreed draw.
    fn is_over(&self) -> bool {
        self.agreed.is_some() || self.game.verdict().is_over()
    }

    /// The person resigns (playing both sides: the side to move resigns).
    fn resign(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.is_over() {
            self.announce(out)?;
            return self.prompt(out);
        }
        let side = self.human.unwrap_or(self.position().side_to_move());
        self.agreed = Some(Agreed::Resigned(side));
        self.announce(out)?;
        self.prompt(out)
    }

    /// The person offers a draw; the engine searches the position and accepts when its
    /// own score says the game is level or worse for it.
    fn offer_draw(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.is_over() {
            self.announce(out)?;
            return self.prompt(out);
        }
        let side = self.position().side_to_move();
        let engine_side = self.human.map_or(side.opponent(), Color::opponent);
        let limits = self.think.limits();
        let answer = answer_draw_offer(&self.engine, &self.game, &limits, engine_side);
        let view = score::text(answer.score);
        if answer.accepted {
            self.agreed = Some(Agreed::Draw);
            writeln!(out, "Damiera accepts the draw (its score {view}).")?;
            self.announce(out)?;
        } else {
            writeln!(
                out,
                "Damiera declines the draw (its score {view}); play on."
            )?;
        }
        self.prompt(out)
    }

    fn set_time(&mut self, text: &str, out: &mut impl Write) -> std::io::Result<()> {
        if text.is_empty() {
            writeln!(out, "The engine thinks {}.", self.think.describe())?;
            return self.prompt(out);
        }
        match parse_seconds(text) {
            Ok(t) => {
                self.think = Think::Time(t);
                writeln!(out, "The engine now thinks {}.", self.think.describe())?;
            }
            Err(e) => writeln!(out, "{e}.")?,
        }
        self.prompt(out)
    }

    /// Takes back the person's last move and the engine's reply to it (one move when
    /// the person plays both sides).
    fn undo(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let count = if Some(self.position().side_to_move()) == self.human {
            2
        } else {
            1
        };
        if self.game.plies() < count {
            writeln!(out, "Nothing to take back.")?;
            return self.prompt(out);
        }
        self.game.truncate(self.game.plies() - count);
        self.agreed = None;
        writeln!(out, "Took back {count} move(s).")?;
        self.show(out)
    }

    /// The engine takes the side to move; the person the other side (or, playing both
    /// sides, the engine makes this one move).
    fn go(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.is_over() {
            self.announce(out)?;
            return self.prompt(out);
        }
        let engine = self.position().side_to_move();
        match self.human {
            None => {
                self.show_board(out)?;
                self.engine_move(out)?;
                return self.show(out);
            }
            Some(human) if human == engine => {
                self.human = Some(engine.opponent());
                writeln!(
                    out,
                    "Sides swapped: you now play {}.",
                    engine.opponent().name()
                )?;
            }
            Some(_) => {}
        }
        self.after_change(out)
    }

    fn hint(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.is_over() {
            self.announce(out)?;
            return self.prompt(out);
        }
        let pos = self.position();
        let result = self.think(out, HINT_LINES)?;
        if let Some(best) = result.best {
            writeln!(
                out,
                "Hint: {} ({}).",
                path_text(&pos, best),
                score::text(result.score)
            )?;
        }
        if result.lines.len() > 1 {
            writeln!(out, "Best moves:")?;
            for (rank, line) in result.lines.iter().enumerate() {
                writeln!(out, "{}", ranked_line(&pos, rank + 1, line))?;
            }
        }
        self.prompt(out)
    }

    fn human_move(&mut self, text: &str, out: &mut impl Write) -> std::io::Result<()> {
        if self.is_over() {
            self.announce(out)?;
            writeln!(out, "Type 'new', 'undo' or 'fen <position>' to go on.")?;
            return self.prompt(out);
        }
        if self.is_engine_turn() {
            writeln!(out, "It is the engine's turn; type 'go'.")?;
            return self.prompt(out);
        }
        match parse_move(&self.position(), text) {
            Ok(mv) => {
                self.play(mv);
                self.after_change(out)
            }
            Err(e) => {
                let words: Vec<String> = capitalize(&format!("{e}."))
                    .split_whitespace()
                    .map(String::from)
                    .collect();
                writeln!(out, "{}", board_view::wrap(&words, "", WIDTH))?;
                self.prompt(out)
            }
        }
    }

    fn play(&mut self, mv: Move) {
        self.game.play(mv);
    }

    /// Whether the engine is to move: the person plays one side and it is the other's.
    fn is_engine_turn(&self) -> bool {
        self.human
            .is_some_and(|h| h != self.position().side_to_move())
    }

    /// After the position changed: the engine replies while it is its turn, then the board
    /// and the prompt (or the result) are shown.
    fn after_change(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if !self.is_over() && self.is_engine_turn() {
            self.show_board(out)?;
            self.engine_move(out)?;
        }
        self.show(out)
    }

    fn engine_move(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let pos = self.position();
        let result = self.think(out, 1)?;
        match result.best {
            Some(mv) => {
                writeln!(
                    out,
                    "Damiera plays {} ({}).",
                    path_text(&pos, mv),
                    score::text(result.score)
                )?;
                self.play(mv);
            }
            None => writeln!(out, "Damiera has no move.")?,
        }
        Ok(())
    }

    /// Searches the current position for its `lines` best moves, printing the best
    /// line of each iteration as it goes.
    fn think(&mut self, out: &mut impl Write, lines: usize) -> std::io::Result<SearchResult> {
        let pos = self.position();
        let side = pos.side_to_move();
        writeln!(
            out,
            "Thinking for {} ({}); scores in men, + is good for {}:",
            side.name(),
            self.think.describe(),
            side.name()
        )?;
        out.flush()?;
        if self.engine.options().multipv != lines {
            let options = EngineOptions {
                multipv: lines,
                ..self.engine.options().clone()
            };
            // The table size stays, so this cannot fail.
            let _ = self.engine.configure(options);
        }
        let mut printer = InfoPrinter::new(pos, out);
        let result = self.engine.think(&self.game, &self.think.limits(), |info| {
            if info.multipv == 1 {
                printer.info(info)
            }
        });
        printer.finish()?;
        Ok(result)
    }

    fn announce(&self, out: &mut impl Write) -> std::io::Result<()> {
        match self.agreed {
            Some(Agreed::Resigned(side)) => {
                let winner = side.opponent();
                let who = match self.human {
                    Some(h) if h == winner => " You win!",
                    Some(_) => " Damiera wins.",
                    None => "",
                };
                return writeln!(
                    out,
                    "Game over: {} resigns, {} wins.{who}",
                    side.name(),
                    winner.name()
                );
            }
            Some(Agreed::Draw) => return writeln!(out, "Game over: draw agreed."),
            None => {}
        }
        let verdict = self.game.verdict();
        match verdict {
            Verdict::Win(winner, _) => {
                let who = match self.human {
                    Some(h) if h == winner => " You win!",
                    Some(_) => " Damiera wins.",
                    None => "",
                };
                writeln!(out, "Game over: {verdict}, {} wins.{who}", winner.name())
            }
            Verdict::Draw(reason) => writeln!(out, "Game over: draw by {reason}."),
            Verdict::Ongoing => Ok(()),
        }
    }

    /// The board and the prompt.
    fn show(&self, out: &mut impl Write) -> std::io::Result<()> {
        self.show_board(out)?;
        self.prompt(out)
    }

    /// The board, the last move, whose turn it is and, on the person's turn, the legal
    /// moves (or the result when the game is over).
    fn show_board(&self, out: &mut impl Write) -> std::io::Result<()> {
        let bottom = self.bottom();
        writeln!(out)?;
        writeln!(out, "      {}", self.player_label(bottom.opponent()))?;
        let pos = self.position();
        write!(out, "{}", board_view::render(&pos, bottom))?;
        writeln!(out, "      {}", self.player_label(bottom))?;
        if let Some(&mv) = self.game.moves().last() {
            let before = self.game.positions()[self.game.plies() - 1];
            writeln!(
                out,
                "Last move: {} {}",
                before.side_to_move().name(),
                path_text(&before, mv)
            )?;
        }
        let side = pos.side_to_move();
        if self.is_over() {
            self.announce(out)
        } else if self.is_engine_turn() {
            writeln!(out, "{} (Damiera) to move.", side.name())
        } else {
            writeln!(out, "{} to move. Legal moves:", side.name())?;
            let moves = sorted_move_texts(&pos);
            writeln!(out, "{}", board_view::wrap(&moves, "  ", WIDTH))
        }
    }

    /// The side shown at the bottom of the board: the person's (White when playing
    /// both), unless flipped.
    fn bottom(&self) -> Color {
        let own = self.human.unwrap_or(Color::White);
        if self.flipped { own.opponent() } else { own }
    }

    fn player_label(&self, side: Color) -> String {
        let who = match self.human {
            Some(h) if h != side => "Damiera",
            _ => "you",
        };
        let count = self.position().count(side);
        let plural = if count == 1 { "" } else { "s" };
        format!("{} ({who}, {count} piece{plural})", side.name())
    }

    fn prompt(&self, out: &mut impl Write) -> std::io::Result<()> {
        let text = if self.is_over() {
            "Game over - new, undo, fen, help or quit"
        } else if self.is_engine_turn() {
            "Engine to move - type go"
        } else {
            "Your move"
        };
        write!(out, "{text}> ")?;
        out.flush()
    }

    /// Moves played since the start position, in path form.
    pub fn move_texts(&self) -> Vec<String> {
        self.game
            .positions()
            .iter()
            .zip(self.game.moves())
            .map(|(pos, &mv)| path_text(pos, mv))
            .collect()
    }
}

const HELP: &str = "\
Moves: type the squares, e.g. 22-19, or 29x22x15 for a capture (every landing
  square). The Hub form (19x10x14: from, to, captured squares) works too, and
  a short from-to (29x15) when only one capture fits.
Commands:
  help            this text
  moves           list the legal moves
  board           show the board again
  undo            take back your last move (and the engine's reply)
  flip            turn the board around
  new             start a new game (you keep your side)
  fen <position>  set a position: PDN FEN (W:W21-32:B1-12) or a Hub string
  fen             show the current position as FEN
  time <seconds>  set the engine's thinking time per move
  go              the engine moves now for the side to move (you switch sides;
                  with --color both it just makes that move)
  hint, analyse   ask the engine for the best moves here (the top 3)
  draw            offer a draw: the engine accepts when its search says the
                  game is level or worse for it
  resign          give up the game
  count           the result if the game stopped here (Damka, count-pieces)
  quit            leave";

/// Prints the search's iterations, at most one per [`INFO_INTERVAL`] plus the last one.
struct InfoPrinter<'a, W: Write> {
    pos: Position,
    out: &'a mut W,
    last_printed: Option<Instant>,
    pending: Option<String>,
    error: Option<std::io::Error>,
}

impl<'a, W: Write> InfoPrinter<'a, W> {
    fn new(pos: Position, out: &'a mut W) -> Self {
        InfoPrinter {
            pos,
            out,
            last_printed: None,
            pending: None,
            error: None,
        }
    }

    fn info(&mut self, info: &SearchInfo) {
        let line = info_line(&self.pos, info);
        let due = self
            .last_printed
            .is_none_or(|t| t.elapsed() >= INFO_INTERVAL);
        if due {
            self.write(&line);
            self.pending = None;
        } else {
            self.pending = Some(line);
        }
    }

    fn write(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        let result = writeln!(self.out, "{line}").and_then(|()| self.out.flush());
        self.error = result.err();
        self.last_printed = Some(Instant::now());
    }

    fn finish(mut self) -> std::io::Result<()> {
        if let Some(line) = self.pending.take() {
            self.write(&line);
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// One analysis line, as much of the variation as fits the screen:
/// `  depth  7  score  +0.25  nodes    12345   0.12 s  22-19 11-15 ...`.
fn info_line(pos: &Position, info: &SearchInfo) -> String {
    let mut line = format!(
        "  depth {:>2}  score {:>6}  nodes {:>8}  {:>5.2} s ",
        info.depth,
        score::text(info.score),
        info.nodes,
        info.time.as_secs_f64(),
    );
    for word in line_words(pos, &info.pv, usize::MAX) {
        if line.len() + 1 + word.len() > WIDTH {
            break;
        }
        line.push(' ');
        line.push_str(&word);
    }
    line
}

/// One of the best moves, for `hint`: `  2. 21-17   -0.10  21-17 10-14 ...`.
fn ranked_line(pos: &Position, rank: usize, line: &RootLine) -> String {
    let words = line_words(pos, &line.pv, usize::MAX);
    let mut text = format!(
        "  {rank}. {:<9} {:>11} ",
        words.first().map_or("", String::as_str),
        score::text(line.score)
    );
    for word in &words {
        if text.len() + 1 + word.len() > WIDTH {
            break;
        }
        text.push(' ');
        text.push_str(word);
    }
    text
}

/// The legal moves in path form, sorted by their squares.
fn sorted_move_texts(pos: &Position) -> Vec<String> {
    let mut moves = legal_moves(pos).to_vec();
    sort_moves_in(pos.variant(), &mut moves);
    moves.iter().map(|&m| path_text(pos, m)).collect()
}

/// Whether a typed word is a move rather than a command: it starts with a square, a
/// number (`22-19`) or an algebraic name (`c3-d4`).
fn looks_like_move(word: &str) -> bool {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), _) if c.is_ascii_digit() => true,
        (Some('a'..='h' | 'A'..='H'), Some(d)) => d.is_ascii_digit(),
        _ => false,
    }
}

/// A quiet move, a capture by its landing squares and a short capture, as the
/// variant writes them, for the greeting.
fn examples(variant: Variant) -> (&'static str, &'static str, &'static str) {
    match variant {
        Variant::Italian => ("22-19", "29x22x15", "29x15"),
        Variant::English | Variant::Pool => ("11-15", "27x18x11", "27x11"),
        Variant::Russian | Variant::Czech | Variant::Damka => ("c3-d4", "c3:e5:g7", "c3:g7"),
        Variant::Brazilian | Variant::Thai => ("c3-d4", "c3xe5xg7", "c3xg7"),
        Variant::Spanish => ("11-14", "4x11x18", "4x18"),
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Plays a game from `start` (the position of `--variant` and `--fen`) on `input` and
/// `out` until `quit` or the end of the input.
pub fn run(
    args: &PlayArgs,
    start: Position,
    eval: &EvalFile,
    input: impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let think = match args.depth {
        Some(d) => Think::Depth(d),
        None => Think::Time(args.time),
    };
    let options = EngineOptions {
        weights: std::sync::Arc::clone(eval.weights()),
        egdb: load_databases(args.egdb_path.as_deref(), start.variant())
            .map_err(std::io::Error::other)?,
        ..EngineOptions::default()
    };
    let options = args.engine.apply(options).map_err(std::io::Error::other)?;
    let options = args
        .book
        .apply(options, start.variant())
        .map_err(|e| std::io::Error::other(e.0))?;
    let engine = Thinker::new(options).map_err(std::io::Error::other)?;
    let rules = super::variant_rules(args.variant.variant, args.draw_moves);
    let mut game = ConsoleGame::new(start, args.color.color(), think, engine).with_rules(rules);
    game.begin(out)?;
    play_lines(&mut game, input, out)
}

/// Feeds input lines to the game; invalid UTF-8 is replaced, never fatal.
fn play_lines(
    game: &mut ConsoleGame,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            writeln!(out)?;
            writeln!(out, "End of input. Goodbye.")?;
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        if game.handle(&line, out)? == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests;
