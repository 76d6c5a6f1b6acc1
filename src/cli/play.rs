//! `damiera play [--color white|black] [--time S] [--fen F]`: a person plays the engine in
//! a terminal. [`ConsoleGame`] is the whole game as a state machine driven by text lines,
//! so tests feed it strings; [`run`] connects it to stdin and stdout.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::board_view;
use crate::board::{Color, Move, Position};
use crate::clock::Limits;
use crate::engine::{EngineOptions, Thinker, load_databases};
use crate::game::{DrawRules, Game, Verdict};
use crate::movegen::{legal_moves, line_words, parse_move, path_text, sort_moves};
use crate::search::eval::EvalFile;
use crate::search::score;
use crate::search::{RootLine, SearchInfo, SearchResult};

/// Longest thinking time accepted, in seconds.
const MAX_TIME: f64 = 3600.0;
/// Best moves shown by `hint` (and `analyse`).
const HINT_LINES: usize = 3;
/// Transposition table size for the console engine, MiB.
const TT_MIB: usize = 64;
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
    /// Your side.
    #[arg(long, value_enum, default_value = "white")]
    pub color: HumanSide,
    /// Seconds the engine thinks per move.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Starting position (PDN FEN or Hub position string); the initial position by default.
    #[arg(long, value_parser = super::parse_position)]
    pub fen: Option<Position>,
    /// Endgame database directory [default: $XDG_DATA_HOME/damiera/egdb, used when present].
    #[arg(long)]
    pub egdb_path: Option<std::path::PathBuf>,
    /// Fixed search depth instead of a time per move (reproducible; for tests).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Weights file for the pattern evaluation (default: the built-in one).
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Moves per side without a capture or a man move that draw the game (0: no limit).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub draw_moves: u32,
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

/// A game between a person and the engine, driven by text lines.
pub struct ConsoleGame {
    game: Game,
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
            human,
            flipped: false,
            think,
            engine,
        }
    }

    /// The console's engine: the embedded weights, no databases, a 64 MiB table.
    pub fn default_engine() -> Result<Thinker, String> {
        Thinker::new(EngineOptions {
            tt_mib: TT_MIB,
            ..EngineOptions::default()
        })
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

    /// Greets the person, shows the board and lets the engine move if it starts.
    pub fn begin(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "Damiera - Italian draughts (FID rules, 8x8).")?;
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
        writeln!(
            out,
            "Type a move as its squares: 22-19, or 29x22x15 for a capture (every landing\n\
             square; 29x15 is enough when only one capture fits). Type 'help' for commands."
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
            _ if word.starts_with(|c: char| c.is_ascii_digit()) => self.human_move(line, out)?,
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

    fn flip(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        self.flipped = !self.flipped;
        writeln!(out, "Board turned: {} at the bottom.", self.bottom().name())?;
        self.show(out)
    }

    fn new_game(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        self.reset(Position::start());
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
        match Position::parse(text) {
            Ok(pos) => {
                self.reset(pos);
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
        self.engine.new_game();
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
        writeln!(out, "Took back {count} move(s).")?;
        self.show(out)
    }

    /// The engine takes the side to move; the person the other side (or, playing both
    /// sides, the engine makes this one move).
    fn go(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let verdict = self.game.verdict();
        if verdict.is_over() {
            self.announce(verdict, out)?;
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
        let verdict = self.game.verdict();
        if verdict.is_over() {
            self.announce(verdict, out)?;
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
        let verdict = self.game.verdict();
        if verdict.is_over() {
            self.announce(verdict, out)?;
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
        if !self.game.verdict().is_over() && self.is_engine_turn() {
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

    fn announce(&self, verdict: Verdict, out: &mut impl Write) -> std::io::Result<()> {
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
        let verdict = self.game.verdict();
        if verdict.is_over() {
            self.announce(verdict, out)
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
        let text = if self.game.verdict().is_over() {
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
    sort_moves(&mut moves);
    moves.iter().map(|&m| path_text(pos, m)).collect()
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Plays a game on `input` and `out` until `quit` or the end of the input.
pub fn run(
    args: &PlayArgs,
    eval: &EvalFile,
    input: impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let think = match args.depth {
        Some(d) => Think::Depth(d),
        None => Think::Time(args.time),
    };
    let start = args.fen.unwrap_or_else(Position::start);
    let engine = Thinker::new(EngineOptions {
        tt_mib: TT_MIB,
        weights: std::sync::Arc::clone(eval.weights()),
        egdb: load_databases(args.egdb_path.as_deref(), start.variant())
            .map_err(std::io::Error::other)?,
        ..EngineOptions::default()
    })
    .map_err(std::io::Error::other)?;
    let rules = DrawRules::default().with_quiet_moves(args.draw_moves);
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
