//! One search thread: iterative deepening, principal-variation alpha-beta with a
//! transposition table, a capture-resolving quiescence search, killer and history move
//! ordering, late move reductions, and repetition detection.

use std::sync::atomic::Ordering;

use super::eval::nnue::Network;
use super::eval::nnue_stack::AccumulatorStack;
use super::eval::score_cache::ScoreCache;
use super::eval::{EvalStyle, evaluate};
use super::score::{DB_BOUND, DB_WIN, INFINITY, MAX_PLY, WIN, from_table, to_table};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{RootLine, Shared, Style};
use crate::board::{Move, Position};
use crate::egdb::Outcome;
use crate::game::repeats_in_search;
use crate::movegen::{
    MAX_MOVES, MoveList, generate_into, has_capture, has_quiet_move, is_irreversible, is_lost,
    opponent_threatens,
};

/// The reversible run after `mv`: one more after a king's quiet move, else zero.
#[inline(always)]
fn next_run(pos: &Position, mv: Move, run: usize) -> usize {
    if is_irreversible(pos, mv) { 0 } else { run + 1 }
}

/// Whether a database result holds under the move limit `limit` when `run` reversible
/// plies lead to the position: the game ends within `d` plies, so it does when the run
/// cannot reach the limit first. (Beyond, the win may still come through an early
/// capture, or not at all: the search finds out.) A draw always holds.
#[inline]
pub(crate) fn within_limit(outcome: Outcome, run: usize, limit: usize) -> bool {
    match outcome {
        Outcome::Win(d) | Outcome::Loss(d) => run.saturating_add(d as usize) <= limit,
        Outcome::Draw => true,
    }
}

/// Reverse futility pruning: at a non-PV node this many plies from the horizon or fewer,
/// quiet (no capture to make, none threatened by the opponent), a static evaluation above
/// beta by [`FUTILITY_MARGIN`] a ply is a cut without a search.
const FUTILITY_DEPTH: i32 = 3;
/// The margin of reverse futility pruning, hundredths of a man per ply.
const FUTILITY_MARGIN: i32 = 50;

/// ProbCut (as in Scan): at a non-PV node this many plies from the horizon or more, a
/// search to [`PROBCUT_DEPTH_PERCENT`] of the depth that beats beta by
/// [`PROBCUT_MARGIN`] a ply is a cut (SPRT at 1+0.01: +73.7 ± 34.6 Elo).
const PROBCUT_MIN_DEPTH: i32 = 3;
/// The margin of ProbCut over beta, hundredths of a man per ply of depth.
const PROBCUT_MARGIN: i32 = 10;
/// The depth of ProbCut's shallow search, percent of the node's depth (at least 1).
const PROBCUT_DEPTH_PERCENT: i32 = 40;

/// Singular extensions (as in Scan): at a PV node this many plies from the horizon or
/// more, a table move with a lower bound is searched one ply deeper when every other
/// move, searched [`SINGULAR_DEPTH_CUT`] plies shallower, stays [`SINGULAR_MARGIN`]
/// below that bound (SPRT at 1+0.01 over ProbCut: +31.5 ± 23.4 Elo).
const SINGULAR_MIN_DEPTH: i32 = 8;
/// How far below the table move's bound the other moves must stay, hundredths of a man.
const SINGULAR_MARGIN: i32 = 40;
/// How much shallower the other moves are searched in the singularity test.
const SINGULAR_DEPTH_CUT: i32 = 4;

/// With helper threads, a node this many plies from the horizon or more puts off the
/// moves (all but the first) that another thread is searching, to search them last.
const DEFER_DEPTH: i32 = 3;

/// Nodes between checks of the stop flag and the clock.
const CHECK_INTERVAL: u64 = 1024;

/// The state of one search thread.
pub(crate) struct Worker<'a> {
    shared: &'a Shared<'a>,
    style: Style,
    /// Keys of the positions before the current node: the game since its last
    /// irreversible move, then the search path.
    keys: Vec<u64>,
    nodes: u64,
    unreported: u64,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 64]; 64]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Move ordering scores with move list indices, one row per ply.
    order: Box<[[(i32, u8); MAX_MOVES]; MAX_PLY + 1]>,
    /// Moves put off because another thread is searching them, one row per ply: the
    /// move's rank in the ordering and its move list index.
    deferred: Box<[[(u8, u8); MAX_MOVES]; MAX_PLY + 1]>,
    /// Highest ply reached in this iteration; sum of leaf plies for mean depth.
    pub leaf_ply_sum: u64,
    pub leaf_count: u64,
    pub stopped: bool,
    /// A table of its own for MultiPV's extra lines: results go there, not into the
    /// shared table, and probes look at both.
    pub side_tt: Option<&'a TranspositionTable>,
    /// Inside a ProbCut search: no ProbCut within it.
    in_probcut: bool,
    /// The move a singularity test leaves out at each ply, or [`Move::NONE`].
    excluded: [Move; MAX_PLY + 1],
    /// The best root move this iteration has proven better than its window's lower
    /// bound, with its score and line: what a search stopped mid-iteration can still use
    /// (cleared by the caller before each iteration).
    pub iteration_best: Option<RootLine>,
    /// The network, its accumulators along the path and its recent scores, when a
    /// network evaluates.
    nnue: Option<(&'a Network, AccumulatorStack, ScoreCache)>,
}

/// The move ordering tables a search learns, saved to be put back later.
pub(crate) struct OrderingTables {
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[i32; 64]; 64]>,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(shared: &'a Shared<'a>, style: Style, history_keys: &[u64]) -> Self {
        Worker {
            shared,
            style,
            keys: history_keys.to_vec(),
            nodes: 0,
            unreported: 0,
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; 64]; 64]),
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            order: Box::new([[(0, 0); MAX_MOVES]; MAX_PLY + 1]),
            deferred: Box::new([[(0, 0); MAX_MOVES]; MAX_PLY + 1]),
            leaf_ply_sum: 0,
            leaf_count: 0,
            stopped: false,
            side_tt: None,
            in_probcut: false,
            excluded: [Move::NONE; MAX_PLY + 1],
            iteration_best: None,
            nnue: shared
                .weights
                .network
                .as_deref()
                .filter(|_| style.eval == EvalStyle::Pattern)
                .map(|net| (net, AccumulatorStack::new(MAX_PLY), ScoreCache::new())),
        }
    }

    /// Records that the node at `ply` is `pos`, for the network's accumulators.
    #[inline(always)]
    fn enter(&mut self, ply: usize, pos: &Position) {
        if let Some((_, stack, _)) = &mut self.nnue {
            stack.enter(ply, pos);
        }
    }

    /// The static evaluation of `pos`, the node at `ply`: the network's, when one
    /// evaluates, from its recent scores or else updated from the accumulators above it.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            Some((net, stack, cache)) => {
                if let Some(score) = cache.get(pos.key()) {
                    return score;
                }
                let score = stack
                    .evaluate(net, ply, pos)
                    .clamp(-super::score::EVAL_LIMIT + 1, super::score::EVAL_LIMIT - 1);
                cache.put(pos.key(), score);
                score
            }
            None => evaluate(pos, self.style.eval, self.shared.weights),
        }
    }

    /// A copy of the killer and history tables.
    pub(crate) fn save_ordering(&self) -> OrderingTables {
        OrderingTables {
            killers: self.killers,
            history: self.history.clone(),
        }
    }

    /// Puts back tables saved by [`Worker::save_ordering`].
    pub(crate) fn restore_ordering(&mut self, saved: OrderingTables) {
        self.killers = saved.killers;
        self.history = saved.history;
    }

    /// The table entry for `key`: the shared table's, or with a side table the deeper
    /// of the two.
    fn probe(&self, key: u64) -> Option<Entry> {
        let shared = self.shared.tt.probe(key);
        match self.side_tt.and_then(|side| side.probe(key)) {
            Some(own) if shared.is_none_or(|s| own.depth >= s.depth) => Some(own),
            _ => shared,
        }
    }

    /// The principal variation of the last completed root search.
    pub(crate) fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_INTERVAL {
            self.shared
                .nodes
                .fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
            if self.shared.should_stop() {
                self.stopped = true;
            }
        }
    }

    /// Flushes the node count to the shared counter.
    pub(crate) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
    }

    /// Searches the root to `depth` in the window (alpha, beta); returns the score and
    /// leaves the best line in `root_pv`. `root_moves` is reordered, best first.
    pub(crate) fn root(
        &mut self,
        pos: &Position,
        root_moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        let run = self.keys.len();
        self.keys.push(pos.key());
        self.enter(0, pos);
        for i in 0..root_moves.len() {
            let mv = root_moves[i];
            let child = pos.play(mv);
            let child_run = next_run(pos, mv, run);
            let score = if i == 0 || !self.style.pvs {
                -self.search(&child, depth - 1, -beta, -alpha, 1, true, child_run)
            } else {
                let s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, false, child_run);
                if s > alpha && s < beta && !self.stopped {
                    -self.search(&child, depth - 1, -beta, -alpha, 1, true, child_run)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                root_moves[..=i].rotate_right(1);
                self.update_pv(0, mv);
                if score > alpha {
                    self.iteration_best = Some(RootLine {
                        score,
                        pv: self.root_pv(),
                    });
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = mv;
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// Whether the current position repeats an earlier one, by the search's shortcut of
    /// the game's rule ([`repeats_in_search`]).
    fn is_repetition(&self, key: u64, run: usize) -> bool {
        repeats_in_search(&self.keys, key, run)
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        run: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        self.enter(ply, pos);
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply, true, run);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        let key = pos.key();
        if self.style.tt {
            self.shared.tt.prefetch(key);
        }
        if self.is_repetition(key, run) || self.is_move_limit_draw(pos, run) {
            return self.draw_score(ply);
        }
        if let Some(score) = self.probe_database(pos, ply, run) {
            return score;
        }
        // Mate distance pruning: nothing here can beat a win already found nearer the root.
        let alpha_md = alpha.max(-(WIN - ply as i32));
        let beta_md = beta.min(WIN - ply as i32 - 1);
        if alpha_md >= beta_md {
            return alpha_md;
        }

        let mut moves = MoveList::new();
        generate_into(pos, &mut moves);
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }

        // A singularity test searches the node without one move: its results are kept
        // under a key of their own.
        let excluded = self.excluded[ply];
        let tt_key = if excluded.is_none() {
            key
        } else {
            key ^ excluded.raw().wrapping_mul(0x9E37_79B9_7F4A_7C15)
        };
        let entry = if self.style.tt {
            self.probe(tt_key)
        } else {
            None
        };
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && !self.near_move_limit(run, depth)
        {
            let s = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        if self.style.futility
            && !pv_node
            && depth <= FUTILITY_DEPTH
            && !moves[0].is_capture()
            && beta.abs() < DB_BOUND
            && !opponent_threatens(pos)
        {
            let eval = self.evaluate(pos, ply);
            if eval - FUTILITY_MARGIN * depth >= beta {
                return eval;
            }
        }
        if self.style.probcut
            && !pv_node
            && !self.in_probcut
            && excluded.is_none()
            && depth >= PROBCUT_MIN_DEPTH
            && beta.abs() < DB_BOUND
            && let Some(score) = self.probcut(pos, depth, beta, ply, run)
        {
            return score;
        }
        // A forced move costs nothing to look at deeper.
        let depth = if moves.len() == 1 && ply < 2 * MAX_PLY / 3 {
            depth + 1
        } else {
            depth
        };

        let tt_index = entry
            .and_then(|e| e.move_index)
            .filter(|&i| i < moves.len());
        let tt_move = tt_index.map(|i| moves[i]);
        // Before the ordering: the test searches this node again, at the same ply.
        let singular = match (entry, tt_move) {
            (Some(e), Some(mv))
                if self.style.singular
                    && pv_node
                    && excluded.is_none()
                    && depth >= SINGULAR_MIN_DEPTH
                    && moves.len() > 1
                    && e.bound == Bound::Lower
                    && e.depth >= depth - SINGULAR_DEPTH_CUT =>
            {
                self.is_singular(pos, mv, from_table(e.score, ply), depth, ply, run)
            }
            _ => false,
        };
        if self.stopped {
            return 0;
        }
        self.order_moves(&moves, tt_move, ply);

        self.keys.push(key);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        // Moves another thread is busy with are searched after the others (only with
        // helper threads: one thread alone searches in the plain order).
        let busy = self.shared.busy.as_ref().filter(|_| depth >= DEFER_DEPTH);
        let (mut picked, mut deferred, mut taken_back) = (0, 0, 0);
        loop {
            let (n, index, second_pass) = if picked < moves.len() {
                picked += 1;
                (picked - 1, self.pick(ply, picked - 1, moves.len()), false)
            } else if taken_back < deferred {
                let (n, index) = self.deferred[ply][taken_back];
                taken_back += 1;
                (n as usize, index as usize, true)
            } else {
                break;
            };
            let mv = moves[index];
            if mv == excluded {
                continue;
            }
            let child = pos.play(mv);
            if let Some(busy) = busy {
                if n > 0 && !second_pass && busy.contains(child.key()) {
                    self.deferred[ply][deferred] = (n as u8, index as u8);
                    deferred += 1;
                    continue;
                }
                busy.mark(child.key());
            }
            let quiet = !mv.is_capture();
            let child_run = next_run(pos, mv, run);
            let extension = i32::from(singular && Some(mv) == tt_move);
            let score = if n == 0 || !self.style.pvs {
                -self.search(
                    &child,
                    depth - 1 + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    child_run,
                )
            } else {
                // Late move reductions: one ply off quiet moves from the 4th, two from
                // the 6th at depth 5 or more (SPRT at 1+0.01: +13.6 ± 12.5 over the 9th).
                let reduction = if self.style.lmr
                    && quiet
                    && depth >= 3
                    && n >= 3
                    && !self.is_killer(mv, ply)
                {
                    1 + (n >= 5 && depth >= 5) as i32
                } else {
                    0
                };
                let mut s = -self.search(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    child_run,
                );
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.search(
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        child_run,
                    );
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.search(&child, depth - 1, -beta, -alpha, ply + 1, true, child_run);
                }
                s
            };
            if let Some(busy) = busy {
                busy.clear(child.key());
            }
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(index);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.reward(mv, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();

        if self.style.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let entry = Entry {
                score: to_table(best, ply),
                depth,
                bound,
                move_index: best_index,
            };
            self.side_tt.unwrap_or(self.shared.tt).store(tt_key, entry);
        }
        best
    }

    /// ProbCut's test at a non-PV node: the score of a cut when a search to a fraction of
    /// `depth` proves the node worth beta plus a margin, less the margin (still at least
    /// beta); `None` otherwise, or when stopped.
    fn probcut(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        run: usize,
    ) -> Option<i32> {
        let margin = PROBCUT_MARGIN * depth;
        let raised = beta + margin;
        let shallow = (depth * PROBCUT_DEPTH_PERCENT / 100).max(1);
        self.in_probcut = true;
        let score = self.search(pos, shallow, raised - 1, raised, ply, false, run);
        self.in_probcut = false;
        (score >= raised && !self.stopped).then_some(score - margin)
    }

    /// The singularity test of `mv`, the table move at a PV node with a lower bound of
    /// `bound`: whether every other move, searched [`SINGULAR_DEPTH_CUT`] plies
    /// shallower, stays [`SINGULAR_MARGIN`] below it. Proven and database bounds are
    /// not tested.
    fn is_singular(
        &mut self,
        pos: &Position,
        mv: Move,
        bound: i32,
        depth: i32,
        ply: usize,
        run: usize,
    ) -> bool {
        if bound.abs() >= DB_BOUND {
            return false;
        }
        let below = bound - SINGULAR_MARGIN;
        self.excluded[ply] = mv;
        let score = self.search(
            pos,
            depth - SINGULAR_DEPTH_CUT,
            below - 1,
            below,
            ply,
            false,
            run,
        );
        self.excluded[ply] = Move::NONE;
        score < below && !self.stopped
    }

    /// Captures only (they are compulsory); stands pat only when no capture is pending.
    /// A quiet position where the opponent threatens a capture is not quiet enough for
    /// the static evaluation: once per line, every move there is searched instead.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        may_extend: bool,
        run: usize,
    ) -> i32 {
        self.count_node();
        self.enter(ply, pos);
        if self.stopped {
            return 0;
        }
        if self.is_move_limit_draw(pos, run) {
            return self.draw_score(ply);
        }
        if let Some(score) = self.probe_database(pos, ply, run) {
            return score;
        }
        // Most nodes here are quiet leaves: they are told apart without listing moves.
        let quiet = !has_capture(pos);
        if quiet && !has_quiet_move(pos) {
            return -(WIN - ply as i32);
        }
        if ply >= MAX_PLY
            || (quiet && !(may_extend && self.style.threats && opponent_threatens(pos)))
        {
            self.leaf_ply_sum += ply as u64;
            self.leaf_count += 1;
            return self.evaluate(pos, ply);
        }
        if !quiet && pos.house_rules().may_stand_pat() {
            return self.quiesce_optional(pos, alpha, beta, ply, run);
        }
        let mut moves = MoveList::new();
        generate_into(pos, &mut moves);
        let may_extend = may_extend && !quiet;
        let mut best = -INFINITY;
        for &mv in moves.iter() {
            let child_run = next_run(pos, mv, run);
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1, may_extend, child_run);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// [`Worker::quiesce`] where captures may be declined without loss (Damka's
    /// `no-compulsory-capture` house rule without huffing): the static evaluation is a
    /// floor (the side may stand pat) and only the captures are searched. Searching the
    /// quiet moves beside every capture instead never ends at any depth.
    #[inline(never)]
    fn quiesce_optional(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        run: usize,
    ) -> i32 {
        let mut best = self.evaluate(pos, ply);
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let mut moves = MoveList::new();
        generate_into(pos, &mut moves);
        for &mv in moves.iter().filter(|mv| mv.is_capture()) {
            let child_run = next_run(pos, mv, run);
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1, false, child_run);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score of a draw `ply` plies below the root: the root side's contempt.
    #[inline(always)]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Whether the move limit draws the node: `run` reached it and the side to move
    /// has a move (having none loses first, as in [`crate::game::Game::verdict`]).
    #[inline(always)]
    fn is_move_limit_draw(&self, pos: &Position, run: usize) -> bool {
        run >= self.shared.quiet_limit && !is_lost(pos)
    }

    /// Whether the move limit may fall within `depth` plies of a node `run` plies into
    /// a reversible run: table results from other paths to it may not hold here.
    #[inline(always)]
    fn near_move_limit(&self, run: usize, depth: i32) -> bool {
        run.saturating_add(depth.max(0) as usize) >= self.shared.quiet_limit
    }

    /// The exact score from the endgame databases, when they hold `pos` (they hold
    /// positions with a capture pending too, so no quiet-position condition is needed)
    /// and the move limit cannot change it (`run` reversible plies lead here).
    #[inline]
    fn probe_database(&mut self, pos: &Position, ply: usize, run: usize) -> Option<i32> {
        let db = self.shared.egdb?;
        if pos.occupied().count_ones() > db.max_pieces() {
            return None;
        }
        let outcome = db
            .probe(pos)
            .filter(|&o| within_limit(o, run, self.shared.quiet_limit))?;
        let score = match outcome {
            Outcome::Win(d) => DB_WIN - ply as i32 - d as i32,
            Outcome::Loss(d) => -(DB_WIN - ply as i32 - d as i32),
            Outcome::Draw => self.draw_score(ply),
        };
        self.leaf_ply_sum += ply as u64;
        self.leaf_count += 1;
        Some(score)
    }

    fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers[ply].contains(&mv)
    }

    fn reward(&mut self, mv: Move, ply: usize, depth: i32) {
        if !self.style.ordering {
            return;
        }
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let h = &mut self.history[mv.from().number() as usize][mv.to().number() as usize];
        *h += depth * depth;
        if *h > 1 << 20 {
            for row in self.history.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    /// Scores the moves of the node at `ply` for ordering, into that ply's buffer.
    fn order_moves(&mut self, moves: &MoveList, tt_move: Option<Move>, ply: usize) {
        for (i, &mv) in moves.iter().enumerate() {
            self.order[ply][i] = (self.order_score(mv, tt_move, ply), i as u8);
        }
    }

    fn order_score(&self, mv: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(mv) == tt_move {
            1 << 30
        } else if !self.style.ordering {
            0
        } else if mv.is_capture() {
            1 << 24
        } else if self.killers[ply][0] == mv {
            1 << 22
        } else if self.killers[ply][1] == mv {
            (1 << 22) - 1
        } else {
            self.history[mv.from().number() as usize][mv.to().number() as usize]
        }
    }

    /// Selection sort step at `ply`: the index (in the move list) of the best move not
    /// yet tried, which becomes the `n`-th.
    fn pick(&mut self, ply: usize, n: usize, len: usize) -> usize {
        let order = &mut self.order[ply][..len];
        let mut best = n;
        for j in n + 1..len {
            if order[j].0 > order[best].0 {
                best = j;
            }
        }
        order.swap(n, best);
        order[n].1 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::game::DrawRules;
    use crate::movegen::legal_moves;
    use crate::search::PatternWeights;
    use crate::search::eval::embedded_weights;
    use crate::search::eval::nnue::tests::random_network;
    use crate::search::options::EngineOptions;
    use crate::search::{Limits, SearchContext, SearchControl, Style};
    use std::sync::Arc;

    /// Plain alpha-beta (no table, no reductions, no ordering): its root value does not
    /// depend on the order of the moves. The positions in `busy` are marked as being
    /// searched by another thread, as if there were two.
    fn plain_value(text: &str, depth: i32, busy: &[u64]) -> i32 {
        let pos = Position::parse(text).unwrap();
        let (tt, control, weights) = (
            TranspositionTable::new(1),
            SearchControl::new(),
            embedded_weights(),
        );
        let options = EngineOptions {
            style: Style::BASELINE,
            threads: 2,
            ..EngineOptions::default()
        };
        let ctx = SearchContext {
            tt: &tt,
            control: &control,
            options: &options,
            rules: DrawRules::default(),
            weights: &weights,
        };
        let shared = Shared::new(&ctx, &Limits::depth(depth as u32));
        let marks = shared.busy.as_ref().unwrap();
        busy.iter().for_each(|&key| marks.mark(key));
        let mut worker = Worker::new(&shared, Style::BASELINE, &[]);
        let mut moves = legal_moves(&pos).to_vec();
        worker.root(&pos, &mut moves, depth, -INFINITY, INFINITY)
    }

    /// The keys of the positions two plies after `text`.
    fn grandchildren(text: &str) -> Vec<u64> {
        let pos = Position::parse(text).unwrap();
        let children = legal_moves(&pos)
            .iter()
            .map(|&mv| pos.play(mv))
            .collect::<Vec<_>>();
        children
            .iter()
            .flat_map(|child| {
                legal_moves(child)
                    .iter()
                    .map(|&mv| child.play(mv).key())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Runs `f` with a one-thread worker of `style` over a fresh table.
    fn with_worker<T>(style: Style, f: impl FnOnce(&mut Worker, &TranspositionTable) -> T) -> T {
        with_weights(style, &embedded_weights(), f)
    }

    /// Runs `f` with a one-thread worker of `style` and `weights` over a fresh table.
    fn with_weights<T>(
        style: Style,
        weights: &PatternWeights,
        f: impl FnOnce(&mut Worker, &TranspositionTable) -> T,
    ) -> T {
        let (tt, control) = (TranspositionTable::new(1), SearchControl::new());
        let options = EngineOptions {
            style,
            ..EngineOptions::default()
        };
        let ctx = SearchContext {
            tt: &tt,
            control: &control,
            options: &options,
            rules: DrawRules::default(),
            weights,
        };
        let shared = Shared::new(&ctx, &Limits::default());
        let mut worker = Worker::new(&shared, style, &[]);
        f(&mut worker, &tt)
    }

    #[test]
    fn a_network_searches_alike_with_accumulators_and_cache_and_from_scratch() {
        for (n, variant) in Variant::ALL.into_iter().enumerate() {
            let mut weights = PatternWeights::material_only_in(variant);
            weights.network = Some(Arc::new(random_network(40 + n as u64, variant)));
            for text in [
                "W:W21-32:B1-12",
                MIDDLEGAME,
                "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
            ] {
                let pos = Position::parse(text).unwrap().with_variant(variant);
                let search = |incremental: bool| {
                    with_weights(Style::FULL, &weights, |w, _| {
                        assert!(w.nnue.is_some());
                        if !incremental {
                            // Every evaluation from scratch, through `evaluate`.
                            w.nnue = None;
                        }
                        let score = w.search(&pos, 7, -INFINITY, INFINITY, 0, true, 0);
                        (score, w.nodes)
                    })
                };
                assert_eq!(search(true), search(false), "{variant} {text}");
            }
        }
    }

    #[test]
    fn the_pattern_styles_keep_no_accumulators() {
        with_worker(Style::FULL, |w, _| assert!(w.nnue.is_some()));
        with_worker(Style::PATTERNS, |w, _| assert!(w.nnue.is_none()));
        with_weights(Style::FULL, &PatternWeights::material_only(), |w, _| {
            assert!(w.nnue.is_none())
        });
        let mut weights = PatternWeights::material_only();
        weights.network = Some(Arc::new(random_network(1, Variant::Italian)));
        with_weights(Style::HCE, &weights, |w, _| assert!(w.nnue.is_none()));
    }

    const MIDDLEGAME: &str = "B:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3";

    #[test]
    fn a_search_without_one_move_is_the_best_of_the_others() {
        let pos = Position::start();
        let moves = legal_moves(&pos).to_vec();
        assert!(moves.len() > 2);
        for (i, &left_out) in moves.iter().enumerate() {
            let mut others = moves.clone();
            others.remove(i);
            // Plain alpha-beta: exact values whatever the order, so the two must agree.
            let without = with_worker(Style::BASELINE, |w, _| {
                w.excluded[0] = left_out;
                w.search(&pos, 4, -INFINITY, INFINITY, 0, true, 0)
            });
            let best_other = with_worker(Style::BASELINE, |w, _| {
                w.root(&pos, &mut others, 4, -INFINITY, INFINITY)
            });
            assert_eq!(without, best_other, "{left_out:?}");
        }
    }

    #[test]
    fn a_search_without_one_move_keeps_its_own_table_entry() {
        let pos = Position::parse(MIDDLEGAME).unwrap();
        let left_out = legal_moves(&pos)[0];
        with_worker(Style::FULL, |w, tt| {
            w.excluded[0] = left_out;
            w.search(&pos, 5, -INFINITY, INFINITY, 0, true, 0);
            assert!(
                tt.probe(pos.key()).is_none(),
                "the node's own entry is untouched"
            );
            w.excluded[0] = Move::NONE;
            w.search(&pos, 5, -INFINITY, INFINITY, 0, true, 0);
            assert!(tt.probe(pos.key()).is_some());
        });
    }

    #[test]
    fn probcut_cuts_only_far_above_beta() {
        let pos = Position::parse(MIDDLEGAME).unwrap();
        let value = with_worker(Style::FULL, |w, _| {
            w.search(&pos, 6, -INFINITY, INFINITY, 0, true, 0)
        });
        with_worker(Style::FULL, |w, _| {
            // Far below the node's value: cut, with a score still at least beta.
            let beta = value - 300;
            let cut = w.probcut(&pos, 6, beta, 0, 0);
            assert!(cut.is_some_and(|s| s >= beta), "{cut:?} for beta {beta}");
            // Above it: the shallow search cannot beat beta plus the margin.
            assert_eq!(w.probcut(&pos, 6, value + 100, 0, 0), None);
            assert!(!w.in_probcut);
        });
    }

    #[test]
    fn moves_put_off_are_searched_last_not_dropped() {
        for text in [
            "W:W21-32:B1-12",
            "B:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
            "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
        ] {
            // Every move but the first of each node one ply below the root is put off.
            let busy = grandchildren(text);
            assert_eq!(
                plain_value(text, 5, &busy),
                plain_value(text, 5, &[]),
                "{text}"
            );
        }
    }
}
