//! What the server knows: the game, the settings, the engine's state and its latest
//! analysis lines. One [`App`] is shared by the HTTP handlers and the engine thread.

use std::collections::BTreeMap;

use crossbeam_channel::Sender;
use parking_lot::Mutex;
use serde_json::{Value, json};

use super::events::Broadcaster;
use super::game::{ShownGame, board_json, legal_json};
use crate::board::{Color, Position};

/// Play against the engine, or analyse with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The engine plays `engine_side`.
    Play,
    /// The engine analyses the position shown while `analysing` is on.
    Analyse,
}

/// The engine process as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineStatus {
    /// Being started.
    Starting,
    /// Running; `busy` while a search is out.
    Ready {
        /// A search is running.
        busy: bool,
    },
    /// Not running; the reason.
    Dead(String),
}

/// The user's choices.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Play or analyse.
    pub mode: Mode,
    /// The side the engine plays in play mode (`None`: nobody, two humans).
    pub engine_side: Option<Color>,
    /// Seconds per engine move.
    pub movetime: f64,
    /// Analysis running (analyse mode).
    pub analysing: bool,
}

/// Everything behind the lock.
pub struct State {
    /// The game.
    pub game: ShownGame,
    /// The user's choices.
    pub settings: Settings,
    /// Changes with every change of game or settings; the engine thread compares it.
    pub version: u64,
    /// Changes with every change at all (also of the engine's status), so that a page
    /// can tell the newer of two snapshots that reach it by different paths.
    pub revision: u64,
    /// The engine process.
    pub engine: EngineStatus,
    /// Engine name from its `id` line.
    pub engine_name: String,
    /// Engine process id while running.
    pub engine_pid: Option<u32>,
    /// Last message about the engine (illegal move, error line...), shown on the page.
    pub engine_message: Option<String>,
    /// Latest `info` line per MultiPV index, for the version they belong to.
    pub analysis: BTreeMap<u32, Value>,
}

/// Messages to the engine thread.
#[derive(Debug)]
pub enum EngineCmd {
    /// Something changed: compare and start or stop a search.
    Wake,
    /// Kill the engine process (if any) and start a new one.
    Restart,
}

/// The shared application: state, event streams and the engine thread's inbox.
pub struct App {
    /// The state.
    pub state: Mutex<State>,
    /// Open event streams.
    pub events: Broadcaster,
    /// The engine thread's inbox.
    pub engine_tx: Sender<EngineCmd>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl State {
    /// A fresh state: start position, play mode, engine plays Black, 1 s per move.
    pub fn new() -> State {
        State {
            game: ShownGame::new(Position::start()),
            settings: Settings {
                mode: Mode::Play,
                engine_side: Some(Color::Black),
                movetime: 1.0,
                analysing: false,
            },
            version: 0,
            revision: 0,
            engine: EngineStatus::Starting,
            engine_name: "engine".into(),
            engine_pid: None,
            engine_message: None,
            analysis: BTreeMap::new(),
        }
    }

    /// True when the page may move now: analyse mode, or the human's turn at the end.
    fn human_may_move(&self) -> bool {
        let s = &self.settings;
        let turn = self.game.current().side_to_move();
        s.mode == Mode::Analyse || s.engine_side != Some(turn) || !self.game.at_end()
    }

    /// The state as the page reads it.
    pub fn to_json(&self) -> Value {
        let pos = self.game.current();
        let verdict = self.game.verdict_at(self.game.cursor());
        let legal = if !verdict.is_over() && self.human_may_move() {
            legal_json(&pos)
        } else {
            Vec::new()
        };
        let s = &self.settings;
        let (status, busy, reason) = match &self.engine {
            EngineStatus::Starting => ("starting", false, None),
            EngineStatus::Ready { busy } => ("ready", *busy, None),
            EngineStatus::Dead(r) => ("dead", false, Some(r.clone())),
        };
        json!({
            "version": self.version,
            "revision": self.revision,
            "fen": pos.to_fen(),
            "hub": pos.to_hub(),
            "board": board_json(&pos),
            "turn": color_name(pos.side_to_move()),
            "ply": self.game.cursor(),
            "plies": self.game.moves().len(),
            "moves": self.game.move_list(),
            "last_move": self.game.last_move(),
            "legal": legal,
            "result": verdict.is_over().then(|| json!({"result": verdict.result(), "reason": verdict.to_string()})),
            "settings": {
                "mode": if s.mode == Mode::Play { "play" } else { "analyse" },
                "engine_side": s.engine_side.map_or("none", color_name),
                "movetime": s.movetime,
                "analysing": s.analysing,
            },
            "engine": {
                "status": status,
                "busy": busy,
                "reason": reason,
                "name": self.engine_name,
                "pid": self.engine_pid,
                "message": self.engine_message,
            },
        })
    }

    /// The analysis lines, best (MultiPV 1) first.
    pub fn analysis_json(&self) -> Value {
        json!({"version": self.version, "lines": self.analysis.values().collect::<Vec<_>>()})
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl App {
    /// Runs `change` under the lock; on `Ok` the version moves on, the analysis is
    /// cleared if the position shown changed, pages get the new state and the engine
    /// thread is woken.
    pub fn change<T>(
        &self,
        change: impl FnOnce(&mut State) -> Result<T, String>,
    ) -> Result<T, String> {
        let (out, state, analysis) = {
            let mut st = self.state.lock();
            let before = (st.game.cursor(), st.game.current(), st.game.start());
            let out = change(&mut st)?;
            st.version += 1;
            st.revision += 1;
            if before != (st.game.cursor(), st.game.current(), st.game.start()) {
                st.analysis.clear();
            }
            (out, st.to_json(), st.analysis_json())
        };
        self.events.send("state", &state.to_string());
        self.events.send("analysis", &analysis.to_string());
        let _ = self.engine_tx.send(EngineCmd::Wake);
        Ok(out)
    }

    /// Sends the state to every page without changing the version (engine status).
    pub fn publish(&self) {
        let state = self.state.lock().to_json();
        self.events.send("state", &state.to_string());
    }
}
