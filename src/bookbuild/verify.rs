//! A book checked against fresh searches: every move the engine may play from the book
//! (within a margin of the position's best book move) searched again, deeper, and
//! compared with the best of every move of its position searched the same way.

use super::dropout::search_all;
use super::tree::{Tree, back_up};
use crate::board::{Move, Position};
use crate::engine::{EngineOptions, Thinker};

/// A book move a fresh search finds more than the margin below the best.
#[derive(Clone, Debug, PartialEq)]
pub struct Exception {
    /// The position.
    pub position: Position,
    /// The book move.
    pub mv: Move,
    /// Its book value.
    pub book: i32,
    /// Its fresh value (the position after it searched, backed up).
    pub fresh: i32,
    /// The fresh search of the position: its best move and value.
    pub best: (Option<Move>, i32),
}

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verified {
    /// Book positions checked.
    pub positions: usize,
    /// Book moves checked.
    pub moves: usize,
    /// Searches made.
    pub searches: u64,
    /// Their nodes.
    pub nodes: u64,
    /// The moves outside the margin.
    pub exceptions: Vec<Exception>,
    /// Every fresh search: the book key of a position checked, a move, its fresh value
    /// (side to move there) and depth ([`refresh`] writes them into the book).
    pub fresh: Vec<(u64, Move, i32, u8)>,
}

/// `tree` with the fresh searches of a check as its moves' own searches, values
/// minimaxed again: a book deepened where it was checked.
pub fn refresh(tree: &mut Tree, verified: &Verified) {
    for &(key, mv, value, depth) in &verified.fresh {
        if let Some(edge) = tree
            .nodes
            .get_mut(&key)
            .and_then(|n| n.edges.iter_mut().find(|e| e.mv == mv))
        {
            edge.search = Some((value, depth));
        }
    }
    tree.minimax();
}

/// Checks every book move of `tree` within `margin` of its position's best book value:
/// the positions after every move of its position searched to `depth`, the move an
/// exception when its fresh value is more than `margin` below the best fresh value. Only
/// positions at most `max_ply` plies from a root are checked.
pub fn verify(
    tree: &Tree,
    depth: u32,
    margin: i32,
    threads: usize,
    engine: &EngineOptions,
    max_ply: usize,
) -> Result<Verified, String> {
    let engine = EngineOptions {
        threads: 1,
        ..engine.clone()
    };
    let thinkers: Vec<Thinker> = (0..threads.max(1))
        .map(|_| Thinker::new(engine.clone()))
        .collect::<Result<_, _>>()?;
    let mut keys: Vec<&u64> = tree.nodes.keys().collect();
    keys.sort();
    let mut checked: Vec<(Position, Vec<(Move, i32)>)> = Vec::new();
    for key in keys {
        let Some(node) = tree.nodes.get(key).filter(|n| n.ply <= max_ply) else {
            continue;
        };
        let top = node.edges.iter().map(|e| e.value).max().unwrap_or(0);
        let played: Vec<(Move, i32)> = node
            .edges
            .iter()
            .filter(|e| e.search.is_some() && top - e.value <= margin)
            .map(|e| (e.mv, e.value))
            .collect();
        if !played.is_empty() {
            checked.push((node.position, played));
        }
    }
    let mut verified = Verified::default();
    // Every move of each position, its position after searched to `depth`.
    let all: Vec<(Position, Vec<Move>)> = checked
        .iter()
        .map(|(p, _)| (*p, Tree::moves_of(p)))
        .collect();
    let jobs: Vec<(u64, Position)> = all
        .iter()
        .flat_map(|(p, moves)| moves.iter().map(|&m| (0, p.play(m))))
        .collect();
    let results = search_all(&jobs, depth, &thinkers);
    verified.searches = jobs.len() as u64;
    verified.nodes = results.iter().map(|r| r.2).sum();
    let mut results = results.into_iter();
    for ((position, played), (_, moves)) in checked.iter().zip(&all) {
        verified.positions += 1;
        let fresh: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| (m, results.next().map_or(0, |r| back_up(r.0))))
            .collect();
        let key = crate::book::key::book_key(position);
        let searched = u8::try_from(depth).unwrap_or(u8::MAX);
        verified
            .fresh
            .extend(fresh.iter().map(|&(m, v)| (key, m, v, searched)));
        let Some(&(best_move, best)) = fresh.iter().max_by_key(|(_, v)| *v) else {
            continue;
        };
        for &(mv, book) in played {
            verified.moves += 1;
            let value = fresh.iter().find(|(m, _)| *m == mv).map_or(0, |f| f.1);
            if best - value > margin {
                verified.exceptions.push(Exception {
                    position: *position,
                    mv,
                    book,
                    fresh: value,
                    best: (Some(best_move), best),
                });
            }
        }
    }
    Ok(verified)
}
