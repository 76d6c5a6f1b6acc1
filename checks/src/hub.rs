//! A Hub session ([`damiera::hub::session::Session`]) fed a sequence of lines, over a
//! stand-in engine that answers at once and a stand-in clock, so thousands of
//! sessions run a second.
//!
//! The input is split into lines. A line starting with byte 1 to 3 is an event for the
//! stand-in: 1 sends an `info`; 2 ends the search when a real engine would (it was
//! stopped, or its limits end it by themselves: not analysis, not pondering before
//! `ponder-hit`); 3 moves the clock on by the next byte's milliseconds. Any other line
//! goes to the session as protocol input; `set-param` of `egdb-path` and `eval-file`
//! is pointed at a few prepared paths (an empty database directory, a weights file,
//! a missing path), so no input reads the machine's files. End of input is `quit`.
//!
//! Properties: every response prints as a line that parses back to it (to the same
//! line: reals print rounded, see [`damiera::protocol::response`]); an idle line
//! that does not parse gets exactly one `error` and changes nothing; `ping` gets `pong`
//! at once; a rejected `set-param` or `pos` changes neither parameters nor game; the
//! engine never gets a `go` while searching and each `go` carries the session's game;
//! each `done` passes the engine's move on, and every `go` gets exactly one `done`; the
//! session ends after end of input.

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::position::game_is_legal;
use super::{Checked, ensure};
use damiera::engine::{EngineEvent, EngineOptions, GoRequest, Searcher};
use damiera::hub::params::Params;
use damiera::hub::session::Session;
use damiera::movegen::{hub_text, legal_moves};
use damiera::protocol::parser::{Command, parse_command};
use damiera::protocol::response::{Response, parse_response};
use damiera::search::eval::weights_file::to_bytes;
use damiera::search::{PatternWeights, SearchInfo, SearchResult};

/// Tables larger than this many MiB cannot be had from the stand-in engine.
const TABLE_LIMIT_MIB: usize = 1 << 16;

/// A stand-in engine: remembers what it was asked and answers when told to.
#[derive(Default)]
pub struct FakeEngine {
    options: EngineOptions,
    /// The search in progress: its request, and whether stop / ponder-hit came.
    search: Option<(GoRequest, bool, bool)>,
    /// Searches asked for.
    gos: usize,
    /// A search was started since the last look.
    fresh: bool,
    /// A contract broken by the session (a `go` during a search).
    broken: Option<String>,
}

impl Searcher for FakeEngine {
    fn options(&self) -> EngineOptions {
        self.options.clone()
    }

    fn go(&mut self, request: GoRequest) {
        if self.search.is_some() {
            self.broken = Some("go while a search runs".to_string());
        }
        self.search = Some((request, false, false));
        self.gos += 1;
        self.fresh = true;
    }

    fn stop(&mut self) {
        if let Some(search) = &mut self.search {
            search.1 = true;
        }
    }

    fn ponder_hit(&mut self) {
        if let Some(search) = &mut self.search {
            search.2 = true;
        }
    }

    fn new_game(&mut self) {}

    fn configure(&mut self, options: EngineOptions) -> Result<(), String> {
        if options.tt_mib > TABLE_LIMIT_MIB && options.tt_mib != self.options.tt_mib {
            return Err(format!(
                "cannot allocate a transposition table of {} MiB",
                options.tt_mib
            ));
        }
        self.options = options;
        Ok(())
    }
}

impl FakeEngine {
    /// The event a real engine could send now, if any: an `info`, or the `done` when
    /// the search may end (stopped, or limited and not waiting for a `ponder-hit`).
    fn event(&mut self, done: bool, tick: u64) -> Option<EngineEvent> {
        let (request, stopped, hit) = self.search.as_ref()?;
        let moves = legal_moves(&request.game.position());
        let best = (!moves.is_empty()).then(|| moves[tick as usize % moves.len()]);
        let pv: Vec<_> = best.into_iter().collect();
        if !done {
            return Some(EngineEvent::Info(SearchInfo {
                depth: (tick % 40) as u32,
                mean_depth: (tick % 7) as f64,
                score: (tick % 20_001) as i32 - 10_000,
                nodes: tick.wrapping_mul(977),
                time: Duration::from_millis(tick % 100_000),
                pv,
                multipv: 1 + (tick % 3) as usize,
                book: false,
            }));
        }
        let waits = request.limits.infinite || (request.ponder && !hit);
        if waits && !stopped {
            return None;
        }
        self.search = None;
        Some(EngineEvent::Done(SearchResult {
            best,
            ponder: None,
            score: 0,
            depth: 1,
            nodes: 1,
            pv: pv.clone(),
            lines: Vec::new(),
        }))
    }
}

thread_local! {
    /// The stand-in clock, milliseconds after [`clock_base`].
    static TICKS: Cell<u64> = const { Cell::new(0) };
}

fn clock_base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

/// The stand-in clock: moves only when the input says so.
pub fn fake_now() -> Instant {
    clock_base() + Duration::from_millis(TICKS.with(Cell::get))
}

/// Prepared paths: an empty database directory and a valid weights file.
struct Files {
    egdb_dir: PathBuf,
    weights: PathBuf,
}

fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| {
        // One directory for every run (the same bytes each time), not one per process.
        let dir = std::env::temp_dir().join("damiera-checks");
        let egdb_dir = dir.join("egdb");
        let weights = dir.join("weights.dmw");
        let _ = std::fs::create_dir_all(&egdb_dir);
        let _ = std::fs::write(&weights, to_bytes(&PatternWeights::material_only()));
        Files { egdb_dir, weights }
    })
}

/// The line with `egdb-path` and `eval-file` values replaced by prepared paths.
fn sanitized(line: &str) -> String {
    let Ok(Some(Command::SetParam { name, value })) = parse_command(line) else {
        return line.to_string();
    };
    let f = files();
    let pick = value.len() % 3;
    let value = match name.as_str() {
        "egdb-path" if pick == 0 => f.egdb_dir.display().to_string(),
        "eval-file" if value == "embedded" || value.is_empty() => value,
        "eval-file" if pick == 0 => f.weights.display().to_string(),
        "egdb-path" | "eval-file" => "/nonexistent/damiera-fuzz".to_string(),
        _ => return line.to_string(),
    };
    format!("set-param name={name} value=\"{value}\"")
}

/// What the check keeps count of across the session.
#[derive(Default)]
struct Tally {
    dones: usize,
    ticks: u64,
    /// A `quit` reached the session: from then on it answers nothing.
    quit: bool,
}

/// Runs every property on `data` (see the module documentation).
pub fn check(data: &[u8]) -> Checked {
    TICKS.with(|t| t.set(0));
    let params = Params {
        egdb_path: files().egdb_dir.display().to_string(),
        ..Params::default()
    };
    let mut session = Session::with_engine(params, FakeEngine::default(), fake_now);
    let mut tally = Tally::default();
    for raw in data.split(|&b| b == b'\n') {
        match raw.first() {
            Some(1) => event(&mut session, &mut tally, false)?,
            Some(2) => event(&mut session, &mut tally, true)?,
            Some(3) => {
                let ms = raw.get(1).copied().unwrap_or(1);
                TICKS.with(|t| t.set(t.get() + u64::from(ms)));
            }
            _ => line(&mut session, &mut tally, &String::from_utf8_lossy(raw))?,
        }
    }
    session.handle_eof();
    for _ in 0..3 {
        if session.is_finished() {
            break;
        }
        event(&mut session, &mut tally, true)?;
    }
    ensure(session.is_finished(), || {
        "the session does not end after end of input".to_string()
    })?;
    ensure(session.handle_line("ping").is_empty(), || {
        "a finished session still answers".to_string()
    })?;
    ensure(tally.dones == session.engine().gos, || {
        format!("{} go, {} done", session.engine().gos, tally.dones)
    })
}

/// Feeds one protocol line and checks its answers.
fn line(session: &mut Session<FakeEngine>, tally: &mut Tally, text: &str) -> Checked {
    let text = sanitized(text);
    let idle = !session.is_searching() && !session.is_finished();
    let before = (session.params().clone(), session.game().clone());
    let parsed = parse_command(text.trim_end_matches(['\n', '\r']));
    let quitting = tally.quit;
    tally.quit |= matches!(parsed, Ok(Some(Command::Quit)));
    let out = session.handle_line(&text);
    responses(&out, tally)?;
    after_step(session)?;
    let errors = out
        .iter()
        .filter(|r| matches!(r, Response::Error { .. }))
        .count();
    if matches!(parsed, Ok(Some(Command::Ping))) && !quitting {
        ensure(out.contains(&Response::Pong), || {
            format!("no pong for {text:?}")
        })?;
    }
    if !idle {
        return Ok(());
    }
    match parsed {
        Err(_) => ensure(out.len() == 1 && errors == 1, || {
            format!("{text:?} answered {out:?}, not one error")
        })?,
        Ok(None) => ensure(out.is_empty(), || format!("{text:?} answered {out:?}"))?,
        // A database directory that cannot be read is an error and still the new path.
        Ok(Some(Command::SetParam { name, .. })) if name == "egdb-path" => {}
        Ok(Some(Command::SetParam { .. } | Command::Pos { .. })) if errors > 0 => ensure(
            (session.params(), session.game()) == (&before.0, &before.1),
            || format!("rejected {text:?} changed the session"),
        )?,
        Ok(Some(Command::Pos { .. })) => game_is_legal(session.game())?,
        Ok(Some(Command::Hub)) => ensure(
            out.first().is_some_and(|r| matches!(r, Response::Id(_)))
                && out.last() == Some(&Response::Wait),
            || format!("hub answered {out:?}"),
        )?,
        Ok(Some(Command::Init)) => ensure(out.last() == Some(&Response::Ready), || {
            format!("init answered {out:?}")
        })?,
        Ok(Some(_)) => {}
    }
    Ok(())
}

/// Lets the stand-in engine send an event (a `done` only when it may).
fn event(session: &mut Session<FakeEngine>, tally: &mut Tally, done: bool) -> Checked {
    tally.ticks = tally.ticks.wrapping_add(7);
    let Some(event) = session.engine_mut().event(done, tally.ticks) else {
        return Ok(());
    };
    let expected = match &event {
        EngineEvent::Done(result) => Some(result.best.map(hub_text)),
        EngineEvent::Info(_) => None,
    };
    let out = session.handle_event(event);
    if let Some(mv) = expected {
        let done = out.iter().find_map(|r| match r {
            Response::Done(d) => Some(d.mv.clone()),
            _ => None,
        });
        ensure(done == Some(mv.clone()), || {
            format!("engine's move {mv:?} answered as {done:?}")
        })?;
    }
    responses(&out, tally)?;
    after_step(session)
}

/// Checks responses: each prints and parses back; counts `done`s.
fn responses(out: &[Response], tally: &mut Tally) -> Checked {
    for response in out {
        let text = response.to_string();
        ensure(!text.contains(['\n', '\r']), || {
            format!("response {text:?} spans lines")
        })?;
        let back = parse_response(&text).map_err(|e| format!("{text:?} does not parse: {e}"))?;
        // Reals print rounded and a `"` in a text prints as `'` (response.rs): the
        // printed line is a fixed point; a `done` reads back exactly.
        let same = match response {
            Response::Done(_) => back.as_ref() == Some(response),
            _ => back.as_ref().map(|b| b.to_string()) == Some(text.clone()),
        };
        ensure(same, || format!("{text:?} reads back as {back:?}"))?;
        if let Response::Info(info) = response {
            ensure(info.time.is_some_and(|t| t.is_finite() && t >= 0.0), || {
                format!("info time in {text:?}")
            })?;
        }
        if matches!(response, Response::Done(_)) {
            tally.dones += 1;
        }
    }
    Ok(())
}

/// After each step: the session and its engine agree on whether a search runs, and a
/// search just started carries the session's game.
fn after_step(session: &mut Session<FakeEngine>) -> Checked {
    let engine = session.engine();
    if let Some(broken) = &engine.broken {
        return Err(broken.clone());
    }
    ensure(session.is_searching() == engine.search.is_some(), || {
        "session and engine disagree on the search".to_string()
    })?;
    if engine.fresh
        && let Some((request, _, _)) = &engine.search
    {
        let game = session.game();
        ensure(request.game == *game, || {
            "go without the session's game".to_string()
        })?;
    }
    session.engine_mut().fresh = false;
    Ok(())
}
