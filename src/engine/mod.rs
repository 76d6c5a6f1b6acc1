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
use crate::search::{
    Limits, SearchContext, SearchControl, SearchInfo, SearchResult, Style, TranspositionTable,
    search,
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
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            tt_mib: 64,
            style: Style::FULL,
            multipv: 1,
            rules: DrawRules::default(),
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

enum Job {
    Go(GoRequest),
    NewGame,
    Configure(EngineOptions),
    SetEgdb(Option<Arc<Egdb>>),
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

    /// Current settings.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Starts a search. The stop flag is cleared here, before the request is sent, so a
    /// [`Engine::stop`] right after this call is never lost.
    pub fn go(&self, request: GoRequest) {
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(request.ponder, Ordering::SeqCst);
        self.send(Job::Go(request));
    }

    /// Endgame databases for the following searches (`None`: play without).
    pub fn set_egdb(&self, egdb: Option<Arc<Egdb>>) {
        self.send(Job::SetEgdb(egdb));
    }

    /// Asks a running search to finish now (it still sends its `Done`).
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// Turns a ponder search into a normal timed search, its clock starting now.
    pub fn ponder_hit(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Clears the transposition table (between games, and for reproducible searches).
    pub fn new_game(&self) {
        self.send(Job::NewGame);
    }

    /// Changes settings; takes effect before the next search.
    pub fn configure(&mut self, options: EngineOptions) {
        self.options = options;
        self.send(Job::Configure(options));
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The thread only ends when the sender is dropped, so this cannot fail.
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
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
    for job in jobs {
        match job {
            Job::NewGame => tt.clear(),
            Job::Configure(new) => {
                if new.tt_mib != options.tt_mib {
                    tt = TranspositionTable::new(new.tt_mib);
                }
                options = new;
            }
            Job::SetEgdb(db) => egdb = db,
            Job::Go(request) => {
                let result =
                    run_search(&request, &tt, &control, &options, egdb.as_deref(), &events);
                let _ = events.send(EngineEvent::Done(result));
            }
        }
    }
}

fn run_search(
    request: &GoRequest,
    tt: &TranspositionTable,
    control: &SearchControl,
    options: &EngineOptions,
    egdb: Option<&Egdb>,
    events: &Sender<EngineEvent>,
) -> SearchResult {
    let ctx = SearchContext {
        tt,
        control,
        style: options.style,
        threads: options.threads,
        egdb,
        multipv: options.multipv,
        rules: options.rules,
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
        let (engine, events) = Engine::spawn(EngineOptions {
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
        let (engine, events) = Engine::spawn(EngineOptions {
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
        let (engine, events) = Engine::spawn(EngineOptions {
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
}
