//! The engine: a search thread fed by a channel. The caller (Hub loop, console, tools)
//! never blocks on a search: [`Engine::go`] returns at once, [`Engine::stop`] and
//! [`Engine::ponder_hit`] only set flags, and results arrive as [`EngineEvent`]s.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::board::Position;
use crate::egdb::Egdb;
use crate::game::DrawRules;
use crate::search::eval::embedded_weights;
use crate::search::{
    Limits, PatternWeights, SearchContext, SearchControl, SearchInfo, SearchResult, Style,
    TranspositionTable, search,
};

/// Engine settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (Lazy SMP), 1..=64.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub tt_mib: usize,
    /// Search features.
    pub style: Style,
    /// Best root moves searched and reported per iteration (MultiPV), 1..=32.
    pub multipv: usize,
    /// The draw rules the search plays under (its move limit).
    pub rules: DrawRules,
    /// Contempt for draws in play, hundredths of a man (see
    /// [`SearchContext::contempt`]).
    pub contempt: i32,
}

/// The default contempt for draws, hundredths of a man.
pub const CONTEMPT: i32 = 0;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            tt_mib: 64,
            style: Style::FULL,
            multipv: 1,
            rules: DrawRules::default(),
            contempt: CONTEMPT,
        }
    }
}

/// What to search.
#[derive(Clone, Debug, PartialEq)]
pub struct GoRequest {
    /// The position.
    pub position: Position,
    /// Keys of earlier game positions since the last irreversible move (repetitions).
    pub history: Vec<u64>,
    /// When to stop.
    pub limits: Limits,
    /// Start in ponder mode (no time limit until [`Engine::ponder_hit`]).
    pub ponder: bool,
}

/// Messages from the search thread.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// Progress after an iteration.
    Info(SearchInfo),
    /// The search is over; exactly one per [`Engine::go`].
    Done(SearchResult),
}

/// What the protocol loop asks of a search engine: [`Engine`] is the real one, a search
/// thread; tests and fuzzing put a stand-in behind the same calls. Exactly one
/// [`EngineEvent::Done`] answers each [`Searcher::go`].
pub trait Searcher {
    /// Current settings.
    fn options(&self) -> EngineOptions;
    /// Starts a search.
    fn go(&mut self, request: GoRequest);
    /// Asks a running search to finish now (it still sends its `Done`).
    fn stop(&mut self);
    /// Turns a ponder search into a normal timed search, its clock starting now.
    fn ponder_hit(&mut self);
    /// Clears the transposition table (between games, and for reproducible searches).
    fn new_game(&mut self);
    /// Changes settings before the next search. A new table size is allocated here,
    /// fallibly: when it cannot be had, nothing changes and the error says so.
    fn configure(&mut self, options: EngineOptions) -> Result<(), String>;
    /// Endgame databases for the following searches (`None`: play without).
    fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>);
    /// Pattern evaluation weights for the following searches; the engine keeps them
    /// until replaced, then drops its reference.
    fn set_weights(&mut self, weights: Arc<PatternWeights>);
}

enum Job {
    Go(GoRequest),
    NewGame,
    Configure(EngineOptions, Option<TranspositionTable>),
    SetEgdb(Option<Arc<Egdb>>),
    SetWeights(Arc<PatternWeights>),
}

/// Handle to the search thread.
pub struct Engine {
    control: Arc<SearchControl>,
    jobs: Option<Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    options: EngineOptions,
}

impl Engine {
    /// Starts the search thread; events arrive on the returned receiver.
    pub fn spawn(options: EngineOptions) -> (Engine, Receiver<EngineEvent>) {
        let control = Arc::new(SearchControl::new());
        let (job_tx, job_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let thread_control = Arc::clone(&control);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || search_thread(job_rx, event_tx, thread_control, options))
            .ok();
        (
            Engine {
                control,
                jobs: Some(job_tx),
                thread,
                options,
            },
            event_rx,
        )
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The thread only ends when the sender is dropped, so this cannot fail.
            let _ = jobs.send(job);
        }
    }
}

impl Searcher for Engine {
    fn options(&self) -> EngineOptions {
        self.options
    }

    /// The stop flag is cleared here, before the request is sent, so a
    /// [`Searcher::stop`] right after this call is never lost.
    fn go(&mut self, request: GoRequest) {
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(request.ponder, Ordering::SeqCst);
        self.send(Job::Go(request));
    }

    fn stop(&mut self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    fn ponder_hit(&mut self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    fn new_game(&mut self) {
        self.send(Job::NewGame);
    }

    fn configure(&mut self, options: EngineOptions) -> Result<(), String> {
        let table = if options.tt_mib != self.options.tt_mib {
            Some(TranspositionTable::try_new(options.tt_mib)?)
        } else {
            None
        };
        self.options = options;
        self.send(Job::Configure(options, table));
        Ok(())
    }

    fn set_egdb(&mut self, egdb: Option<Arc<Egdb>>) {
        self.send(Job::SetEgdb(egdb));
    }

    fn set_weights(&mut self, weights: Arc<PatternWeights>) {
        self.send(Job::SetWeights(weights));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        Searcher::stop(self);
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn search_thread(
    jobs: Receiver<Job>,
    events: Sender<EngineEvent>,
    control: Arc<SearchControl>,
    mut options: EngineOptions,
) {
    let mut tt = TranspositionTable::new(options.tt_mib);
    let mut egdb: Option<Arc<Egdb>> = None;
    let mut weights = embedded_weights();
    for job in jobs {
        match job {
            Job::NewGame => tt.clear(),
            Job::Configure(new, table) => {
                if let Some(table) = table {
                    tt = table;
                }
                options = new;
            }
            Job::SetEgdb(db) => egdb = db,
            Job::SetWeights(w) => weights = w,
            Job::Go(request) => {
                let tools = Tools {
                    tt: &tt,
                    egdb: egdb.as_deref(),
                    weights: &weights,
                };
                let result = run_search(&request, tools, &control, &options, &events);
                let _ = events.send(EngineEvent::Done(result));
            }
        }
    }
}

/// What the search thread owns and lends to each search.
#[derive(Clone, Copy)]
struct Tools<'a> {
    tt: &'a TranspositionTable,
    egdb: Option<&'a Egdb>,
    weights: &'a PatternWeights,
}

fn run_search(
    request: &GoRequest,
    tools: Tools,
    control: &SearchControl,
    options: &EngineOptions,
    events: &Sender<EngineEvent>,
) -> SearchResult {
    let ctx = SearchContext {
        tt: tools.tt,
        control,
        style: options.style,
        threads: options.threads,
        egdb: tools.egdb,
        multipv: options.multipv,
        rules: options.rules,
        weights: tools.weights,
        contempt: options.contempt,
    };
    let result = search(
        &request.position,
        &request.history,
        &request.limits,
        &ctx,
        |info| {
            let _ = events.send(EngineEvent::Info(info.clone()));
        },
    );
    // Analysis and pondering hold the answer until `stop` (or, when pondering, until
    // `ponder-hit`: the search was then already complete).
    while !control.stop.load(Ordering::SeqCst)
        && (request.limits.infinite || control.pondering.load(Ordering::SeqCst))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_done(events: &Receiver<EngineEvent>) -> SearchResult {
        loop {
            match events.recv_timeout(Duration::from_secs(20)) {
                Ok(EngineEvent::Done(r)) => return r,
                Ok(EngineEvent::Info(_)) => {}
                Err(e) => panic!("no done: {e}"),
            }
        }
    }

    #[test]
    fn depth_search_answers() {
        let (mut engine, events) = Engine::spawn(EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        });
        engine.go(GoRequest {
            position: Position::start(),
            history: vec![],
            limits: Limits::depth(4),
            ponder: false,
        });
        let r = wait_done(&events);
        assert!(r.best.is_some());
        assert_eq!(r.depth, 4);
    }

    #[test]
    fn stop_ends_infinite_search() {
        let (mut engine, events) = Engine::spawn(EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        });
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        engine.go(GoRequest {
            position: Position::start(),
            history: vec![],
            limits,
            ponder: false,
        });
        std::thread::sleep(Duration::from_millis(50));
        engine.stop();
        assert!(wait_done(&events).best.is_some());
    }

    #[test]
    fn stop_right_after_go_is_not_lost() {
        let (mut engine, events) = Engine::spawn(EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        });
        for _ in 0..20 {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            engine.go(GoRequest {
                position: Position::start(),
                history: vec![],
                limits,
                ponder: false,
            });
            engine.stop();
            assert!(wait_done(&events).best.is_some());
        }
    }

    #[test]
    fn a_table_that_cannot_be_had_keeps_the_old_one() {
        let (mut engine, events) = Engine::spawn(EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        });
        let huge = EngineOptions {
            tt_mib: 1 << 40,
            ..engine.options()
        };
        let err = engine.configure(huge);
        assert_eq!(
            err,
            Err(format!(
                "cannot allocate a transposition table of {} MiB",
                1u64 << 40
            ))
        );
        assert_eq!(engine.options().tt_mib, 1);
        engine.go(GoRequest {
            position: Position::start(),
            history: vec![],
            limits: Limits::depth(3),
            ponder: false,
        });
        assert_eq!(wait_done(&events).depth, 3);
    }

    #[test]
    fn replaced_weights_are_freed() {
        let (mut engine, events) = Engine::spawn(EngineOptions {
            tt_mib: 1,
            ..EngineOptions::default()
        });
        let first = Arc::new(PatternWeights::material_only());
        let weak = Arc::downgrade(&first);
        engine.set_weights(first);
        let search = |engine: &mut Engine| {
            engine.go(GoRequest {
                position: Position::start(),
                history: vec![],
                limits: Limits::depth(2),
                ponder: false,
            });
            wait_done(&events)
        };
        search(&mut engine);
        assert!(weak.upgrade().is_some(), "in use");
        engine.set_weights(embedded_weights());
        search(&mut engine); // the thread has taken the new weights
        assert!(weak.upgrade().is_none(), "freed once replaced");
    }
}
