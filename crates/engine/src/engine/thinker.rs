//! [`Thinker`]: the blocking way into the search, for the tools that wait for a move
//! (console play, batch analysis, bench, self-play, the CheckerBoard DLL, tests).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use parking_lot::Mutex;

use super::EngineOptions;
use crate::board::Position;
use crate::clock::Limits;
use crate::game::{DrawRules, Game};
use crate::rng::Rng;
use crate::search::{
    RootLine, SearchContext, SearchControl, SearchInfo, SearchResult, TranspositionTable,
};

/// An engine that searches on the caller's thread: its options, its transposition table
/// (kept from one search to the next, cleared by [`Thinker::new_game`]) and a stop flag
/// that another thread may raise through a [`Stopper`].
///
/// ```
/// use damiera_engine::clock::Limits;
/// use damiera_engine::engine::{EngineOptions, Thinker};
/// use damiera_engine::game::Game;
/// use damiera_engine::board::Position;
///
/// let thinker = Thinker::new(EngineOptions { tt_mib: 1, ..EngineOptions::default() })?;
/// let result = thinker.think(&Game::new(Position::start()), &Limits::depth(4), |_| {});
/// assert!(result.best.is_some());
/// # Ok::<(), String>(())
/// ```
pub struct Thinker {
    options: EngineOptions,
    tt: TranspositionTable,
    control: Arc<SearchControl>,
    /// Draws the varied book moves (seeded differently in every engine).
    book_rng: Mutex<Rng>,
}

/// A seed that differs from one engine to the next: the standard library's per-process
/// random hash keys (fixed keys where the platform has no randomness, as in the
/// browser), mixed with a count of the engines made.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(MADE.fetch_add(1, Ordering::Relaxed));
    h.finish()
}

/// The table `new` asks for when its size differs from `old`'s, allocated fallibly;
/// `None` when the table in use stays.
pub(crate) fn new_table(
    old: &EngineOptions,
    new: &EngineOptions,
) -> Result<Option<TranspositionTable>, String> {
    if new.tt_mib == old.tt_mib {
        return Ok(None);
    }
    TranspositionTable::try_new(new.tt_mib).map(Some)
}

/// Stops the searches of one [`Thinker`] (or [`crate::engine::Engine`]) from any thread.
#[derive(Clone, Debug)]
pub struct Stopper(Arc<SearchControl>);

impl Stopper {
    pub(crate) fn new(control: Arc<SearchControl>) -> Stopper {
        Stopper(control)
    }

    /// Asks the running search to finish now; it still returns its best move.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }
}

impl Thinker {
    /// An engine with `options`; the table is allocated here, fallibly.
    pub fn new(options: EngineOptions) -> Result<Thinker, String> {
        Ok(Thinker::with_control(
            TranspositionTable::try_new(options.tt_mib)?,
            options,
            Arc::new(SearchControl::new()),
        ))
    }

    /// An engine over a table and control flags allocated elsewhere (the search thread).
    pub(crate) fn with_control(
        tt: TranspositionTable,
        options: EngineOptions,
        control: Arc<SearchControl>,
    ) -> Thinker {
        Thinker {
            options,
            tt,
            control,
            book_rng: Mutex::new(Rng::new(fresh_seed())),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// New options for the following searches; a new table size is allocated here,
    /// fallibly: when it cannot be had, nothing changes and the error says so.
    pub fn configure(&mut self, options: EngineOptions) -> Result<(), String> {
        let table = new_table(&self.options, &options)?;
        self.replace(options, table);
        Ok(())
    }

    /// New options, with the new table when its size changed.
    pub(crate) fn replace(&mut self, options: EngineOptions, table: Option<TranspositionTable>) {
        if let Some(table) = table {
            self.tt = table;
        }
        self.options = options;
    }

    /// Forgets what earlier searches learnt (between games, and for reproducible runs).
    pub fn new_game(&self) {
        self.tt.clear();
    }

    /// A handle that stops this engine's searches from another thread.
    pub fn stopper(&self) -> Stopper {
        Stopper(Arc::clone(&self.control))
    }

    /// Searches the position `game` has reached within `limits`, under the game's draw
    /// rules and with its history for repetitions; `on_info` gets each completed
    /// iteration (each line of it, with MultiPV). A stop asked before this call is
    /// forgotten: the search runs until its limits or a later stop.
    pub fn think(
        &self,
        game: &Game,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.control.stop.store(false, Ordering::SeqCst);
        self.search(game, limits, on_info)
    }

    /// [`Thinker::think`] for a position whose earlier positions are known only by
    /// their keys: `history` as [`Game::history_keys`] gives it (oldest first, since the
    /// last irreversible move, `position` excluded), searched under `rules`.
    pub fn think_position(
        &self,
        position: &Position,
        history: &[u64],
        rules: DrawRules,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.control.stop.store(false, Ordering::SeqCst);
        self.search_position(position, history, rules, limits, on_info)
    }

    /// [`Thinker::think`] without clearing the stop flag: the search thread clears it
    /// when the search is asked for, so that a stop sent right after is never lost.
    pub(crate) fn search(
        &self,
        game: &Game,
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let (position, history) = (game.position(), game.history_keys());
        self.search_position(&position, &history, game.rules(), limits, on_info)
    }

    fn search_position(
        &self,
        position: &Position,
        history: &[u64],
        rules: DrawRules,
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        if let Some(result) = self.book_move(position, limits, &mut on_info) {
            return result;
        }
        let o = &self.options;
        let ctx = SearchContext {
            tt: &self.tt,
            control: &self.control,
            options: o,
            rules,
            weights: crate::search::eval::weights_in(&o.weights, position.variant()),
        };
        crate::search::search(position, history, limits, &ctx, on_info)
    }

    /// The book's move for `position` when the options name a book, the search is one of
    /// play (not analysis until stopped, not pondering, one line) and the book has a
    /// move there: reported as one `info` of depth 0 marked as the book's.
    fn book_move(
        &self,
        position: &Position,
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let o = &self.options;
        let book = o.book.as_deref()?;
        // A book's lines follow the game's own rules, not Damka's house rules.
        if limits.infinite
            || position.house_rules().changes_moves()
            || o.multipv > 1
            || self.control.pondering.load(Ordering::SeqCst)
        {
            return None;
        }
        let chosen = book.choose(position, o.book_mode(), &mut self.book_rng.lock())?;
        let score = if chosen.entry.has_value() {
            i32::from(chosen.entry.value)
        } else {
            0
        };
        let pv = vec![chosen.mv];
        on_info(&SearchInfo {
            depth: 0,
            mean_depth: 0.0,
            score,
            nodes: 0,
            time: std::time::Duration::ZERO,
            pv: pv.clone(),
            multipv: 1,
            book: true,
        });
        Some(SearchResult {
            best: Some(chosen.mv),
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            pv: pv.clone(),
            lines: vec![RootLine { score, pv }],
        })
    }

    /// The control flags (the search thread's ponder flag).
    pub(crate) fn control(&self) -> &SearchControl {
        &self.control
    }
}
