//! The engine thread: keeps the Hub engine process in step with the state.
//!
//! After every change (and on a 100 ms tick) it compares the search the state calls for
//! — a move to play, analysis of the position shown, or the next position of a review —
//! with the search that is out. A search that is no longer wanted is stopped; its late
//! `info` and `done` lines are ignored. Parameters the user set are sent with
//! `set-param` between searches. An engine that exits, or does not answer `stop` in
//! time, is reported and can be restarted.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::clock::Instant;

use crossbeam_channel::{Receiver, select};
use serde_json::{Value, json};

use super::game::board_json;
use super::review::Eval;
use super::state::{App, DrawAnswer, EngineCmd, EngineStatus, Mode, State};
use crate::board::{Color, Position};
use crate::clock::Limits;
use crate::movegen::{capture_paths, parse_move, path_text};
use crate::protocol::client::{EngineProc, EngineSpec, EngineStderr};
use crate::protocol::parser::{GoMode, PositionSpec, parse_line};
use crate::protocol::response::Param;
use crate::protocol::response::{Done, Info};
use crate::protocol::{Command, Response, parse_response};
use crate::review::from_hub_men;
use crate::search::score::{accepts_draw, white_text, white_view};

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Extra time beyond the move time before the engine is told to stop.
const THINK_GRACE: Duration = Duration::from_secs(5);
/// How long the engine may take to answer `stop`.
const STOP_GRACE: Duration = Duration::from_secs(10);
/// How often the thread looks at the clocks and the deadlines.
const TICK: Duration = Duration::from_millis(100);

/// Which search: a move to play in a line, analysis of a position, a review's position.
#[derive(Clone, Debug, PartialEq)]
enum Key {
    /// The engine's move at the end of the line `moves` from `start`.
    Think { start: Position, moves: Vec<String> },
    /// Analysis of the position `moves` from `start` lead to.
    Analyse { start: Position, moves: Vec<String> },
    /// Position `ply` of review `id`.
    Review { id: u64, ply: usize },
    /// Draw offer `id`: the position at the end of the line, searched for the engine's
    /// score.
    DrawOffer { id: u64 },
}

/// Seconds the engine considers a draw offer: its move time, at most this.
const DRAW_OFFER_SECONDS: f64 = 2.0;

/// The search the state calls for.
struct Want {
    key: Key,
    params: u64,
    start: Position,
    moves: Vec<String>,
    pos: Position,
    level: Limits,
    mode: GoMode,
    /// Think: when to stop an overrunning search; review: when to stop the search.
    limit: Option<Duration>,
    /// The side whose clock runs while the engine thinks (clocks resume at `go`).
    clock_side: Option<Color>,
}

/// A search that is out.
struct Search {
    key: Key,
    params: u64,
    pos: Position,
    /// When to act: send `stop` (a timed search) or give up on the engine (after a
    /// `stop`); `None` for analysis that runs until stopped.
    deadline: Option<Instant>,
    /// No longer wanted: `stop` was sent and its answer will be ignored.
    stale: bool,
    /// `stop` was sent because the time was up; the answer still counts.
    stop_sent: bool,
    /// The latest line per MultiPV index: score (men) and PV (Hub form).
    lines: BTreeMap<u32, (Option<f64>, Vec<String>)>,
}

/// The wire to a Hub engine that the engine thread drives: the engine process
/// ([`EngineProc`]) in `damiera gui`, or the engine in a Web Worker in the browser build
/// (`web/`), whose answers come back through [`EngineThread::line`].
pub trait EngineLink: Sized {
    /// Starts the engine `spec` names and runs the handshake (`hub` ... `wait`, the
    /// spec's parameters, `init` ... `ready`).
    fn start(spec: &EngineSpec) -> Result<Self, String>;
    /// Sends one command line.
    fn send(&mut self, cmd: &Command) -> Result<(), String>;
    /// The name from the engine's `id` line, if it sent one.
    fn name(&self) -> Option<&str>;
    /// The engine's process id (0 when it is not a process).
    fn pid(&self) -> u32;
    /// The parameters the engine declared.
    fn params(&self) -> &[Param];
    /// How the engine ended, if it has ended and that is known.
    fn exit_status(&mut self) -> Option<String>;
}

impl EngineLink for EngineProc {
    fn start(spec: &EngineSpec) -> Result<Self, String> {
        EngineProc::start_with(spec, HANDSHAKE, EngineStderr::Inherit).map_err(|e| e.to_string())
    }

    fn send(&mut self, cmd: &Command) -> Result<(), String> {
        EngineProc::send(self, cmd).map_err(|e| e.to_string())
    }

    fn name(&self) -> Option<&str> {
        EngineProc::name(self)
    }

    fn pid(&self) -> u32 {
        EngineProc::pid(self)
    }

    fn params(&self) -> &[Param] {
        EngineProc::params(self)
    }

    fn exit_status(&mut self) -> Option<String> {
        EngineProc::exit_status(self).map(|s| s.to_string())
    }
}

/// The engine thread's own state, over the link `L` to the engine.
pub struct EngineThread<L: EngineLink = EngineProc> {
    app: Arc<App>,
    spec: EngineSpec,
    inbox: Receiver<EngineCmd>,
    proc: Option<L>,
    search: Option<Search>,
    finished: Option<(Key, u64)>,
    /// Parameter values this process has been sent.
    sent: BTreeMap<String, String>,
}

/// The Hub parameter of Damka's house rules.
const HOUSE_RULES: &str = "house-rules";

/// The `house-rules` value `spec` sends ("" when none).
fn house_option(spec: &EngineSpec) -> String {
    spec.options
        .iter()
        .find(|(name, _)| name == HOUSE_RULES)
        .map_or_else(String::new, |(_, value)| value.clone())
}

/// The limits of the engine's move: its clock or the seconds per move; and when to stop
/// it at the latest.
fn think_level(st: &State, side: Color) -> (Limits, Duration) {
    let now = Instant::now();
    match st.clocks.time_left(side, now) {
        Some(clock) => {
            let level = Limits {
                clock: Some(clock),
                ..Limits::default()
            };
            (level, st.clocks.left(side, now) + THINK_GRACE)
        }
        None => {
            let level = Limits::move_time(st.settings.movetime);
            (
                level,
                Duration::from_secs_f64(st.settings.movetime) + THINK_GRACE,
            )
        }
    }
}

fn wanted(st: &State) -> Option<Want> {
    let game = &st.game;
    if let Some(job) = st.review.as_ref().and_then(|r| r.next_job()) {
        let seconds = st.review.as_ref().map_or(1.0, |r| r.seconds);
        return Some(Want {
            key: Key::Review {
                id: st.review.as_ref().map_or(0, |r| r.id),
                ply: job.ply,
            },
            params: st.params_version,
            start: job.start,
            moves: job.moves,
            pos: job.pos,
            level: Limits::move_time(seconds),
            mode: GoMode::Analyze,
            limit: Some(Duration::from_secs_f64(seconds)),
            clock_side: None,
        });
    }
    let s = &st.settings;
    match s.mode {
        Mode::Analyse if s.analysing && st.ending_shown().is_none() => {
            let moves = game.hub_moves_to_cursor();
            Some(Want {
                key: Key::Analyse {
                    start: game.start(),
                    moves: moves.clone(),
                },
                params: st.params_version,
                start: game.start(),
                moves,
                pos: game.current(),
                level: Limits::infinite(),
                mode: GoMode::Analyze,
                limit: None,
                clock_side: None,
            })
        }
        Mode::Play => {
            let line = game.game();
            let side = line.position().side_to_move();
            let moves: Vec<String> = line
                .moves()
                .iter()
                .map(|&m| crate::movegen::hub_text_in(game.start().variant(), m))
                .collect();
            if let Some(offer) = st.pending_offer() {
                let seconds = s.movetime.min(DRAW_OFFER_SECONDS);
                return Some(Want {
                    key: Key::DrawOffer { id: offer.id },
                    params: st.params_version,
                    start: game.start(),
                    moves,
                    pos: line.position(),
                    level: Limits::move_time(seconds),
                    mode: GoMode::Analyze,
                    limit: Some(Duration::from_secs_f64(seconds)),
                    clock_side: None,
                });
            }
            if st.ending().is_some() || !st.engine_plays(side) {
                return None;
            }
            let (level, limit) = think_level(st, side);
            Some(Want {
                key: Key::Think {
                    start: game.start(),
                    moves: moves.clone(),
                },
                params: st.params_version,
                start: game.start(),
                moves,
                pos: line.position(),
                level,
                mode: GoMode::Think,
                limit: Some(limit),
                clock_side: st.clocks.control().map(|_| side),
            })
        }
        Mode::Analyse => None,
    }
}

/// The `multipv=` key of an info line (a Hub extension), if any.
fn multipv_of(line: &str) -> Option<u32> {
    let build = |_: (), args: &crate::protocol::parser::Args<'_>| {
        Ok(args.get("multipv").and_then(|v| v.parse::<u32>().ok()))
    };
    parse_line(line, |w| (w == "info").then_some(()), build)
        .ok()
        .flatten()
        .flatten()
}

/// A PV as the page shows it: each move in path form, its landing squares (start
/// included) and the board after it, as far as the moves replay legally; the rest as
/// sent, without squares or boards.
fn pv_json(pos: Position, pv: &[String]) -> (Vec<String>, Vec<Vec<u8>>, Vec<String>) {
    let mut pos = pos;
    let (mut texts, mut squares, mut boards) = (Vec::new(), Vec::new(), Vec::new());
    for (i, m) in pv.iter().enumerate() {
        match parse_move(&pos, m) {
            Ok(mv) => {
                texts.push(path_text(&pos, mv));
                let number = |sq| pos.variant().number_of(sq);
                let path = if mv.is_capture() {
                    capture_paths(&pos, mv)
                        .first()
                        .map(|p| p.iter().map(|&sq| number(sq)).collect())
                        .unwrap_or_default()
                } else {
                    vec![number(mv.from()), number(mv.to())]
                };
                squares.push(path);
                pos = pos.play(mv);
                boards.push(board_json(&pos));
            }
            Err(_) => {
                texts.extend(pv[i..].iter().cloned());
                break;
            }
        }
    }
    (texts, squares, boards)
}

/// One analysis line for the page: depth, score (as sent, White's view in men and as
/// text: `White wins in 7` for proven and database scores), nodes, nps, the PV in path
/// form with each move's squares and the board after it.
fn info_json(line: &str, info: &Info, pos: Position) -> Value {
    let units = info.score.and_then(from_hub_men);
    let white = units.map(|u| white_view(pos.side_to_move(), u));
    let (pv, squares, boards) = pv_json(pos, info.pv.as_deref().unwrap_or(&[]));
    json!({
        "fen": pos.to_fen(),
        "multipv": multipv_of(line).unwrap_or(1),
        "depth": info.depth,
        "score": info.score,
        "white_score": white.map(crate::search::score::in_men),
        "score_text": white.map(white_text),
        "nodes": info.nodes,
        "time": info.time,
        "nps": info.nps,
        "pv": pv,
        "squares": squares,
        "boards": boards,
        "line": line,
    })
}

impl EngineThread {
    /// Starts the engine and serves until the inbox closes.
    pub fn run(mut self) {
        self.restart();
        let tick = crossbeam_channel::tick(TICK);
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
                recv(tick) -> _ => {}
            }
            self.check_time();
            self.app.check_flag();
        }
    }
}

impl<L: EngineLink> EngineThread<L> {
    /// A worker for `spec`, reading commands from `inbox`.
    pub fn new(app: Arc<App>, spec: EngineSpec, inbox: Receiver<EngineCmd>) -> EngineThread<L> {
        EngineThread {
            app,
            spec,
            inbox,
            proc: None,
            search: None,
            finished: None,
            sent: BTreeMap::new(),
        }
    }

    /// Starts the engine (the first time, or again after it died); for a driver without
    /// a thread of its own (the browser build), which then calls [`EngineThread::step`]
    /// on every change and tick and [`EngineThread::line`] with every engine line.
    pub fn start_engine(&mut self) {
        self.restart();
    }

    /// One turn of [`EngineThread::run`]'s loop without waiting: the commands in the
    /// inbox, the search the state calls for started or stopped, the time limits and
    /// the flag checked.
    pub fn step(&mut self) {
        while let Ok(cmd) = self.inbox.try_recv() {
            if let EngineCmd::Restart = cmd {
                self.restart();
            }
        }
        self.reconcile();
        self.check_time();
        if self.app.check_flag() {
            self.reconcile();
        }
    }

    /// One line from the engine, then a [`EngineThread::step`].
    pub fn line(&mut self, line: &str) {
        self.on_line(line);
        self.step();
    }

    /// The engine went away (its Worker failed): reported on the page as a dead
    /// engine, which the page can restart.
    pub fn engine_died(&mut self, what: &str) {
        self.died(what);
    }

    /// True while a search is out (started and its `done` not yet read).
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    fn set_engine(&self, change: impl FnOnce(&mut State)) {
        self.app.update(true, change);
    }

    /// Kills the engine if it runs, starts a new one and runs the handshake. The user's
    /// parameter values are sent again before the next search.
    fn restart(&mut self) {
        self.proc = None;
        self.search = None;
        self.finished = None;
        self.sent.clear();
        self.set_engine(|st| {
            st.engine = EngineStatus::Starting;
            st.engine_pid = None;
        });
        match L::start(&self.spec) {
            Ok(mut p) => {
                let _ = p.send(&Command::NewGame);
                let name = p.name().unwrap_or(&self.spec.name).to_string();
                let pid = p.pid();
                let params = p.params().to_vec();
                eprintln!("gui: engine {name} started (pid {pid})");
                self.proc = Some(p);
                self.set_engine(|st| {
                    st.engine = EngineStatus::Ready { busy: false };
                    st.engine_name = name;
                    st.engine_pid = Some(pid);
                    st.engine_message = None;
                    st.param_values
                        .retain(|k, _| params.iter().any(|p| &p.name == k));
                    st.params = params;
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
        let status = self.proc.as_mut().and_then(L::exit_status);
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

    /// Stops a search that is no longer wanted; when idle, sends changed parameters and
    /// starts the wanted search.
    fn reconcile(&mut self) {
        let (variant, house) = {
            let st = self.app.state.lock();
            (st.variant, st.house_rules().to_string())
        };
        if variant != self.spec.variant || house != house_option(&self.spec) {
            // The variant and Damka's house rules are set before `init`: a new game of
            // another variant or other house rules gets an engine started for it.
            self.spec.variant = variant;
            self.spec.options.retain(|(name, _)| name != HOUSE_RULES);
            if !house.is_empty() {
                self.spec.options.push((HOUSE_RULES.into(), house));
            }
            self.restart();
        }
        if self.proc.is_none() {
            return;
        }
        let (want, values) = {
            let st = self.app.state.lock();
            (wanted(&st), st.param_values.clone())
        };
        if let Some(s) = &mut self.search {
            let current = want
                .as_ref()
                .is_some_and(|w| w.key == s.key && w.params == s.params);
            if !current && !s.stale {
                s.stale = true;
                s.deadline = Some(Instant::now() + STOP_GRACE);
                self.send(&Command::Stop);
            }
            return;
        }
        for (name, value) in values {
            if self.sent.get(&name) != Some(&value) {
                self.send(&Command::SetParam {
                    name: name.clone(),
                    value: value.clone(),
                });
                self.sent.insert(name, value);
            }
        }
        match want {
            Some(w) if self.finished.as_ref() != Some(&(w.key.clone(), w.params)) => self.start(w),
            _ => {}
        }
    }

    fn start(&mut self, w: Want) {
        self.send(&Command::Pos {
            position: PositionSpec::Hub(w.start.to_hub()),
            moves: w.moves,
        });
        self.send(&Command::Level(w.level));
        self.send(&Command::Go(w.mode));
        if self.proc.is_none() {
            return;
        }
        self.search = Some(Search {
            key: w.key,
            params: w.params,
            pos: w.pos,
            deadline: w.limit.map(|l| Instant::now() + l),
            stale: false,
            stop_sent: false,
            lines: BTreeMap::new(),
        });
        self.app.update(true, |st| {
            st.engine = EngineStatus::Ready { busy: true };
            st.analysis.clear();
            if w.clock_side.is_some() && st.clocks.paused() {
                // The engine's clock runs from its first move on, as a player's does.
                st.clocks.resume();
                st.sync_clocks(Instant::now());
            }
        });
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
        let Some(s) = &mut self.search else { return };
        if s.stale {
            return;
        }
        let rank = multipv_of(line).unwrap_or(1);
        if let Key::Review { .. } | Key::DrawOffer { .. } = s.key {
            let pv = info.pv.clone().unwrap_or_default();
            s.lines.insert(rank, (info.score, pv));
            return;
        }
        let entry = info_json(line, info, s.pos);
        let key = s.key.clone();
        self.app.update(false, |st| {
            if wanted(st).is_some_and(|w| w.key == key) {
                st.analysis.insert(rank, entry);
            }
        });
    }

    fn on_done(&mut self, done: Done) {
        let Some(s) = self.search.take() else { return };
        if !s.stale {
            // Not asked again for the same search (a move the engine found, a review
            // position, analysis the engine ended by itself); a search that was stopped
            // because it was no longer wanted may be wanted again.
            self.finished = Some((s.key.clone(), s.params));
            match &s.key {
                Key::Think { .. } => self.play(&s, &done),
                Key::Review { id, ply } => {
                    let lines: Vec<_> = s.lines.values().cloned().collect();
                    let eval = Eval::from_hub(&s.pos, &lines);
                    let (id, ply) = (*id, *ply);
                    let _ = self.app.change(|st| match &mut st.review {
                        Some(r) if r.id == id => {
                            r.record(ply, eval);
                            Ok(())
                        }
                        _ => Err(String::new()),
                    });
                }
                Key::DrawOffer { id } => self.answer_offer(*id, &s),
                Key::Analyse { .. } => {}
            }
        }
        self.set_engine(|st| {
            if st.engine == (EngineStatus::Ready { busy: true }) {
                st.engine = EngineStatus::Ready { busy: false };
            }
        });
    }

    /// The engine's answer to draw offer `id` from its search `s`: its score for itself
    /// ([`accepts_draw`]); no score declines.
    fn answer_offer(&mut self, id: u64, s: &Search) {
        let units = s
            .lines
            .values()
            .next()
            .and_then(|(score, _)| *score)
            .and_then(from_hub_men);
        let _ = self.app.change(|st| {
            let engine = st.settings.engine_side;
            let own = units.map(|u| {
                if Some(s.pos.side_to_move()) == engine {
                    u
                } else {
                    -u
                }
            });
            let answer = DrawAnswer {
                accepted: own.is_some_and(accepts_draw),
                score: own,
            };
            st.answer_offer(id, answer)
        });
    }

    /// Plays the engine's move at the end of the line, charging its clock.
    fn play(&mut self, s: &Search, done: &Done) {
        let played = self.app.change(|st| {
            if wanted(st).is_none_or(|w| w.key != s.key) {
                return Err(String::new());
            }
            let mover = st.game.game().position().side_to_move();
            let mv = done.mv.as_deref().ok_or("the engine found no move")?;
            st.game
                .play_at_end(mv)
                .map_err(|e| format!("the engine's move was rejected: {e}"))?;
            st.clocks.moved(mover, Instant::now());
            Ok(())
        });
        if let Err(message) = played
            && !message.is_empty()
        {
            eprintln!("gui: {message}");
            self.set_engine(|st| st.engine_message = Some(message));
        }
    }

    /// Sends `stop` when a timed search's time is up; kills an engine that ignores it.
    fn check_time(&mut self) {
        let Some(s) = &mut self.search else { return };
        if s.deadline.is_none_or(|d| Instant::now() < d) {
            return;
        }
        if s.stale || s.stop_sent {
            self.died("the engine did not answer stop in time; it was killed");
            return;
        }
        // The answer to this stop still counts: the search is not stale.
        s.stop_sent = true;
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
        let (texts, squares, boards) = pv_json(pos, &pv);
        assert_eq!(texts, ["19x10x3", "1-2"]);
        assert_eq!(squares, [vec![19, 10, 3]]);
        assert_eq!(boards.len(), 1);
        assert_eq!(&boards[0][2..3], "W", "crowned on 3");
    }

    #[test]
    fn info_lines_carry_white_view_scores_and_who_wins() {
        let line = "info depth=4 score=0.50 pv=\"9-13\" multipv=3";
        let Ok(Some(Response::Info(info))) = parse_response(line) else {
            panic!("not an info line");
        };
        let pos = Position::parse("B:W21:B9").unwrap();
        let v = info_json(line, &info, pos);
        assert_eq!(v["multipv"], 3);
        assert_eq!(v["white_score"], -0.5);
        assert_eq!(v["score_text"], "-0.50");
        assert_eq!(v["pv"], json!(["9-13"]));
        assert_eq!(v["squares"], json!([[9, 13]]));
        let line = "info depth=9 score=99.84 pv=\"9-13\"";
        let Ok(Some(Response::Info(info))) = parse_response(line) else {
            panic!("not an info line");
        };
        let v = info_json(line, &info, pos);
        assert_eq!(v["score_text"], "Black wins in 16");
    }
}
