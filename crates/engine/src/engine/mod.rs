//! The engine: the one way into the search. Every front end (the Hub session, the
//! CheckerBoard DLL, console play, analysis, bench, self-play, the tests) sets up a
//! search with one [`EngineOptions`] and asks for it here:
//!
//! - [`Thinker::think`] blocks until the move (the tools that wait for it);
//! - [`Engine`] searches on a thread of its own: [`Engine::go`] returns at once,
//!   [`Engine::stop`] and [`Engine::ponder_hit`] only set flags, and results arrive as
//!   [`EngineEvent`]s (the Hub session, the web board's engine).
//!
//! Nothing outside this room builds a search context or calls the search itself.

mod thinker;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

pub use crate::search::options::{
    BOOK_MARGIN, CONTEMPT, EngineOptions, MAX_TT_MIB, Parameter, ParameterKind, style_name,
};
pub use thinker::{Stopper, Thinker};

use crate::clock::Limits;
use crate::egdb::Egdb;
use crate::game::Game;
use crate::search::{SearchControl, SearchInfo, SearchResult, TranspositionTable};

/// The endgame databases of `variant` in `dir` (or in the variant's default directory
/// when `None`), shared, for [`EngineOptions::egdb`]; `Ok(None)` when there are none, an
/// error when `dir` holds another variant's tables. The databases answer only for
/// positions of their variant, so an engine playing another never uses them.
pub fn load_databases(
    dir: Option<&std::path::Path>,
    variant: crate::board::Variant,
) -> Result<Option<Arc<Egdb>>, String> {
    crate::egdb::load(dir, variant).map(|db| db.map(Arc::new))
}

pub use crate::search::score::{DRAW_ACCEPT_MAX, accepts_draw};

/// The engine's answer to a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    /// Whether it accepts.
    pub accepted: bool,
    /// Its search score of the game, from its own side.
    pub score: i32,
}

/// Searches `game`'s position under `limits` and answers a draw offer made to the
/// engine playing `engine_side` ([`accepts_draw`] of the score from its side).
pub fn answer_draw_offer(
    thinker: &Thinker,
    game: &Game,
    limits: &Limits,
    engine_side: crate::board::Color,
) -> DrawAnswer {
    let result = thinker.think(game, limits, |_| {});
    let mover = game.position().side_to_move();
    let score = if mover == engine_side {
        result.score
    } else {
        -result.score
    };
    DrawAnswer {
        accepted: accepts_draw(score),
        score,
    }
}

/// What to search.
#[derive(Clone, Debug, PartialEq)]
pub struct GoRequest {
    /// The game whose position is searched (its history and draw rules count).
    pub game: Game,
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
    /// fallibly: when it cannot be had, nothing changes and the error says so. The
    /// engine keeps the weights and databases of `options` until replaced, then drops
    /// its references.
    fn configure(&mut self, options: EngineOptions) -> Result<(), String>;
}

/// What the search thread is asked to do.
enum Order {
    Go(GoRequest),
    NewGame,
    Configure(EngineOptions, Option<TranspositionTable>),
}

/// Handle to the search thread.
pub struct Engine {
    control: Arc<SearchControl>,
    orders: Option<Sender<Order>>,
    thread: Option<JoinHandle<()>>,
    options: EngineOptions,
}

impl Engine {
    /// Starts the search thread; events arrive on the returned receiver.
    /// A table of the size asked that cannot be had is an error.
    pub fn spawn(options: EngineOptions) -> Result<(Engine, Receiver<EngineEvent>), String> {
        let control = Arc::new(SearchControl::new());
        let tt = TranspositionTable::try_new(options.tt_mib)?;
        let thinker = Thinker::with_control(tt, options.clone(), Arc::clone(&control));
        let (order_tx, order_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || search_thread(order_rx, event_tx, thinker))
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        Ok((
            Engine {
                control,
                orders: Some(order_tx),
                thread: Some(thread),
                options,
            },
            event_rx,
        ))
    }

    /// A handle that stops this engine's searches from any thread.
    pub fn stopper(&self) -> Stopper {
        Stopper::new(Arc::clone(&self.control))
    }

    fn send(&self, order: Order) {
        if let Some(orders) = &self.orders {
            // The thread only ends when the sender is dropped, so this cannot fail.
            let _ = orders.send(order);
        }
    }
}

impl Searcher for Engine {
    fn options(&self) -> EngineOptions {
        self.options.clone()
    }

    /// The stop flag is cleared here, before the request is sent, so a
    /// [`Searcher::stop`] right after this call is never lost.
    fn go(&mut self, request: GoRequest) {
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(request.ponder, Ordering::SeqCst);
        self.send(Order::Go(request));
    }

    fn stop(&mut self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    fn ponder_hit(&mut self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    fn new_game(&mut self) {
        self.send(Order::NewGame);
    }

    fn configure(&mut self, options: EngineOptions) -> Result<(), String> {
        let table = thinker::new_table(&self.options, &options)?;
        self.options = options.clone();
        self.send(Order::Configure(options, table));
        Ok(())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        Searcher::stop(self);
        self.orders = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn search_thread(orders: Receiver<Order>, events: Sender<EngineEvent>, mut thinker: Thinker) {
    for order in orders {
        match order {
            Order::NewGame => thinker.new_game(),
            Order::Configure(options, table) => thinker.replace(options, table),
            Order::Go(request) => {
                let result = run_search(&request, &thinker, &events);
                let _ = events.send(EngineEvent::Done(result));
            }
        }
    }
}

fn run_search(
    request: &GoRequest,
    thinker: &Thinker,
    events: &Sender<EngineEvent>,
) -> SearchResult {
    let result = thinker.search(&request.game, &request.limits, |info| {
        let _ = events.send(EngineEvent::Info(info.clone()));
    });
    // Analysis and pondering hold the answer until `stop` (or, when pondering, until
    // `ponder-hit`: the search was then already complete).
    let control = thinker.control();
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
    use crate::board::Position;
    use crate::search::PatternWeights;
    use crate::search::eval::embedded_weights;

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
        })
        .unwrap();
        engine.go(GoRequest {
            game: Game::new(Position::start()),
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
        })
        .unwrap();
        let limits = Limits::infinite();
        engine.go(GoRequest {
            game: Game::new(Position::start()),
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
        })
        .unwrap();
        for _ in 0..20 {
            let limits = Limits::infinite();
            engine.go(GoRequest {
                game: Game::new(Position::start()),
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
        })
        .unwrap();
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
            game: Game::new(Position::start()),
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
        })
        .unwrap();
        let first = Arc::new(PatternWeights::material_only());
        let weak = Arc::downgrade(&first);
        engine
            .configure(EngineOptions {
                weights: first,
                ..engine.options()
            })
            .unwrap();
        let search = |engine: &mut Engine| {
            engine.go(GoRequest {
                game: Game::new(Position::start()),
                limits: Limits::depth(2),
                ponder: false,
            });
            wait_done(&events)
        };
        search(&mut engine);
        assert!(weak.upgrade().is_some(), "in use");
        engine
            .configure(EngineOptions {
                weights: embedded_weights(),
                ..engine.options()
            })
            .unwrap();
        search(&mut engine); // the thread has taken the new weights
        assert!(weak.upgrade().is_none(), "freed once replaced");
    }
}
