//! The search: iterative deepening principal-variation alpha-beta over a shared
//! transposition table, with Lazy SMP threads. It reports progress through a callback
//! and never prints.

mod busy;
pub mod eval;
pub mod options;
pub mod score;
pub(crate) mod time;
pub(crate) mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::clock::Instant;

pub use eval::{EvalStyle, PatternWeights, evaluate};
pub(crate) use time::Budget;
pub(crate) use tt::TranspositionTable;

use crate::board::{Move, Position};
use crate::clock::Limits;
use crate::egdb::Egdb;
use crate::game::DrawRules;
use crate::movegen::legal_moves;
use busy::BusyPositions;
use options::EngineOptions;
use score::{INFINITY, MAX_PLY, is_decisive};
use worker::Worker;

/// Which search features are on. `FULL` is the engine; `HCE` is the same search with the
/// hand-made evaluation it had before the learned one; `BASELINE` is the first working
/// version (plain alpha-beta, material only). Both are kept as yardsticks for matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Evaluation function.
    pub eval: EvalStyle,
    /// Transposition table cutoffs and move.
    pub tt: bool,
    /// Principal-variation (null window) search.
    pub pvs: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Killer and history ordering.
    pub ordering: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Quiescence looks one move further where the opponent threatens a capture.
    pub threats: bool,
    /// Reverse futility pruning near the horizon.
    pub futility: bool,
    /// ProbCut: a shallow search far above beta cuts a non-PV node.
    pub probcut: bool,
    /// Singular extensions: a table move far better than the rest is searched deeper.
    pub singular: bool,
}

impl Style {
    /// Every feature.
    pub const FULL: Style = Style {
        eval: EvalStyle::Pattern,
        tt: true,
        pvs: true,
        lmr: true,
        ordering: true,
        aspiration: true,
        threats: true,
        futility: true,
        probcut: true,
        singular: true,
    };
    /// Every feature, with the hand-made evaluation.
    pub const HCE: Style = Style {
        eval: EvalStyle::Hce,
        ..Style::FULL
    };
    /// Every feature, with the learned pattern evaluation even where the game's built-in
    /// evaluation is a network.
    pub const PATTERNS: Style = Style {
        eval: EvalStyle::Patterns,
        ..Style::FULL
    };
    /// Plain alpha-beta with a material evaluation.
    pub const BASELINE: Style = Style {
        eval: EvalStyle::Material,
        tt: false,
        pvs: false,
        lmr: false,
        ordering: false,
        aspiration: false,
        threats: false,
        futility: false,
        probcut: false,
        singular: false,
    };
}

impl Default for Style {
    fn default() -> Self {
        Style::FULL
    }
}

/// Flags the engine uses to steer a running search from another thread.
#[derive(Debug, Default)]
pub(crate) struct SearchControl {
    /// Stop as soon as possible.
    pub stop: AtomicBool,
    /// Searching on the opponent's time: no time limit until this turns false.
    pub pondering: AtomicBool,
}

impl SearchControl {
    /// A control with both flags clear.
    pub fn new() -> Self {
        SearchControl::default()
    }
}

/// Progress of a search, sent after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Completed nominal depth.
    pub depth: u32,
    /// Average ply of the evaluated leaves.
    pub mean_depth: f64,
    /// Score for the side to move (see [`score`]).
    pub score: i32,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Rank of this line among the best root moves (1 = best; always 1 without MultiPV).
    pub multipv: usize,
    /// The move is the opening book's, not a search's (depth 0, no nodes).
    pub book: bool,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-6)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move (it has lost).
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The best root moves of the deepest complete iteration, best first, each with its
    /// score and line (`lines[0]` is `score` and `pv`); at most `multipv` of them.
    pub lines: Vec<RootLine>,
}

/// One of the best root moves with its score and principal variation (which starts
/// with the root move).
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine {
    /// Score for the side to move.
    pub score: i32,
    /// Principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

/// State shared by the threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub nodes: AtomicU64,
    /// Set by the main thread when the whole search is over.
    pub finished: AtomicBool,
    start: Instant,
    /// Nanoseconds after `start` when the clock started (later than 0 after a ponder hit).
    clock_origin: AtomicU64,
    was_pondering: AtomicBool,
    budget: Option<Budget>,
    node_limit: Option<u64>,
    /// Endgame databases to probe, if any.
    pub egdb: Option<&'a Egdb>,
    /// Reversible plies that draw (`usize::MAX`: no limit).
    pub quiet_limit: usize,
    /// The pattern evaluation's weights.
    pub weights: &'a PatternWeights,
    /// The positions threads are searching, when there are helper threads.
    pub busy: Option<BusyPositions>,
    /// What a draw costs the side to move at the root (see [`SearchContext::contempt`]);
    /// 0 in analysis.
    pub contempt: i32,
}

impl<'a> Shared<'a> {
    /// The shared state of a search that starts now, with a table of the positions being
    /// searched when there are helper threads.
    pub(crate) fn new(ctx: &SearchContext<'a>, limits: &Limits) -> Self {
        Shared {
            tt: ctx.tt,
            control: ctx.control,
            nodes: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            start: limits.since.unwrap_or_else(Instant::now),
            clock_origin: AtomicU64::new(0),
            was_pondering: AtomicBool::new(ctx.control.pondering.load(Ordering::Relaxed)),
            budget: Budget::from_limits(limits),
            node_limit: limits.nodes,
            egdb: ctx.options.egdb.as_deref().filter(|db| db.max_pieces() > 0),
            quiet_limit: ctx.rules.quiet_plies().unwrap_or(usize::MAX),
            weights: ctx.weights,
            busy: (ctx.options.threads > 1).then(BusyPositions::new),
            contempt: if limits.infinite || limits.analysis {
                0
            } else {
                ctx.options.contempt
            },
        }
    }

    /// Whether any thread should stop now: stop flag, node limit, or hard time limit.
    pub(crate) fn should_stop(&self) -> bool {
        if self.control.stop.load(Ordering::Relaxed) || self.finished.load(Ordering::Relaxed) {
            return true;
        }
        if self
            .node_limit
            .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n)
        {
            return true;
        }
        self.clock_elapsed()
            .is_some_and(|t| self.budget.is_some_and(|b| t >= b.hard))
    }

    /// Time on the clock for this move; `None` while pondering.
    fn clock_elapsed(&self) -> Option<Duration> {
        if self.control.pondering.load(Ordering::Relaxed) {
            return None;
        }
        if self.was_pondering.swap(false, Ordering::Relaxed) {
            // Ponder hit: the move's clock starts now.
            self.clock_origin
                .store(self.start.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
        let origin = Duration::from_nanos(self.clock_origin.load(Ordering::Relaxed));
        Some(self.start.elapsed().saturating_sub(origin))
    }

    fn soft_limit_passed(&self) -> bool {
        self.clock_elapsed()
            .is_some_and(|t| self.budget.is_some_and(|b| t >= b.soft))
    }
}

/// What a search runs with: the shared table, the control flags, the engine's options
/// (borrowed whole: features, threads, MultiPV, contempt, databases), the game's draw
/// rules and the weights for the position's variant.
#[derive(Clone, Copy)]
pub(crate) struct SearchContext<'a> {
    /// The transposition table (shared by all threads).
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags.
    pub control: &'a SearchControl,
    /// The engine's settings and databases.
    pub options: &'a EngineOptions,
    /// The game's draw rules: a node whose run of reversible plies reaches the move
    /// limit is a draw. (Any repetition of a position on the path is a draw whatever
    /// the rules say: [`crate::game::repeats_in_search`].)
    pub rules: DrawRules,
    /// The pattern evaluation's weights for the position's variant (the options' own,
    /// or that variant's embedded ones: [`eval::weights_in`]).
    pub weights: &'a PatternWeights,
}

/// Searches `pos` within `limits`. `history` holds the keys of the game's positions since
/// its last irreversible move (oldest first, `pos` excluded; [`crate::game::Game::history_keys`]),
/// for repetitions, and its length is the run of reversible plies that the move limit
/// counts. `report` gets each completed iteration.
pub(crate) fn search(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    ctx: &SearchContext,
    mut report: impl FnMut(&SearchInfo),
) -> SearchResult {
    let tt = ctx.tt;
    let EngineOptions {
        style,
        threads,
        multipv,
        ..
    } = *ctx.options;
    let root_moves = legal_moves(pos).to_vec();
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        ponder: None,
        score: -INFINITY,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
        lines: Vec::new(),
    };
    if root_moves.is_empty() {
        result.score = -score::WIN;
        return result;
    }
    tt.new_search();
    let shared = Shared::new(ctx, limits);
    let forced = root_moves.len() == 1 && limits.reply_forced_at_once();
    // In analysis a forced root is searched one ply deeper, as forced moves are inside
    // the tree: its score is then that of the position after its move at the same depth.
    let forced_extension = u32::from(root_moves.len() == 1 && limits.analysis);
    let max_depth = match (limits.depth, forced) {
        (_, true) => 1,
        (Some(d), _) => (d + forced_extension).clamp(1, MAX_PLY as u32 - 1),
        (None, _) => MAX_PLY as u32 - 1,
    };
    std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            let (shared, moves) = (&shared, root_moves.clone());
            scope.spawn(move || helper_thread(shared, pos, history, moves, style, max_depth, id));
        }
        let plan = RootPlan {
            style,
            max_depth,
            multipv: multipv.max(1),
        };
        result = main_thread(&shared, pos, history, root_moves, plan, &mut report);
        shared.finished.store(true, Ordering::Relaxed);
    });
    result.nodes = shared.nodes.load(Ordering::Relaxed);
    result
}

/// Size of the table of MultiPV's extra lines, MiB.
const SIDE_TT_MIB: usize = 16;

/// What the main thread searches for: features, depth and the number of lines.
#[derive(Clone, Copy)]
struct RootPlan {
    style: Style,
    max_depth: u32,
    multipv: usize,
}

fn main_thread(
    shared: &Shared,
    pos: &Position,
    history: &[u64],
    mut root_moves: Vec<Move>,
    plan: RootPlan,
    report: &mut impl FnMut(&SearchInfo),
) -> SearchResult {
    let style = plan.style;
    // MultiPV's extra lines keep their table entries apart (see `more_lines`).
    let side_tt = (plan.multipv > 1).then(|| TranspositionTable::new(SIDE_TT_MIB));
    let mut worker = Worker::new(shared, style, history);
    let mut result = SearchResult {
        best: Some(root_moves[0]),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![root_moves[0]],
        lines: Vec::new(),
    };
    for depth in 1..=plan.max_depth {
        worker.iteration_best = None;
        let score = iterate(
            &mut worker,
            pos,
            &mut root_moves,
            depth as i32,
            result.score,
            style,
        );
        if worker.stopped && depth > 1 {
            if side_tt.is_none() {
                take_unfinished_iteration(&mut result, worker.iteration_best.take());
            }
            break;
        }
        worker.flush_nodes();
        let pv = worker.root_pv();
        let best_line = RootLine {
            score,
            pv: if pv.is_empty() {
                vec![root_moves[0]]
            } else {
                pv
            },
        };
        let mut lines = vec![best_line];
        if let Some(side_tt) = &side_tt {
            let complete = more_lines(
                &mut worker,
                side_tt,
                pos,
                &root_moves,
                depth,
                plan,
                &mut lines,
            );
            worker.flush_nodes();
            // An iteration counts once all its lines are in.
            if !complete && depth > 1 {
                break;
            }
        }
        result = result_of(lines, depth, shared.nodes.load(Ordering::Relaxed));
        let mean_depth = worker.leaf_ply_sum as f64 / worker.leaf_count.max(1) as f64;
        let time = shared.start.elapsed();
        for (rank, line) in result.lines.iter().enumerate() {
            report(&SearchInfo {
                depth,
                mean_depth,
                score: line.score,
                nodes: result.nodes,
                time,
                pv: line.pv.clone(),
                multipv: rank + 1,
                book: false,
            });
        }
        if worker.stopped || shared.soft_limit_passed() {
            break;
        }
        // A proven result needs no deeper search unless asked to go on (analysis); nor
        // does a database result, exact for every root move from depth 2.
        if shared.budget.is_some_and(|b| !b.spend_all)
            && ((is_decisive(result.score)
                && depth as i32 > score::plies_to_end(result.score).unwrap_or(0).abs())
                || (score::is_database(result.score)
                    && depth >= 2
                    && root_in_database(shared, pos, history.len())))
        {
            break;
        }
    }
    result
}

/// A search stopped inside an iteration keeps the last complete one's result, unless this
/// iteration had already proven another root move better than its window's lower bound
/// (the first move, searched first, is the last iteration's best): that move is then
/// played, with its line and score (a lower bound when it failed high).
fn take_unfinished_iteration(result: &mut SearchResult, found: Option<RootLine>) {
    let Some(line) = found else { return };
    let Some(&mv) = line.pv.first() else { return };
    if result.best == Some(mv) {
        return;
    }
    result.best = Some(mv);
    result.ponder = line.pv.get(1).copied();
    result.score = line.score;
    result.pv = line.pv.clone();
    if let Some(first) = result.lines.first_mut() {
        *first = line;
    }
}

/// Whether the databases hold the root's exact value (then they hold every position
/// after it), the move limit included: `run` reversible plies lead to the root.
fn root_in_database(shared: &Shared, pos: &Position, run: usize) -> bool {
    shared
        .egdb
        .and_then(|db| db.probe(pos))
        .is_some_and(|outcome| worker::within_limit(outcome, run, shared.quiet_limit))
}

/// The result of a complete iteration whose lines are `lines`, best first.
fn result_of(lines: Vec<RootLine>, depth: u32, nodes: u64) -> SearchResult {
    let best = &lines[0];
    SearchResult {
        best: best.pv.first().copied(),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth,
        nodes,
        pv: best.pv.clone(),
        lines,
    }
}

/// MultiPV: after the normal search of an iteration found `lines[0]`, searches the root
/// again without the moves already ranked, once per further line, and appends the lines.
/// Returns false when stopped before every line was found.
///
/// These searches leave no trace that could change the next iteration's first line: they
/// read the shared transposition table but write to `side_tt`, a table of their own, and
/// the killer and history tables are restored afterwards. So the best line is exactly the
/// single-PV search's. Each line's
/// score is capped at the score of the line above it: the search that ranked that line
/// proved, at the same depth, that no remaining move beats it.
fn more_lines<'a>(
    worker: &mut Worker<'a>,
    side_tt: &'a TranspositionTable,
    pos: &Position,
    root_moves: &[Move],
    depth: u32,
    plan: RootPlan,
    lines: &mut Vec<RootLine>,
) -> bool {
    let saved = worker.save_ordering();
    worker.side_tt = Some(side_tt);
    let wanted = plan.multipv.min(root_moves.len());
    let mut complete = true;
    while lines.len() < wanted {
        let mut moves: Vec<Move> = root_moves
            .iter()
            .filter(|m| lines.iter().all(|l| l.pv.first() != Some(m)))
            .copied()
            .collect();
        let cap = lines[lines.len() - 1].score;
        let score = iterate(worker, pos, &mut moves, depth as i32, -INFINITY, plan.style);
        if worker.stopped {
            complete = false;
            break;
        }
        let pv = worker.root_pv();
        lines.push(RootLine {
            score: score.min(cap),
            pv: if pv.is_empty() { vec![moves[0]] } else { pv },
        });
    }
    worker.side_tt = None;
    worker.restore_ordering(saved);
    complete
}

/// One iteration, with aspiration windows around the previous score when enabled.
fn iterate(
    worker: &mut Worker,
    pos: &Position,
    root_moves: &mut [Move],
    depth: i32,
    previous: i32,
    style: Style,
) -> i32 {
    if !style.aspiration || depth < 5 || is_decisive(previous) || score::is_database(previous) {
        return worker.root(pos, root_moves, depth, -INFINITY, INFINITY);
    }
    let mut delta = 30;
    let (mut alpha, mut beta) = (previous - delta, previous + delta);
    loop {
        let score = worker.root(pos, root_moves, depth, alpha, beta);
        if worker.stopped {
            return score;
        }
        if score <= alpha {
            alpha = (alpha - delta).max(-INFINITY);
        } else if score >= beta {
            beta = (beta + delta).min(INFINITY);
        } else {
            return score;
        }
        delta *= 2;
        if delta > 400 {
            (alpha, beta) = (-INFINITY, INFINITY);
        }
    }
}

/// A Lazy SMP helper: the same iterative deepening, half of them one ply ahead, filling
/// the shared table; its results are not reported.
fn helper_thread(
    shared: &Shared,
    pos: &Position,
    history: &[u64],
    mut root_moves: Vec<Move>,
    style: Style,
    max_depth: u32,
    id: usize,
) {
    let mut worker = Worker::new(shared, style, history);
    let mut previous = 0;
    let mut depth = 1 + (id % 2) as u32;
    while depth <= max_depth && !shared.should_stop() {
        previous = iterate(
            &mut worker,
            pos,
            &mut root_moves,
            depth as i32,
            previous,
            style,
        );
        worker.flush_nodes();
        depth += 1;
    }
    worker.flush_nodes();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(moves: &[Move], score: i32) -> RootLine {
        RootLine {
            score,
            pv: moves.to_vec(),
        }
    }

    fn result(best: &RootLine) -> SearchResult {
        result_of(vec![best.clone()], 9, 1000)
    }

    #[test]
    fn an_unfinished_iteration_gives_its_new_best_move() {
        let moves: Vec<Move> = legal_moves(&Position::start()).to_vec();
        let (a, b, c) = (moves[0], moves[1], moves[2]);
        let old = line(&[a, c], 10);
        // Nothing proven in the unfinished iteration, or only the old best again:
        // the last complete iteration's result stands.
        for found in [None, Some(line(&[a, b], 40))] {
            let mut r = result(&old);
            take_unfinished_iteration(&mut r, found);
            assert_eq!(r, result(&old));
        }
        // Another move proven better: it is played, with its line and score.
        let mut r = result(&old);
        take_unfinished_iteration(&mut r, Some(line(&[b, c], 25)));
        assert_eq!((r.best, r.ponder, r.score), (Some(b), Some(c), 25));
        assert_eq!((r.pv, r.depth), (vec![b, c], 9));
        assert_eq!(r.lines, vec![line(&[b, c], 25)]);
    }
}
