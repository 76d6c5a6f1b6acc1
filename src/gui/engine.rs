//! The engine thread: keeps the Hub engine process in step with the state.
//!
//! After every change it compares the search the state calls for (a move to play, or
//! analysis of the position shown) with the search that is out. A search that is no
//! longer wanted is stopped; its late `info` and `done` lines are ignored. An engine
//! that exits, or does not answer `stop` in time, is reported and can be restarted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, select};
use serde_json::{Value, json};

use super::state::{App, EngineCmd, EngineStatus, Mode, State};
use crate::board::{Color, Position};
use crate::hub::client::{EngineProc, EngineSpec, EngineStderr};
use crate::hub::parser::{GoMode, Level, PositionSpec, parse_line};
use crate::hub::response::{Done, Info};
use crate::hub::{Command, Response, parse_response};
use crate::movegen::{parse_move, path_text};

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Extra time beyond the move time before the engine is told to stop.
const THINK_GRACE: Duration = Duration::from_secs(5);
/// How long the engine may take to answer `stop`.
const STOP_GRACE: Duration = Duration::from_secs(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Think,
    Analyse,
}

/// The search the state calls for.
struct Want {
    kind: Kind,
    version: u64,
    start: Position,
    moves: Vec<String>,
    pos: Position,
    movetime: f64,
}

/// A search that is out.
struct Search {
    kind: Kind,
    version: u64,
    pos: Position,
    /// When the engine must have answered (thinking: move time plus a grace; after a
    /// `stop`: a grace); `None` for analysis that runs until stopped.
    deadline: Option<Instant>,
    /// No longer wanted: `stop` was sent and its answer will be ignored.
    stale: bool,
    /// `stop` was sent because the move time was overrun.
    overran: bool,
}

/// The engine thread's own state.
pub struct Worker {
    app: Arc<App>,
    spec: EngineSpec,
    inbox: Receiver<EngineCmd>,
    proc: Option<EngineProc>,
    search: Option<Search>,
    finished: Option<u64>,
}

fn wanted(st: &State) -> Option<Want> {
    let game = &st.game;
    if game.verdict_at(game.cursor()).is_over() {
        return None;
    }
    let s = &st.settings;
    let pos = game.current();
    let kind = match s.mode {
        Mode::Analyse if s.analysing => Kind::Analyse,
        Mode::Play if game.at_end() && s.engine_side == Some(pos.side_to_move()) => Kind::Think,
        _ => return None,
    };
    Some(Want {
        kind,
        version: st.version,
        start: game.start(),
        moves: game.hub_moves_to_cursor(),
        pos,
        movetime: s.movetime,
    })
}

/// The `multipv=` key of an info line (a Hub extension), if any.
fn multipv_of(line: &str) -> Option<u32> {
    let build = |_: (), args: &crate::hub::parser::Args<'_>| {
        Ok(args.get("multipv").and_then(|v| v.parse::<u32>().ok()))
    };
    parse_line(line, |w| (w == "info").then_some(()), build)
        .ok()
        .flatten()
        .flatten()
}

/// A PV in path form where it replays legally from `pos`; the rest as sent.
fn pv_text(pos: Position, pv: &[String]) -> Vec<String> {
    let mut pos = pos;
    let mut out = Vec::new();
    for (i, m) in pv.iter().enumerate() {
        match parse_move(&pos, m) {
            Ok(mv) => {
                out.push(path_text(&pos, mv));
                pos = pos.play(mv);
            }
            Err(_) => {
                out.extend(pv[i..].iter().cloned());
                break;
            }
        }
    }
    out
}

fn info_json(line: &str, info: &Info, pos: Position) -> Value {
    let white_score = info.score.map(|s| match pos.side_to_move() {
        Color::White => s,
        Color::Black => -s,
    });
    json!({
        "multipv": multipv_of(line).unwrap_or(1),
        "depth": info.depth,
        "score": info.score,
        "white_score": white_score,
        "nodes": info.nodes,
        "time": info.time,
        "nps": info.nps,
        "pv": pv_text(pos, info.pv.as_deref().unwrap_or(&[])),
        "line": line,
    })
}

impl Worker {
    /// A worker for `spec`, reading commands from `inbox`.
    pub fn new(app: Arc<App>, spec: EngineSpec, inbox: Receiver<EngineCmd>) -> Worker {
        Worker {
            app,
            spec,
            inbox,
            proc: None,
            search: None,
            finished: None,
        }
    }

    /// Starts the engine and serves until the inbox closes.
    pub fn run(mut self) {
        self.restart();
        loop {
            self.reconcile();
            let lines = self
                .proc
                .as_ref()
                .map_or_else(crossbeam_channel::never, |p| p.lines().clone());
            select! {
                recv(self.inbox) -> cmd => match cmd {
                    Ok(EngineCmd::Wake) => {}
                    Ok(EngineCmd::Restart) => self.restart(),
                    Err(_) => return,
                },
                recv(lines) -> line => match line {
                    Ok(line) => self.on_line(&line),
                    Err(_) => self.died("the engine exited"),
                },
                default(Duration::from_millis(100)) => self.check_time(),
            }
        }
    }

    fn set_engine(&self, change: impl FnOnce(&mut State)) {
        {
            let mut st = self.app.state.lock();
            change(&mut st);
            st.revision += 1;
        }
        self.app.publish();
    }

    /// Kills the engine if it runs, starts a new one and runs the handshake.
    fn restart(&mut self) {
        self.proc = None;
        self.search = None;
        self.finished = None;
        self.set_engine(|st| {
            st.engine = EngineStatus::Starting;
            st.engine_pid = None;
        });
        match EngineProc::start_with(&self.spec, HANDSHAKE, EngineStderr::Inherit) {
            Ok(mut p) => {
                let _ = p.send(&Command::NewGame);
                let name = p.name().unwrap_or(&self.spec.name).to_string();
                let pid = p.pid();
                eprintln!("gui: engine {name} started (pid {pid})");
                self.proc = Some(p);
                self.set_engine(|st| {
                    st.engine = EngineStatus::Ready { busy: false };
                    st.engine_name = name;
                    st.engine_pid = Some(pid);
                    st.engine_message = None;
                });
            }
            Err(e) => {
                eprintln!("gui: engine failed to start: {e}");
                self.set_engine(|st| st.engine = EngineStatus::Dead(e.to_string()));
            }
        }
    }

    /// The engine is gone (or is killed now): report it on the page.
    fn died(&mut self, what: &str) {
        let status = self.proc.as_mut().and_then(EngineProc::exit_status);
        self.proc = None;
        self.search = None;
        let reason = match status {
            Some(s) => format!("{what} ({s})"),
            None => what.to_string(),
        };
        eprintln!("gui: {reason}");
        self.set_engine(|st| {
            st.engine = EngineStatus::Dead(reason);
            st.engine_pid = None;
        });
    }

    fn send(&mut self, cmd: &Command) {
        let failed = match self.proc.as_mut() {
            Some(p) => p.send(cmd).err(),
            None => None,
        };
        if let Some(e) = failed {
            self.died(&format!("the engine stopped reading: {e}"));
        }
    }

    /// Stops a search that is no longer wanted, or starts the wanted one.
    fn reconcile(&mut self) {
        if self.proc.is_none() {
            return;
        }
        let want = wanted(&self.app.state.lock());
        if let Some(s) = &mut self.search {
            let current = want
                .as_ref()
                .is_some_and(|w| w.version == s.version && w.kind == s.kind);
            if !current && !s.stale {
                s.stale = true;
                s.deadline = Some(Instant::now() + STOP_GRACE);
                self.send(&Command::Stop);
            }
            return;
        }
        match want {
            Some(w) if self.finished != Some(w.version) => self.start(w),
            _ => {}
        }
    }

    fn start(&mut self, w: Want) {
        let level = match w.kind {
            Kind::Think => Level {
                move_time: Some(w.movetime),
                ..Level::default()
            },
            Kind::Analyse => Level {
                infinite: true,
                ..Level::default()
            },
        };
        let mode = match w.kind {
            Kind::Think => GoMode::Think,
            Kind::Analyse => GoMode::Analyze,
        };
        self.send(&Command::Pos {
            position: PositionSpec::Hub(w.start.to_hub()),
            moves: w.moves,
        });
        self.send(&Command::Level(level));
        self.send(&Command::Go(mode));
        if self.proc.is_none() {
            return;
        }
        let deadline = (w.kind == Kind::Think)
            .then(|| Instant::now() + Duration::from_secs_f64(w.movetime) + THINK_GRACE);
        self.search = Some(Search {
            kind: w.kind,
            version: w.version,
            pos: w.pos,
            deadline,
            stale: false,
            overran: false,
        });
        let analysis = {
            let mut st = self.app.state.lock();
            st.engine = EngineStatus::Ready { busy: true };
            st.revision += 1;
            st.analysis.clear();
            st.analysis_json()
        };
        self.app.publish();
        self.app.events.send("analysis", &analysis.to_string());
    }

    fn on_line(&mut self, line: &str) {
        match parse_response(line) {
            Ok(Some(Response::Info(info))) => self.on_info(line, &info),
            Ok(Some(Response::Done(done))) => self.on_done(done),
            Ok(Some(Response::Error { message })) => {
                eprintln!("gui: engine error: {message}");
                self.set_engine(|st| st.engine_message = Some(format!("engine error: {message}")));
            }
            Ok(_) => {}
            Err(e) => eprintln!("gui: engine line not understood ({e}): {line}"),
        }
    }

    fn on_info(&mut self, line: &str, info: &Info) {
        let Some(s) = &self.search else { return };
        if s.stale {
            return;
        }
        let entry = info_json(line, info, s.pos);
        let data = {
            let mut st = self.app.state.lock();
            if st.version != s.version {
                return;
            }
            let key = entry["multipv"].as_u64().unwrap_or(1) as u32;
            st.analysis.insert(key, entry);
            st.analysis_json()
        };
        self.app.events.send("analysis", &data.to_string());
    }

    fn on_done(&mut self, done: Done) {
        let Some(s) = self.search.take() else { return };
        self.finished = Some(s.version);
        let current = !s.stale;
        if s.kind == Kind::Think && current {
            let played = self.app.change(|st| {
                if st.version != s.version {
                    return Err(String::new());
                }
                let mv = done.mv.as_deref().ok_or("the engine found no move")?;
                st.game
                    .play_text(mv)
                    .map_err(|e| format!("the engine's move was rejected: {e}"))
            });
            if let Err(message) = played
                && !message.is_empty()
            {
                eprintln!("gui: {message}");
                self.set_engine(|st| st.engine_message = Some(message));
            }
        }
        self.set_engine(|st| {
            if st.engine == (EngineStatus::Ready { busy: true }) {
                st.engine = EngineStatus::Ready { busy: false };
            }
        });
    }

    /// Stops a search that overran its time; kills an engine that ignores `stop`.
    fn check_time(&mut self) {
        let Some(s) = &mut self.search else { return };
        if s.deadline.is_none_or(|d| Instant::now() < d) {
            return;
        }
        if s.stale || s.overran {
            self.died("the engine did not answer stop in time; it was killed");
            return;
        }
        // The move that answers this stop still counts: the search is not stale.
        s.overran = true;
        s.deadline = Some(Instant::now() + STOP_GRACE);
        self.send(&Command::Stop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipv_key_is_read_when_present() {
        assert_eq!(multipv_of("info depth=3 multipv=2 score=0.10"), Some(2));
        assert_eq!(multipv_of("info depth=3 score=0.10"), None);
        assert_eq!(multipv_of("info multipv=x"), None);
        assert_eq!(multipv_of("done move=22-18"), None);
    }

    #[test]
    fn pv_is_shown_in_path_form_as_far_as_it_is_legal() {
        let pos = Position::parse("W:W19:B14,6").unwrap();
        let pv = ["19x3x6x14".to_string(), "1-2".to_string()];
        assert_eq!(pv_text(pos, &pv), ["19x10x3", "1-2"]);
    }

    #[test]
    fn info_lines_carry_white_view_scores() {
        let line = "info depth=4 score=0.50 pv=\"9-13\" multipv=3";
        let Ok(Some(Response::Info(info))) = parse_response(line) else {
            panic!("not an info line");
        };
        let pos = Position::parse("B:W21:B9").unwrap();
        let v = info_json(line, &info, pos);
        assert_eq!(v["multipv"], 3);
        assert_eq!(v["white_score"], -0.5);
        assert_eq!(v["pv"], json!(["9-13"]));
    }
}
