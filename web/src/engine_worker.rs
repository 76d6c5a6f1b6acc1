//! The engine Worker's side: Damiera's Hub session over a searcher that runs each
//! search on the caller's thread ([`Engine::line`] returns when the search is over),
//! reporting each line through a callback while it runs.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use damiera_gui::board::Position;
use damiera_gui::egdb::Egdb;
use damiera_gui::engine::{EngineEvent, EngineOptions, GoRequest, Searcher, Thinker};
use damiera_gui::hub::params::Params;
use damiera_gui::hub::session::Session;
use damiera_gui::movegen::{hub_text, legal_moves};
use damiera_gui::protocol::response::{Done, Response};

/// Block cache of the databases in the browser, MiB.
const EGDB_CACHE_MIB: usize = 16;

/// What a line the engine reports is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// A Hub response line, for the board.
    Line,
    /// The `done` line the board gets if the search is stopped now (the best move so
    /// far); a newer one replaces it.
    Fallback,
}

/// A searcher for a session that never searches: the board's handshake
/// ([`crate::board::handshake`]) and tests.
#[derive(Default)]
pub struct NoSearch {
    options: EngineOptions,
}

impl Searcher for NoSearch {
    fn options(&self) -> EngineOptions {
        self.options.clone()
    }
    fn go(&mut self, _request: GoRequest) {}
    fn stop(&mut self) {}
    fn ponder_hit(&mut self) {}
    fn new_game(&mut self) {}
    fn configure(&mut self, options: EngineOptions) -> Result<(), String> {
        self.options = options;
        Ok(())
    }
}

/// The session's searcher: `go` leaves the request for [`Engine::line`] to run once the
/// session has answered the line. One thread only (WebAssembly has no other): the
/// `threads` parameter is held at 1. The databases given to the engine are put back
/// into any options the session sets.
struct WorkerSearcher {
    thinker: Rc<RefCell<Thinker>>,
    pending: Rc<RefCell<Option<GoRequest>>>,
    egdb: Rc<RefCell<Option<Arc<Egdb>>>>,
}

impl Searcher for WorkerSearcher {
    fn options(&self) -> EngineOptions {
        self.thinker.borrow().options().clone()
    }

    fn go(&mut self, request: GoRequest) {
        *self.pending.borrow_mut() = Some(request);
    }

    fn stop(&mut self) {
        // A search runs to its end inside `Engine::line`: there is none to stop here
        // (the page ends the Worker instead).
    }

    fn ponder_hit(&mut self) {}

    fn new_game(&mut self) {
        self.thinker.borrow().new_game();
    }

    fn configure(&mut self, mut options: EngineOptions) -> Result<(), String> {
        options.threads = 1;
        if options.egdb.is_none() {
            options.egdb = self.egdb.borrow().clone();
        }
        self.thinker.borrow_mut().configure(options)
    }
}

/// The engine: a Hub session and the thinker its searches run on.
pub struct Engine {
    session: Session<WorkerSearcher>,
    thinker: Rc<RefCell<Thinker>>,
    pending: Rc<RefCell<Option<GoRequest>>>,
    egdb: Rc<RefCell<Option<Arc<Egdb>>>>,
    tables: Vec<(String, Vec<u8>)>,
}

/// The `done` line of a search stopped before its first iteration: the first legal
/// move, as the search itself would answer.
fn first_done(pos: &Position) -> String {
    Response::Done(Done {
        mv: legal_moves(pos).first().map(|&m| hub_text(m)),
        ponder: None,
    })
    .to_string()
}

impl Engine {
    /// A fresh engine with Damiera's default parameters (one thread).
    pub fn new() -> Result<Engine, String> {
        let params = Params::default();
        let mut options = params.engine.clone();
        options.threads = 1;
        let thinker = Rc::new(RefCell::new(Thinker::new(options)?));
        let pending = Rc::new(RefCell::new(None));
        let egdb = Rc::new(RefCell::new(None));
        let searcher = WorkerSearcher {
            thinker: Rc::clone(&thinker),
            pending: Rc::clone(&pending),
            egdb: Rc::clone(&egdb),
        };
        let session = Session::with_engine(params, searcher, damiera_gui::clock::Instant::now);
        Ok(Engine {
            session,
            thinker,
            pending,
            egdb,
            tables: Vec::new(),
        })
    }

    /// Keeps one endgame table file (`<class>.egdb` and its bytes) for
    /// [`Engine::use_tables`].
    pub fn add_table(&mut self, name: &str, bytes: Vec<u8>) {
        self.tables.push((name.to_string(), bytes));
    }

    /// Probes the tables given so far in every search from now on; their number of
    /// classes and most pieces.
    pub fn use_tables(&mut self) -> Result<(usize, u32), String> {
        let db = Egdb::from_memory(std::mem::take(&mut self.tables), EGDB_CACHE_MIB)?;
        let counts = (db.class_count(), db.max_pieces());
        let db = Arc::new(db);
        *self.egdb.borrow_mut() = Some(Arc::clone(&db));
        let mut thinker = self.thinker.borrow_mut();
        let mut options = thinker.options().clone();
        options.egdb = Some(db);
        thinker.configure(options)?;
        Ok(counts)
    }

    /// Handles one Hub line: its responses, then every search it asked for, run here
    /// to its end, each `info` line reported as it comes.
    pub fn line(&mut self, line: &str, emit: &mut dyn FnMut(Emit, &str)) {
        for r in self.session.handle_line(line) {
            emit(Emit::Line, &r.to_string());
        }
        loop {
            let Some(request) = self.pending.borrow_mut().take() else {
                return;
            };
            emit(Emit::Fallback, &first_done(&request.game.position()));
            let session = &mut self.session;
            let result = {
                let thinker = self.thinker.borrow();
                thinker.think(&request.game, &request.limits, |info| {
                    for r in session.handle_event(EngineEvent::Info(info.clone())) {
                        emit(Emit::Line, &r.to_string());
                    }
                    if info.multipv == 1
                        && let Some(&mv) = info.pv.first()
                    {
                        let done = Response::Done(Done {
                            mv: Some(hub_text(mv)),
                            ponder: None,
                        });
                        emit(Emit::Fallback, &done.to_string());
                    }
                })
            };
            for r in self.session.handle_event(EngineEvent::Done(result)) {
                emit(Emit::Line, &r.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &mut Engine, line: &str) -> (Vec<String>, Vec<String>) {
        let (mut lines, mut fallbacks) = (Vec::new(), Vec::new());
        engine.line(line, &mut |kind, text| match kind {
            Emit::Line => lines.push(text.to_string()),
            Emit::Fallback => fallbacks.push(text.to_string()),
        });
        (lines, fallbacks)
    }

    #[test]
    fn a_search_reports_its_lines_and_a_done() {
        let mut e = Engine::new().unwrap_or_else(|e| unreachable!("{e}"));
        let (lines, _) = run(&mut e, "hub");
        assert!(lines.iter().any(|l| l.starts_with("id ")), "{lines:?}");
        assert!(lines.iter().any(|l| l == "wait"), "{lines:?}");
        run(&mut e, "set-param name=threads value=4");
        run(&mut e, "init");
        run(&mut e, "level depth=5");
        let (lines, fallbacks) = run(&mut e, "go think");
        assert!(lines.iter().any(|l| l.starts_with("info ")), "{lines:?}");
        assert!(
            lines.last().is_some_and(|l| l.starts_with("done move=")),
            "{lines:?}"
        );
        assert!(fallbacks.len() >= 2, "{fallbacks:?}");
        assert!(fallbacks.iter().all(|l| l.starts_with("done move=")));
        assert_eq!(e.thinker.borrow().options().threads, 1);
    }

    #[test]
    fn tables_in_memory_are_probed() {
        let mut e = Engine::new().unwrap_or_else(|e| unreachable!("{e}"));
        e.add_table("bad.egdb", vec![1, 2, 3]);
        assert_eq!(
            e.use_tables(),
            Ok((0, 0)),
            "a name that is no class is skipped"
        );
    }
}
