//! Drop-out expansion (Lincke, 2000): the book grows one batch of leaves at a time, the
//! leaves of lowest expansion priority first.
//!
//! A leaf is a move of a book position whose position after it is not yet in the book.
//! Its priority, for a book side, is the cheapest path to it from a root, a path costing
//! per ply `ply_cost` plus, at the book side's positions, `gap_weight` times the move's
//! value gap to the position's best move. At the book side's positions only moves within
//! `margin` of the best are followed (a book plays only good moves); at the other side's,
//! every move (the opponent may play anything). A leaf's priority is the lower of its two
//! sides'. Expanding a leaf searches every move of its position to a fixed depth (the
//! position after each move, with the engine and its databases), adds the position to the
//! book, and the values are minimaxed back through transpositions.
//!
//! The leaves of a round are expanded in parallel threads, one search a thread at a time,
//! each search on a cleared table: the book is the same bytes whatever the thread count.
//! With `--shard K/N` the positions up to `split_plies` plies from the roots (the trunk)
//! are expanded by every slice, the positions at `split_plies` plies are dealt out in
//! slices of their sorted keys, and a slice grows only below its own.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::tree::{PROVEN, Tree};
use crate::board::{Color, Move, Position};
use crate::book::key::book_key;
use crate::clock::Limits;
use crate::engine::{EngineOptions, Thinker};
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::shard::Shard;

/// Which sides the book is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Both: a leaf's priority is the lower of its two sides'.
    Both,
    /// Only this side's good moves are narrowed; the other side's moves are all followed.
    One(Color),
}

/// How a book is grown.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Depth of every leaf search.
    pub depth: u32,
    /// Stop when the book holds this many positions (or more: at the end of the round
    /// that reaches it, a multiple of `batch`).
    pub positions: usize,
    /// Leaf searches run at once.
    pub threads: usize,
    /// Leaves expanded per round (fixed, so the book does not depend on `threads`).
    pub batch: usize,
    /// Priority cost of a ply, hundredths of a man.
    pub ply_cost: i32,
    /// Priority cost of a hundredth of a man of value gap at the book side's positions.
    pub gap_weight: i32,
    /// At the book side's positions only moves this close to the best are followed.
    pub margin: i32,
    /// The book's sides.
    pub sides: Sides,
    /// No position deeper than this many plies from a root is expanded.
    pub max_plies: usize,
    /// This run's slice.
    pub shard: Shard,
    /// Depth of the trunk every slice expands (with more than one slice).
    pub split_plies: usize,
    /// The engine of the leaf searches (its `threads` is set to 1 a search).
    pub engine: EngineOptions,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            depth: 10,
            positions: 1000,
            threads: 1,
            batch: 8,
            ply_cost: 10,
            gap_weight: 1,
            margin: 30,
            sides: Sides::Both,
            max_plies: 40,
            shard: Shard::WHOLE,
            split_plies: 2,
            engine: EngineOptions {
                tt_mib: 16,
                ..EngineOptions::default()
            },
        }
    }
}

/// What a build did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Positions in the book at the end.
    pub positions: usize,
    /// Positions this run expanded.
    pub expanded: usize,
    /// Leaf searches this run made.
    pub searches: u64,
    /// Nodes those searches visited.
    pub nodes: u64,
    /// Rounds this run made.
    pub rounds: usize,
}

/// Grows `tree` to `options.positions` positions (or until no leaf is left), calling
/// `save` after every round (a run stopped at any moment loses at most one round) and
/// `progress` with the report so far.
pub fn build(
    tree: &mut Tree,
    options: &BuildOptions,
    mut save: impl FnMut(&Tree) -> Result<(), String>,
    mut progress: impl FnMut(&BuildReport),
) -> Result<BuildReport, String> {
    let engine = EngineOptions {
        threads: 1,
        ..options.engine.clone()
    };
    let thinkers: Vec<Thinker> = (0..options.threads.max(1))
        .map(|_| Thinker::new(engine.clone()))
        .collect::<Result<_, _>>()?;
    let mut report = BuildReport {
        positions: tree.nodes.len(),
        ..BuildReport::default()
    };
    let mut cache = searched(tree);

    // The trunk, and this slice's own positions, when the run is sliced.
    let mut region: Option<HashSet<u64>> = None;
    if options.shard.count > 1 {
        let mut level = roots(tree);
        for ply in 0..=options.split_plies {
            let mut next: Vec<(Position, usize)> = Vec::new();
            let mut todo = level.clone();
            if ply == options.split_plies {
                todo.sort_by_key(|(p, _)| book_key(p));
                todo.dedup_by_key(|(p, _)| book_key(p));
                let range = options.shard.range(todo.len() as u64);
                todo = todo
                    .get(range.start as usize..range.end as usize)
                    .unwrap_or(&[])
                    .to_vec();
                region = Some(todo.iter().map(|(p, _)| book_key(p)).collect());
            }
            let missing: Vec<(Position, usize)> = todo
                .iter()
                .filter(|(p, _)| !tree.nodes.contains_key(&book_key(p)))
                .filter(|(p, _)| !legal_moves(p).is_empty())
                .copied()
                .collect();
            expand(tree, &missing, options, &thinkers, &mut cache, &mut report);
            for (p, _) in &level {
                if let Some(node) = tree.nodes.get(&book_key(p)) {
                    next.extend(node.edges.iter().map(|e| (p.play(e.mv), ply + 1)));
                }
            }
            let mut seen = HashSet::new();
            next.retain(|(p, _)| seen.insert(book_key(p)));
            level = next;
        }
        tree.minimax();
        save(tree)?;
        progress(&report);
    }

    while tree.nodes.len() < options.positions {
        let grow_from = region.as_ref().map(|own| reachable(tree, own));
        // Rounds end at multiples of the batch (the last one too, past `positions` if
        // need be), so that a build stopped and resumed makes the rounds of a build
        // never stopped, and the same book.
        let batch = options.batch.max(1);
        let size = batch - tree.nodes.len() % batch;
        let leaves = select(tree, options, grow_from.as_ref(), size);
        if leaves.is_empty() {
            break;
        }
        expand(tree, &leaves, options, &thinkers, &mut cache, &mut report);
        tree.minimax();
        report.rounds += 1;
        save(tree)?;
        progress(&report);
    }
    report.positions = tree.nodes.len();
    Ok(report)
}

/// The searches the book already holds: each move's own search, by the key of the
/// position after it, from the side that played it.
fn searched(tree: &Tree) -> HashMap<u64, (i32, u8)> {
    let mut cache = HashMap::new();
    for node in tree.nodes.values() {
        for edge in &node.edges {
            if let Some(s) = edge.search {
                cache.insert(edge.child, s);
            }
        }
    }
    cache
}

/// The roots, at ply 0.
fn roots(tree: &Tree) -> Vec<(Position, usize)> {
    tree.root_positions.iter().map(|p| (*p, 0)).collect()
}

/// The expanded positions reachable from `from` through expanded positions.
fn reachable(tree: &Tree, from: &HashSet<u64>) -> HashSet<u64> {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack: Vec<u64> = from.iter().copied().collect();
    while let Some(key) = stack.pop() {
        if !seen.insert(key) {
            continue;
        }
        if let Some(node) = tree.nodes.get(&key) {
            stack.extend(node.edges.iter().map(|e| e.child));
        }
    }
    seen
}

/// The `count` leaves of lowest priority (ties by key), as positions with their ply;
/// with `grow_from`, only leaves of its positions.
fn select(
    tree: &Tree,
    options: &BuildOptions,
    grow_from: Option<&HashSet<u64>>,
    count: usize,
) -> Vec<(Position, usize)> {
    let sides: &[Color] = match options.sides {
        Sides::Both => &[Color::White, Color::Black],
        Sides::One(Color::White) => &[Color::White],
        Sides::One(Color::Black) => &[Color::Black],
    };
    // Leaf key → (priority, position, ply).
    let mut leaves: HashMap<u64, (i64, Position, usize)> = HashMap::new();
    let mut offer = |key: u64, priority: i64, position: Position, ply: usize| {
        let better = leaves.get(&key).is_none_or(|(p, _, _)| priority < *p);
        if better && !legal_moves(&position).is_empty() {
            leaves.insert(key, (priority, position, ply));
        }
    };
    for &root in &tree.root_positions {
        let key = book_key(&root);
        if !tree.nodes.contains_key(&key) && grow_from.is_none() {
            offer(key, 0, root, 0);
        }
    }
    for &side in sides {
        let mut best: HashMap<u64, i64> = HashMap::new();
        let mut heap = BinaryHeap::new();
        for &key in &tree.roots {
            if tree.nodes.contains_key(&key) {
                best.insert(key, 0);
                heap.push(Reverse((0i64, key)));
            }
        }
        while let Some(Reverse((priority, key))) = heap.pop() {
            if best.get(&key).is_some_and(|&b| b < priority) {
                continue;
            }
            let Some(node) = tree.nodes.get(&key) else {
                continue;
            };
            let top = node.edges.iter().map(|e| e.value).max().unwrap_or(0);
            let ours = node.position.side_to_move() == side;
            for edge in &node.edges {
                let gap = i64::from(top - edge.value);
                if ours && gap > i64::from(options.margin) {
                    continue;
                }
                let cost = i64::from(options.ply_cost)
                    + if ours {
                        i64::from(options.gap_weight) * gap
                    } else {
                        0
                    };
                let next = priority + cost.max(1);
                if tree.nodes.contains_key(&edge.child) {
                    if best.get(&edge.child).is_none_or(|&b| next < b) {
                        best.insert(edge.child, next);
                        heap.push(Reverse((next, edge.child)));
                    }
                } else if node.ply < options.max_plies
                    && edge.value.abs() <= PROVEN
                    && grow_from.is_none_or(|own| own.contains(&key))
                {
                    offer(edge.child, next, node.position.play(edge.mv), node.ply + 1);
                }
            }
        }
    }
    let mut chosen: Vec<(i64, u64, Position, usize)> = leaves
        .into_iter()
        .map(|(key, (p, pos, ply))| (p, key, pos, ply))
        .collect();
    chosen.sort_by_key(|&(p, key, _, _)| (p, key));
    chosen
        .into_iter()
        .take(count)
        .map(|(_, _, pos, ply)| (pos, ply))
        .collect()
}

/// Expands `leaves`: searches every move of each (the searches not already made, in
/// parallel) and adds them to the tree.
fn expand(
    tree: &mut Tree,
    leaves: &[(Position, usize)],
    options: &BuildOptions,
    thinkers: &[Thinker],
    cache: &mut HashMap<u64, (i32, u8)>,
    report: &mut BuildReport,
) {
    let mut jobs: Vec<(u64, Position)> = Vec::new();
    let mut queued = HashSet::new();
    for (position, _) in leaves {
        for mv in Tree::moves_of(position) {
            let next = position.play(mv);
            let key = book_key(&next);
            if !cache.contains_key(&key) && queued.insert(key) {
                jobs.push((key, next));
            }
        }
    }
    let results = search_all(&jobs, options.depth, thinkers);
    for ((key, _), (score, depth, nodes, _)) in jobs.iter().zip(results) {
        cache.insert(*key, (super::tree::back_up(score), depth));
        report.searches += 1;
        report.nodes += nodes;
    }
    for &(position, ply) in leaves {
        let searches: Vec<(Move, i32, u8)> = Tree::moves_of(&position)
            .into_iter()
            .map(|mv| {
                let (value, depth) = cache
                    .get(&book_key(&position.play(mv)))
                    .copied()
                    .unwrap_or((0, 0));
                (mv, value, depth)
            })
            .collect();
        tree.expand(position, ply, &searches);
        report.expanded += 1;
    }
}

/// A search's score, depth, nodes and best move.
pub(crate) type Searched = (i32, u8, u64, Option<Move>);

/// Searches every job's position to `depth`, spread over the thinkers' threads; each
/// search starts on a cleared table. Returns (score, depth, nodes, best move) in job
/// order.
pub(crate) fn search_all(
    jobs: &[(u64, Position)],
    depth: u32,
    thinkers: &[Thinker],
) -> Vec<Searched> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Searched>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for thinker in thinkers {
            let (next, results) = (&next, &results);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((_, position)) = jobs.get(i) else {
                        break;
                    };
                    thinker.new_game();
                    let r = thinker.think(&Game::new(*position), &Limits::depth(depth), |_| {});
                    let found = (r.score, r.depth.min(255) as u8, r.nodes, r.best);
                    if let Ok(mut all) = results.lock()
                        && let Some(slot) = all.get_mut(i)
                    {
                        *slot = Some(found);
                    }
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|r| r.unwrap_or((0, 0, 0, None)))
        .collect()
}
