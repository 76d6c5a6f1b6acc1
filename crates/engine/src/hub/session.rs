//! The Hub protocol loop.
//!
//! [`Session`] is the testable core: it turns input lines and engine events into
//! responses, with no I/O. [`run`] is the threaded driver: a reader thread sends input
//! lines over a channel, and the loop `select!`s over those lines and the events of the
//! search thread ([`Engine`]), writing every response at once.
//!
//! While a search runs, `ping` and `quit` are served at once, and so are `stop` and
//! `ponder-hit` unless a `go` is queued (they then refer to that later search and wait
//! their turn). Every other line is queued and executed, in order, after `done`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::time::Duration;

use crate::clock::Instant;

use crossbeam_channel::{Receiver, never, select, unbounded};

use super::params::Params;
use crate::board::Position;
use crate::board::Variant;
use crate::clock::Limits;
use crate::engine::{Engine, EngineEvent, GoRequest, Searcher, load_databases};
use crate::game::{DrawRules, Game};
use crate::movegen::hub_text_in;
use crate::protocol::parser::{Command, GoMode, PositionSpec, parse_command};
use crate::protocol::response::{Done, Id, Info, Response};
use crate::search::score::in_men;
use crate::search::{SearchInfo, SearchResult};

/// The search in progress.
#[derive(Clone, Copy, Debug)]
struct Running {
    /// When the `go` was executed.
    started: Instant,
    /// Still pondering (no `ponder-hit` yet).
    pondering: bool,
    /// When `ponder-hit` arrived: `info` times count from there.
    hit: Option<Instant>,
}

/// The longest input line read, in bytes; a longer one is answered with an error and
/// skipped (a GUI's longest, `pos` with a whole game, is a few kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// A line waiting for the running search to end.
enum Queued {
    /// A line to execute, with when it arrived.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE`], skipped: it gets its error in turn.
    Overlong,
}

/// Protocol state: parameters, game, level, the running search and queued lines, over
/// an engine: the search thread ([`Engine`]) or, in tests and fuzzing, a stand-in.
pub struct Session<E: Searcher = Engine> {
    engine: E,
    /// The clock of `info` times after `ponder-hit` (the system's, or a stand-in).
    now: fn() -> Instant,
    params: Params,
    game: Game,
    level: Limits,
    running: Option<Running>,
    queue: VecDeque<Queued>,
    quitting: bool,
    finished: bool,
    /// `init` has loaded the endgame databases (a later `egdb-path` reloads them).
    egdb_loaded: bool,
    /// When the line being executed arrived: a `go`'s time runs from there, so the
    /// time lines spent waiting (behind a `pos`, or for the process to be scheduled)
    /// counts, as it does on the GUI's clock.
    received: Instant,
}

impl Session {
    /// A session with the given parameters, its engine started; the engine's events
    /// arrive on the returned receiver and go to [`Session::handle_event`].
    /// A transposition table of the size asked that cannot be had is an error.
    pub fn new(params: Params) -> Result<(Session, Receiver<EngineEvent>), String> {
        let (engine, events) = Engine::spawn(params.engine.clone())?;
        Ok((Session::with_engine(params, engine, Instant::now), events))
    }
}

impl<E: Searcher> Session<E> {
    /// A session over `engine`, already configured with `params.engine`, timing
    /// `ponder-hit` with `now`. The engine's events go to [`Session::handle_event`].
    pub fn with_engine(params: Params, engine: E, now: fn() -> Instant) -> Session<E> {
        let game = Game::with_rules(params.start(), params.rules());
        Session {
            engine,
            now,
            params,
            game,
            level: Limits::infinite(),
            running: None,
            queue: VecDeque::new(),
            quitting: false,
            finished: false,
            egdb_loaded: false,
            received: now(),
        }
    }

    /// The engine (for tests and fuzzing, which look at what it was asked).
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The engine, to drive a stand-in between lines (tests and fuzzing).
    pub fn engine_mut(&mut self) -> &mut E {
        &mut self.engine
    }

    /// The parameters in force.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// True once the session is over (after `quit` or end of input, and the `done`
    /// of a running search): the driver then exits.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The game of the last `pos` command: its moves, the history its searches get for
    /// repetitions and the move limit, and its verdict under the `draw-moves` rules.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// True while a search runs (between `go` and its `done`).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Handles one input line, arrived now; returns the responses to write, in order.
    pub fn handle_line(&mut self, line: &str) -> Vec<Response> {
        self.handle_line_received(line, (self.now)())
    }

    /// Handles one input line that arrived at `received` (the driver's stamp, taken
    /// as it read the line); returns the responses to write, in order.
    pub fn handle_line_received(&mut self, line: &str, received: Instant) -> Vec<Response> {
        let mut out = Vec::new();
        if self.finished || self.quitting {
            return out;
        }
        let line = line.trim_end_matches(['\n', '\r']);
        if self.running.is_some() {
            self.line_while_searching(line, received, &mut out);
        } else {
            self.received = received;
            self.execute(line, &mut out);
        }
        out
    }

    /// A line longer than [`MAX_LINE`] bytes, which the reader skipped: answered (in
    /// its turn, after a running search) with an error.
    pub fn handle_overlong_line(&mut self) -> Vec<Response> {
        let mut out = Vec::new();
        if self.finished || self.quitting {
            return out;
        }
        if self.running.is_some() {
            self.queue.push_back(Queued::Overlong);
        } else {
            out.push(overlong_error());
        }
        out
    }

    /// End of input: the same as `quit`.
    pub fn handle_eof(&mut self) -> Vec<Response> {
        self.quit();
        Vec::new()
    }

    /// Handles an event of the search thread; returns the responses to write. After a
    /// `done`, queued lines are executed until one starts a new search.
    pub fn handle_event(&mut self, event: EngineEvent) -> Vec<Response> {
        let mut out = Vec::new();
        let Some(running) = self.running else {
            return out; // nothing was asked: ignore
        };
        match event {
            EngineEvent::Info(info) => {
                let ranked = self.params.engine.multipv > 1;
                out.push(Response::Info(info_response(
                    &info,
                    &running,
                    ranked,
                    self.params.variant,
                )))
            }
            EngineEvent::Done(result) => {
                self.running = None;
                out.push(Response::Done(done_response(&result, self.params.variant)));
                if self.quitting {
                    self.finished = true;
                } else {
                    self.drain_queue(&mut out);
                }
            }
        }
        out
    }

    fn line_while_searching(&mut self, line: &str, received: Instant, out: &mut Vec<Response>) {
        match parse_command(line) {
            Ok(Some(Command::Ping)) => out.push(Response::Pong),
            Ok(Some(Command::Quit)) => self.quit(),
            Ok(Some(Command::Stop)) if !self.go_queued() => self.engine.stop(),
            Ok(Some(Command::PonderHit)) if !self.go_queued() => self.ponder_hit(),
            _ => self
                .queue
                .push_back(Queued::Line(line.to_string(), received)),
        }
    }

    /// Whether a queued line starts a search: a `stop` or `ponder-hit` after it is
    /// meant for that search, not for the running one.
    fn go_queued(&self) -> bool {
        self.queue.iter().any(|queued| {
            matches!(queued, Queued::Line(line, _)
                if matches!(parse_command(line), Ok(Some(Command::Go(_)))))
        })
    }

    fn drain_queue(&mut self, out: &mut Vec<Response>) {
        while self.running.is_none() && !self.finished {
            match self.queue.pop_front() {
                Some(Queued::Line(line, received)) => {
                    self.received = received;
                    self.execute(&line, out);
                }
                Some(Queued::Overlong) => out.push(overlong_error()),
                None => break,
            }
        }
    }

    fn execute(&mut self, line: &str, out: &mut Vec<Response>) {
        match parse_command(line) {
            Ok(Some(command)) => self.command(command, out),
            Ok(None) => {}
            Err(e) => out.push(error(e.message())),
        }
    }

    fn command(&mut self, command: Command, out: &mut Vec<Response>) {
        match command {
            Command::Hub => out.extend(self.hub_answer()),
            Command::Init => {
                self.load_egdb(out);
                out.push(Response::Ready);
            }
            Command::Ping => out.push(Response::Pong),
            Command::NewGame => self.engine.new_game(),
            Command::SetParam { name, value } => self.set_param(&name, &value, out),
            Command::Pos { position, moves } => match game_of(&position, &moves, &self.params) {
                Ok(game) => self.game = game,
                Err(reason) => out.push(error(&format!("pos: {reason}"))),
            },
            Command::Level(level) => self.level = level,
            Command::Go(mode) => self.go(mode),
            Command::PonderHit | Command::Stop => {} // idle: ignored
            Command::Quit => self.quit(),
        }
    }

    fn hub_answer(&self) -> Vec<Response> {
        let id = Id {
            name: Some("Damiera".into()),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            author: Some("the Damiera authors".into()),
            country: Some("Italy".into()),
        };
        let params = self.params.declarations().into_iter().map(Response::Param);
        std::iter::once(Response::Id(id))
            .chain(params)
            .chain(std::iter::once(Response::Wait))
            .collect()
    }

    /// Loads the endgame databases named by `egdb-path` (or the default directory) and
    /// hands them to the engine; without any it plays as before.
    fn load_egdb(&mut self, out: &mut Vec<Response>) {
        let dir = Some(self.params.egdb_path.as_str())
            .filter(|p| !p.is_empty())
            .map(std::path::Path::new);
        let egdb = load_databases(dir, self.params.variant).unwrap_or_else(|e| {
            out.push(error(&e));
            None
        });
        self.params.engine.egdb = egdb;
        // The table size is unchanged, so this cannot fail.
        let _ = self.engine.configure(self.params.engine.clone());
        self.egdb_loaded = true;
    }

    /// Applies `set-param`: on any error (a bad value, a table size the system cannot
    /// give) the parameters and the engine stay as they were.
    fn set_param(&mut self, name: &str, value: &str, out: &mut Vec<Response>) {
        let before = self.params.clone();
        if let Err(reason) = self.params.set(name, value) {
            out.push(error(&format!("set-param: {reason}")));
            return;
        }
        if self.params.engine != before.engine
            && let Err(reason) = self.engine.configure(self.params.engine.clone())
        {
            self.params = before;
            out.push(error(&format!("set-param: {reason}")));
            return;
        }
        if self.params.variant != before.variant || self.params.house_rules != before.house_rules {
            // A game of another variant or house rules: its start position until the next
            // `pos`.
            self.game = Game::with_rules(self.params.start(), self.rules());
        }
        self.game.set_rules(self.rules());
        // Another directory, or another variant's databases (each has its own default).
        let moved = self.params.egdb_path != before.egdb_path;
        if self.egdb_loaded && (moved || self.params.variant != before.variant) {
            self.load_egdb(out);
        }
    }

    fn go(&mut self, mode: GoMode) {
        let ponder = mode == GoMode::Ponder;
        self.engine.go(GoRequest {
            game: self.game.clone(),
            limits: Limits {
                since: Some(self.received),
                ..limits(&self.level, mode)
            },
            ponder,
        });
        self.running = Some(Running {
            started: (self.now)(),
            pondering: ponder,
            hit: None,
        });
    }

    fn rules(&self) -> DrawRules {
        self.params.rules()
    }

    fn ponder_hit(&mut self) {
        if let Some(running) = self.running.as_mut().filter(|r| r.pondering) {
            running.pondering = false;
            running.hit = Some((self.now)());
            self.engine.ponder_hit();
        }
    }

    fn quit(&mut self) {
        if self.running.is_some() {
            self.quitting = true;
            self.engine.stop();
        } else {
            self.finished = true;
        }
    }
}

/// The game of `pos <spec> moves="<moves>"` in the session's variant (its numbering
/// for the position string, its square names for the moves): every move is checked
/// against the position it is played in. The error names the bad position or move.
fn game_of(spec: &PositionSpec, moves: &[String], params: &Params) -> Result<Game, String> {
    let variant = params.variant;
    let start = match spec {
        PositionSpec::Start => Position::start_of(variant),
        PositionSpec::Hub(text) => Position::from_hub_in(variant, text)
            .map_err(|e| format!("bad position '{text}': {e}"))?,
    };
    let start = params.with_house_rules(start);
    Game::from_texts(start, params.rules(), moves)
}

/// The answer to a line longer than [`MAX_LINE`].
fn overlong_error() -> Response {
    error(&format!(
        "input: line longer than {MAX_LINE} bytes, ignored"
    ))
}

/// `error message="<message>"`.
fn error(message: &str) -> Response {
    Response::Error {
        message: message.to_string(),
    }
}

/// The search limits of a `go` under `level`: `go analyze` searches until `stop`
/// whatever the level; `infinite` counts only when no other limit is given.
pub fn limits(level: &Limits, mode: GoMode) -> Limits {
    if mode == GoMode::Analyze {
        return Limits::infinite();
    }
    let limits = Limits {
        infinite: false,
        analysis: false,
        ..*level
    };
    Limits {
        infinite: level.infinite && limits == Limits::default(),
        ..limits
    }
}

/// The `info` line of an iteration (of one of its lines with MultiPV: `ranked` adds the
/// `multipv` key); after `ponder-hit`, time counts from the hit.
fn info_response(info: &SearchInfo, running: &Running, ranked: bool, variant: Variant) -> Info {
    let before_hit = running.hit.map_or(Duration::ZERO, |hit| {
        hit.saturating_duration_since(running.started)
    });
    Info {
        depth: Some(info.depth),
        mean_depth: Some(info.mean_depth),
        score: Some(in_men(info.score)),
        nodes: Some(info.nodes),
        time: Some(info.time.saturating_sub(before_hit).as_secs_f64()),
        nps: Some(info.nps() / 1e6),
        pv: Some(info.pv.iter().map(|&m| hub_text_in(variant, m)).collect()),
        multipv: ranked.then(|| u32::try_from(info.multipv).unwrap_or(u32::MAX)),
        book: info.book.then_some(1),
    }
}

/// `done move=<m> [ponder=<p>]`, or a plain `done` when there was no legal move.
fn done_response(result: &SearchResult, variant: Variant) -> Done {
    let text = |mv| hub_text_in(variant, mv);
    Done {
        mv: result.best.map(text),
        ponder: result.best.and(result.ponder).map(text),
    }
}

/// Runs the protocol on `input` and `output` until `quit` or end of input. Responses
/// are written one per line and flushed at once. Errors are those of `output`.
pub fn run<R, W>(input: R, output: &mut W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (mut session, events) = Session::new(Params::default()).map_err(io::Error::other)?;
    let mut lines = spawn_reader(input);
    while !session.is_finished() {
        let responses = select! {
            recv(lines) -> line => match line {
                Ok((received, Some(line))) => session.handle_line_received(&line, received),
                Ok((_, None)) => session.handle_overlong_line(),
                Err(_) => {
                    lines = never();
                    session.handle_eof()
                }
            },
            recv(events) -> event => match event {
                Ok(event) => session.handle_event(event),
                Err(_) => break, // the search thread is gone
            },
        };
        write_responses(output, &responses)?;
    }
    Ok(())
}

/// Runs the protocol on the process's stdin and stdout.
pub fn run_stdio() -> io::Result<()> {
    let input = io::BufReader::new(io::stdin());
    let stdout = io::stdout();
    let mut output = stdout.lock();
    run(input, &mut output)
}

fn write_responses(output: &mut impl Write, responses: &[Response]) -> io::Result<()> {
    for response in responses {
        writeln!(output, "{response}")?;
        output.flush()?;
    }
    Ok(())
}

/// Reads lines on a thread of its own; the channel disconnects at end of input.
/// Bytes that are not UTF-8 are replaced, so such a line is still read as a line. A
/// line longer than [`MAX_LINE`] is skipped, never held whole, and sent as `None`.
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> Receiver<(Instant, Option<String>)> {
    let (tx, rx) = unbounded();
    let reader = move || {
        let mut buf = Vec::new();
        while let Ok(Some(line)) = read_line(&mut input, &mut buf) {
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    };
    // If the thread cannot start, `tx` is dropped with the closure: end of input.
    let _ = std::thread::Builder::new()
        .name("input".into())
        .spawn(reader);
    rx
}

/// The next line of `input` (`Some(None)` for one longer than [`MAX_LINE`]); `None` at
/// the end of input. `buf` is scratch space.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<Option<String>>> {
    buf.clear();
    let limit = MAX_LINE as u64 + 1;
    if Read::take(&mut *input, limit).read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    if buf.len() <= MAX_LINE || buf.ends_with(b"\n") {
        return Ok(Some(Some(String::from_utf8_lossy(buf).into_owned())));
    }
    // Too long: skip to the end of the line, a bounded piece at a time.
    while !buf.ends_with(b"\n") {
        buf.clear();
        if Read::take(&mut *input, limit).read_until(b'\n', buf)? == 0 {
            break;
        }
    }
    Ok(Some(None))
}

#[cfg(test)]
mod tests;
