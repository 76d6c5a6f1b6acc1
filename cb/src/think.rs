//! One `getmove`: the time limit from CheckerBoard's arguments, the search on its own
//! thread while the caller's thread watches `playnow` and writes the status line, and the
//! verdict returned to CheckerBoard.
//!
//! The search runs on a scoped thread (a large stack, whatever the host's thread has), so
//! no thread outlives the call: CheckerBoard may unload the DLL between moves.

use std::sync::Arc;
use std::time::Duration;

use damiera_engine::board::Position;
use damiera_engine::clock::{Limits, TimeLeft};
use damiera_engine::egdb::{Egdb, Outcome};
use damiera_engine::engine::{EngineOptions, Thinker};
use damiera_engine::game::Game;
use damiera_engine::movegen::{legal_moves, line_text};
use damiera_engine::search::score::{self, is_database, plies_to_end};
use damiera_engine::search::{SearchInfo, SearchResult};

/// `getmove` return values.
pub const CB_DRAW: i32 = 0;
/// The engine wins.
pub const CB_WIN: i32 = 1;
/// The engine loses.
pub const CB_LOSS: i32 = 2;
/// No claim.
pub const CB_UNKNOWN: i32 = 3;

/// `info` bit: return exactly after `maxtime`.
pub const CB_EXACT_TIME: i32 = 2;
/// `info` bits 2-3: incremental clock and its unit.
const INCR_SHIFT: i32 = 2;
/// Stack of the search thread.
const SEARCH_STACK: usize = 16 << 20;
/// How often the caller's thread looks at `playnow`.
const POLL: Duration = Duration::from_millis(1);

/// The search's limits from `getmove`'s `maxtime`, `info` and `moreinfo`: with the
/// incremental clock (bits 2-3 of `info`) the time left (this move's increment
/// included) and the increment, in the unit those bits give; else `maxtime` seconds.
pub fn limits(maxtime: f64, info: i32, moreinfo: i32) -> Limits {
    let mode = (info >> INCR_SHIFT) & 3;
    if mode == 0 {
        return Limits::move_time(if maxtime.is_finite() { maxtime } else { 0.0 });
    }
    let unit = [0.001, 0.01, 0.1][mode as usize - 1];
    let packed = moreinfo as u32;
    let increment = f64::from(packed & 0xffff) * unit;
    let remaining = f64::from(packed >> 16) * unit;
    Limits {
        clock: Some(TimeLeft::from_secs(remaining, increment, None)),
        ..Limits::default()
    }
}

/// What the search keeps between moves: the engine (its table) and the databases.
#[derive(Default)]
pub struct SearchState {
    engine: Option<Thinker>,
    egdb: Option<(std::path::PathBuf, usize, Arc<Egdb>)>,
}

impl SearchState {
    /// Makes the table `mib` MiB (a new table only when the size changes). An allocation
    /// the system refuses is an error, not an abort of the host program.
    pub fn resize_table(&mut self, mib: usize) -> Result<(), String> {
        if self
            .engine
            .as_ref()
            .is_some_and(|e| e.options().tt_mib == mib)
        {
            return Ok(());
        }
        self.engine = None; // free the old table before allocating the new one
        let options = EngineOptions {
            tt_mib: mib,
            egdb: self.egdb.as_ref().map(|(_, _, db)| Arc::clone(db)),
            ..EngineOptions::default()
        };
        let engine =
            Thinker::new(options).map_err(|_| format!("cannot allocate a {mib} MiB hash table"))?;
        self.engine = Some(engine);
        Ok(())
    }

    /// Opens the databases of `dir` (kept while the directory and cache size stay).
    pub fn databases(
        &mut self,
        dir: Option<&std::path::Path>,
        cache_mib: usize,
    ) -> Result<(), String> {
        let same = matches!((&self.egdb, dir), (Some((d, c, _)), Some(dir)) if d == dir && *c == cache_mib);
        if same {
            return Ok(());
        }
        // Release the databases in use (here and in the engine) before opening others.
        self.egdb = None;
        self.set_engine_databases();
        if let Some(dir) = dir {
            let db = Egdb::open(dir, cache_mib)?;
            self.egdb = Some((dir.to_path_buf(), cache_mib, Arc::new(db)));
            self.set_engine_databases();
        }
        Ok(())
    }

    fn set_engine_databases(&mut self) {
        let egdb = self.egdb.as_ref().map(|(_, _, db)| Arc::clone(db));
        if let Some(engine) = &mut self.engine
            && !same_databases(&engine.options().egdb, &egdb)
        {
            let options = EngineOptions {
                egdb,
                ..engine.options().clone()
            };
            // The table size stays, so this cannot fail.
            let _ = engine.configure(options);
        }
    }

    /// The open databases.
    pub fn egdb(&self) -> Option<&Egdb> {
        self.egdb.as_ref().map(|(_, _, db)| db.as_ref())
    }
}

fn same_databases(a: &Option<Arc<Egdb>>, b: &Option<Arc<Egdb>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// One search to run.
pub struct Request<'a> {
    /// The game up to the position to search (for repetitions and the move limit).
    pub game: Game,
    /// When to stop.
    pub limits: Limits,
    /// The engine's settings (threads, MultiPV, style, contempt; the table size is the
    /// state's, set by [`SearchState::resize_table`]).
    pub settings: &'a EngineOptions,
    /// Show every root move with its score.
    pub allscores: bool,
    /// Asks the search to stop now (CheckerBoard's `*playnow`).
    pub playnow: &'a dyn Fn() -> bool,
    /// Receives each status line.
    pub status: &'a mut dyn FnMut(&str),
}

/// Searches on a thread of its own; the calling thread polls `playnow` every
/// millisecond and writes a status line after each iteration.
pub fn think(state: &mut SearchState, request: Request) -> Result<SearchResult, String> {
    let Request {
        game,
        limits,
        settings,
        allscores,
        playnow,
        status,
    } = request;
    let position = game.position();
    let multipv = if allscores {
        legal_moves(&position).len().clamp(1, 32)
    } else {
        settings.multipv
    };
    let Some(engine) = &mut state.engine else {
        return Err("no hash table".into());
    };
    let current = engine.options();
    let options = EngineOptions {
        multipv,
        tt_mib: current.tt_mib,
        weights: Arc::clone(&current.weights),
        egdb: current.egdb.clone(),
        ..settings.clone()
    };
    engine.configure(options)?;
    let engine = &*engine;
    let stopper = engine.stopper();
    let (tx, rx) = std::sync::mpsc::channel::<SearchInfo>();
    let mut lines: Vec<SearchInfo> = Vec::new();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("damiera-search".into())
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, move || {
                engine.think(&game, &limits, |info| {
                    let _ = tx.send(info.clone());
                })
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        loop {
            if playnow() {
                stopper.stop();
            }
            match rx.recv_timeout(POLL) {
                Ok(info) => {
                    record_line(&mut lines, info);
                    status(&status_text(&position, &lines, allscores));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        worker
            .join()
            .map_err(|_| "the search thread failed".to_string())
    })
}

/// Keeps the newest line of each MultiPV rank; a new depth starts a new list.
fn record_line(lines: &mut Vec<SearchInfo>, info: SearchInfo) {
    if lines.first().is_some_and(|l| l.depth != info.depth) && info.multipv == 1 {
        lines.clear();
    }
    let rank = info.multipv.max(1);
    lines.retain(|l| l.multipv != rank);
    lines.push(info);
    lines.sort_by_key(|l| l.multipv);
}

/// The status line while thinking: depth, score, nodes, speed, time and the main line
/// (or, with allscores, every root move and its score).
pub fn status_text(pos: &Position, lines: &[SearchInfo], allscores: bool) -> String {
    let Some(best) = lines.first() else {
        return "Damiera: thinking".into();
    };
    let head = format!(
        "depth {}/{:.0} | {} | {:.2} s | {:.0} kN/s",
        best.depth,
        best.mean_depth,
        score::text(best.score),
        best.time.as_secs_f64(),
        best.nps() / 1000.0
    );
    if allscores {
        let moves: Vec<String> = lines
            .iter()
            .map(|l| format!("{} {}", line_text(pos, &l.pv, 1), score::text(l.score)))
            .collect();
        format!("{head} | {}", moves.join(", "))
    } else {
        format!("{head} | pv {}", line_text(pos, &best.pv, 12))
    }
}

/// The final status line: the move played, then the last iteration's figures (or `book
/// move`) and the main line (with allscores, every root move and its score).
pub fn final_text(pos: &Position, result: &SearchResult, allscores: bool) -> String {
    let Some(best) = result.best else {
        return "Damiera: no legal move, the game is lost".into();
    };
    // The opening book's move: no search, depth 0 and no nodes.
    let depth = if result.depth == 0 && result.nodes == 0 {
        "book move".to_string()
    } else {
        format!("depth {}", result.depth)
    };
    let head = format!(
        "Damiera plays {} | {depth} | {} | {} nodes",
        line_text(pos, &[best], 1),
        score::text(result.score),
        result.nodes,
    );
    if allscores && !result.lines.is_empty() {
        let moves: Vec<String> = result
            .lines
            .iter()
            .map(|l| format!("{} {}", line_text(pos, &l.pv, 1), score::text(l.score)))
            .collect();
        format!("{head} | {}", moves.join(", "))
    } else {
        format!("{head} | pv {}", line_text(pos, &result.pv, 12))
    }
}

/// What `getmove` returns: a database answer for the position itself when it has one,
/// else a win or loss the search proved (on the board or from the databases), else
/// `CB_UNKNOWN`.
pub fn verdict(pos: &Position, result: &SearchResult, egdb: Option<&Egdb>) -> i32 {
    match egdb.and_then(|db| db.probe(pos)) {
        Some(Outcome::Win(_)) => return CB_WIN,
        Some(Outcome::Loss(_)) => return CB_LOSS,
        Some(Outcome::Draw) => return CB_DRAW,
        None => {}
    }
    if result.best.is_none() {
        return CB_LOSS;
    }
    let proven = plies_to_end(result.score).is_some() || is_database(result.score);
    match (proven, result.score > 0) {
        (true, true) => CB_WIN,
        (true, false) => CB_LOSS,
        _ => CB_UNKNOWN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_clock_is_unpacked() {
        // CheckerBoard's format_time_args: unit 0.01 s (mode 2), 12.34 s left, 0.5 s increment.
        let info = 2 << INCR_SHIFT;
        let moreinfo = ((1234u32 << 16) | 50) as i32;
        let l = limits(3.0, info, moreinfo);
        let c = l.clock.unwrap();
        assert_eq!((c.increment_ms, c.remaining_ms), (500, 12_340), "{c:?}");
        assert_eq!(l.move_time, None);
        // Largest unit, the time left in the high half (as an unsigned number).
        let l = limits(1.0, 3 << INCR_SHIFT, (60_000u32 << 16) as i32);
        assert_eq!(l.clock.unwrap().remaining_ms, 6_000_000);
        assert_eq!(limits(2.5, CB_EXACT_TIME, 0).move_time, Some(2.5));
        assert_eq!(limits(f64::NAN, 0, 0).move_time, Some(0.0));
    }

    #[test]
    fn scores_read_as_people_read_them() {
        use damiera_engine::search::score::{DB_WIN, WIN};
        assert_eq!(score::text(25), "+0.25");
        assert_eq!(score::text(-130), "-1.30");
        assert_eq!(score::text(WIN - 7), "win in 7");
        assert_eq!(score::text(-(WIN - 8)), "loss in 8");
        assert_eq!(score::text(DB_WIN - 31), "win in 31");
    }

    #[test]
    fn verdicts_follow_proven_scores() {
        use damiera_engine::search::score::{DB_WIN, WIN};
        let pos = Position::start();
        let mut r = SearchResult {
            best: legal_moves(&pos).first().copied(),
            ponder: None,
            score: 40,
            depth: 5,
            nodes: 1,
            pv: vec![],
            lines: vec![],
        };
        assert_eq!(verdict(&pos, &r, None), CB_UNKNOWN);
        r.score = WIN - 9;
        assert_eq!(verdict(&pos, &r, None), CB_WIN);
        r.score = -(DB_WIN - 20);
        assert_eq!(verdict(&pos, &r, None), CB_LOSS);
        r.best = None;
        assert_eq!(verdict(&pos, &r, None), CB_LOSS);
    }
}
