//! The board Worker's side: one [`Board`] — the web board's state and JSON API, the
//! engine driver, and the page's event mailbox — driven call by call.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use damiera_gui::gui::api::json_api;
use damiera_gui::gui::engine_link::{EngineLink, EngineThread};
use damiera_gui::gui::events::Mailbox;
use damiera_gui::gui::http::{pdn_text, review_pdn_text, subscribe_primed};
use damiera_gui::gui::state::App;
use damiera_gui::hub::params::Params;
use damiera_gui::hub::session::Session;
use damiera_gui::protocol::client::EngineSpec;
use damiera_gui::protocol::parser::Command;
use damiera_gui::protocol::response::{Param, Response};

use crate::engine_worker::NoSearch;

thread_local! {
    /// Lines for the engine Worker, in order, since the last [`Board::take_outbox`].
    static OUTBOX: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The line that tells the page to (re)start the engine Worker before the lines that
/// follow it (not a Hub command: no Hub command starts with `#`).
pub const START: &str = "#start";

/// The link to the engine Worker: the lines go to the outbox, for the page to post.
/// The handshake's answer is known here without waiting for the Worker: it is the
/// answer of the same Hub session code the Worker runs ([`handshake`]).
pub struct WorkerLink {
    name: Option<String>,
    params: Vec<Param>,
}

fn post(line: String) {
    OUTBOX.with(|o| o.borrow_mut().push(line));
}

/// What Damiera's Hub session answers to `hub`: its name and its parameters.
pub fn handshake() -> (Option<String>, Vec<Param>) {
    let mut session = Session::with_engine(
        Params::default(),
        NoSearch::default(),
        damiera_gui::clock::Instant::now,
    );
    let mut name = None;
    let mut params: Vec<Param> = Vec::new();
    for response in session.handle_line("hub") {
        match response {
            Response::Id(id) => name = id.name,
            Response::Param(p) => {
                params.retain(|q| q.name != p.name);
                params.push(p);
            }
            _ => {}
        }
    }
    (name, params)
}

impl EngineLink for WorkerLink {
    fn start(spec: &EngineSpec) -> Result<Self, String> {
        let (name, params) = handshake();
        post(START.to_string());
        post(Command::Hub.to_string());
        // The variant first, as `EngineProc` sends it: the other parameters may depend on it.
        let variant = (spec.variant != damiera_gui::board::Variant::Italian)
            .then(|| ("variant".to_string(), spec.variant.name().to_string()));
        for (name, value) in variant.iter().chain(&spec.options) {
            post(
                Command::SetParam {
                    name: name.clone(),
                    value: value.clone(),
                }
                .to_string(),
            );
        }
        post(Command::Init.to_string());
        Ok(WorkerLink { name, params })
    }

    fn send(&mut self, cmd: &Command) -> Result<(), String> {
        post(cmd.to_string());
        Ok(())
    }

    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn pid(&self) -> u32 {
        0
    }

    fn params(&self) -> &[Param] {
        &self.params
    }

    fn exit_status(&mut self) -> Option<String> {
        None
    }
}

/// The board: the state and its API, the engine driver, the page's mailbox.
pub struct Board {
    app: Arc<App>,
    engine: EngineThread<WorkerLink>,
    mailbox: Arc<Mailbox>,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// A fresh board (the start position, the engine playing Black) and the engine's
    /// start lines in the outbox.
    pub fn new() -> Board {
        let (engine_tx, inbox) = crossbeam_channel::unbounded();
        let app = Arc::new(App::new(engine_tx));
        // The first stream of a fresh App always fits under the limit.
        let mailbox = subscribe_primed(&app, || {}).unwrap_or_default();
        let spec = EngineSpec {
            name: "Damiera".into(),
            command: Vec::new(),
            options: Vec::new(),
            if_declared: Vec::new(),
            variant: damiera_gui::board::Variant::Italian,
            nodes: None,
        };
        let mut engine = EngineThread::new(Arc::clone(&app), spec, inbox);
        engine.start_engine();
        Board {
            app,
            engine,
            mailbox,
        }
    }

    /// One request, as `damiera gui` answers it over HTTP: the JSON API, and the two
    /// PDN downloads as `{"pdn": text}`. Then the engine driver takes its turn.
    pub fn api(&mut self, method: &str, path: &str, query: &str, body: &[u8]) -> (u16, Value) {
        let answer = match (method, path) {
            ("GET", "/api/pdn") => (200, json!({ "pdn": pdn_text(&self.app.state.lock()) })),
            ("GET", "/api/review/pdn") => match review_pdn_text(&self.app.state.lock()) {
                Ok(text) => (200, json!({ "pdn": text })),
                Err(e) => (404, json!({ "error": e })),
            },
            _ => json_api(&self.app, method, path, query, body),
        };
        self.engine.step();
        answer
    }

    /// The clock's tick (every 100 ms): flags, time limits, the search wanted.
    pub fn tick(&mut self) {
        self.engine.step();
    }

    /// A line from the engine Worker.
    pub fn engine_line(&mut self, line: &str) {
        self.engine.line(line);
    }

    /// The engine Worker failed (it could not start, or it crashed).
    pub fn engine_failed(&mut self, why: &str) {
        self.engine.engine_died(why);
    }

    /// The events for the page since the last call, as Server-Sent Events text (the
    /// newest state and analysis snapshots; empty when nothing changed).
    pub fn take_events(&self) -> String {
        if self.mailbox.waiting().is_empty() {
            return String::new();
        }
        self.mailbox.take(Duration::ZERO).unwrap_or_default()
    }

    /// The lines for the engine Worker since the last call.
    pub fn take_outbox() -> Vec<String> {
        OUTBOX.with(|o| std::mem::take(&mut *o.borrow_mut()))
    }

    /// The shared state (tests).
    pub fn app(&self) -> &App {
        &self.app
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_worker::{Emit, Engine};

    /// Lines from the board to the engine and back until the engine has nothing to
    /// say; `stop` is obeyed as the page obeys it (the fallback `done`).
    fn pump(board: &mut Board, engine: &mut Engine) {
        for _ in 0..100 {
            let lines = Board::take_outbox();
            if lines.is_empty() {
                return;
            }
            let mut fallback = String::from("done");
            for line in lines {
                if line == START {
                    continue;
                }
                if line == "stop" {
                    board.engine_line(&fallback);
                    continue;
                }
                let mut back = Vec::new();
                engine.line(&line, &mut |kind, text: &str| match kind {
                    Emit::Line => back.push(text.to_string()),
                    Emit::Fallback => fallback = text.to_string(),
                });
                for b in back {
                    board.engine_line(&b);
                }
            }
        }
    }

    #[test]
    fn the_board_plays_against_the_engine_in_process() {
        let mut board = Board::new();
        let mut engine = Engine::new().unwrap_or_else(|e| unreachable!("{e}"));
        pump(&mut board, &mut engine);
        let (s, v) = board.api("POST", "/api/settings", "", br#"{"movetime":0.05}"#);
        assert_eq!(s, 200, "{v}");
        let (s, v) = board.api("POST", "/api/move", "", br#"{"move":"22-18"}"#);
        assert_eq!(s, 200, "{v}");
        pump(&mut board, &mut engine);
        let st = board.app().state.lock().to_json();
        assert_eq!(st["plies"], 2, "the engine replied: {st}");
        assert!(board.take_events().contains("event: state"));
        let (s, v) = board.api("GET", "/api/pdn", "", b"");
        assert_eq!(s, 200);
        assert!(v["pdn"].as_str().unwrap_or("").contains("22-18"), "{v}");
        let (s, _) = board.api("GET", "/api/review/pdn", "", b"");
        assert_eq!(s, 404);
    }

    #[test]
    fn the_handshake_declares_the_engine_parameters() {
        let (name, params) = handshake();
        assert!(name.is_some_and(|n| n.contains("Damiera")));
        assert!(params.iter().any(|p| p.name == "multipv"));
    }
}
