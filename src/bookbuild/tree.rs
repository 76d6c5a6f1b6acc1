//! The book as a graph of positions: expanded positions (those with entries) and their
//! moves, each leading to another book position or to a leaf the book knows only by its
//! search. Loaded from entries by walking from the roots, minimaxed through
//! transpositions, and written back as entries.

use std::collections::{HashMap, HashSet};

use crate::board::{Move, Position, Variant};
use crate::book::key::book_key;
use crate::book::{Book, Entry, FLAG_VALUE, encode};
use crate::movegen::legal_moves;

/// Scores above this are proven results (the engine's convention: a win in `n` plies is
/// `10000 - n`, a database win `9500 - n`; heuristic scores stay below 9000).
pub const PROVEN: i32 = 9_000;

/// One move of an expanded position.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The move.
    pub mv: Move,
    /// The book key of the position after it.
    pub child: u64,
    /// The move's own search: the position after it searched, negated (side to move
    /// here); `None` when never searched (an imported move).
    pub search: Option<(i32, u8)>,
    /// Games that played it, won and lost by the side that played it.
    pub games: (u32, u32, u32),
    /// The minimaxed value (side to move here), set by [`Tree::minimax`].
    pub value: i32,
}

/// An expanded position.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The position.
    pub position: Position,
    /// Fewest plies from a root.
    pub ply: usize,
    /// Its moves (all legal moves, for a built position).
    pub edges: Vec<Edge>,
}

/// The book being built.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The game.
    pub game: Variant,
    /// The roots.
    pub root_positions: Vec<Position>,
    /// The roots' keys.
    pub roots: Vec<u64>,
    /// Expanded positions by book key.
    pub nodes: HashMap<u64, Node>,
    /// Entries of positions the roots do not reach, kept as they were.
    pub unreached: Vec<Entry>,
}

/// A backed-up value one ply up: negated, a proven result one ply further away.
pub fn back_up(value: i32) -> i32 {
    if value > PROVEN {
        -(value - 1)
    } else if value < -PROVEN {
        -(value + 1)
    } else {
        -value
    }
}

/// How deep a value reaches, in plies from its position: what a move's own search is
/// weighed against. A search to depth d of the position after a move reaches d + 1 plies
/// from the position before it; a minimaxed value reaches as far as its least searched
/// move. A proven result or a repetition is exact; a position with no searched move
/// gives its value no support, and a move into it keeps that value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Support {
    /// No search below.
    Unsearched,
    /// Plies from the position.
    Plies(u32),
    /// Proven, or a repetition.
    Exact,
}

/// A move's value and its support from the position before it: `search` is its own
/// search (value, depth), `below` the backed-up value and support of the position after
/// it when that position is expanded (or a repetition). The value below is taken unless
/// the move's own search reaches deeper than it (a move searched again, deeper, after
/// the leaves under it: `book verify --refresh`).
pub fn edge_value(search: Option<(i32, u8)>, below: Option<(i32, Support)>) -> (i32, Support) {
    let own = search.map(|(value, depth)| {
        let support = if value.abs() > PROVEN {
            Support::Exact
        } else {
            Support::Plies(u32::from(depth) + 1)
        };
        (value, support)
    });
    // The position after the move reaches one ply further from the one before it.
    let below = below.map(|(value, support)| match support {
        _ if value.abs() > PROVEN => (value, Support::Exact),
        Support::Plies(p) => (value, Support::Plies(p.saturating_add(1))),
        other => (value, other),
    });
    match (own, below) {
        (None, None) => (0, Support::Unsearched),
        (Some(own), None) => own,
        (None, Some(below)) => below,
        (Some(own), Some(below)) => match below.1 {
            Support::Plies(p) if below.0.abs() <= PROVEN && own.1 > Support::Plies(p) => own,
            _ => below,
        },
    }
}

impl Tree {
    /// An empty book of `game` over `roots` (positions of that game).
    pub fn new(game: Variant, roots: &[Position]) -> Tree {
        let mut seen = HashSet::new();
        let root_positions: Vec<Position> = roots
            .iter()
            .copied()
            .filter(|p| seen.insert(book_key(p)))
            .collect();
        Tree {
            game,
            roots: root_positions.iter().map(book_key).collect(),
            root_positions,
            nodes: HashMap::new(),
            unreached: Vec::new(),
        }
    }

    /// The tree of `book`'s entries reached from `roots`: each position with entries is
    /// expanded, its entries' moves checked legal ([`Book::probe`]); the entries the roots
    /// do not reach are kept aside, unchanged.
    pub fn load(book: &Book, roots: &[Position]) -> Tree {
        let mut tree = Tree::new(book.game(), roots);
        let mut queue: Vec<(Position, usize)> = roots.iter().map(|p| (*p, 0)).collect();
        let mut reached: HashSet<u64> = HashSet::new();
        let mut head = 0;
        while let Some(&(position, ply)) = queue.get(head) {
            head += 1;
            let key = book_key(&position);
            if !reached.insert(key) {
                continue;
            }
            let moves = book.probe(&position);
            if moves.is_empty() {
                continue;
            }
            let edges = moves
                .iter()
                .map(|m| {
                    let e = m.entry;
                    let next = position.play(m.mv);
                    queue.push((next, ply + 1));
                    Edge {
                        mv: m.mv,
                        child: book_key(&next),
                        search: e.has_value().then_some((i32::from(e.search), e.depth)),
                        games: (e.count, e.wins, e.losses),
                        value: i32::from(e.value),
                    }
                })
                .collect();
            tree.nodes.insert(
                key,
                Node {
                    position,
                    ply,
                    edges,
                },
            );
        }
        tree.unreached = book
            .entries()
            .iter()
            .filter(|e| !reached.contains(&e.key))
            .copied()
            .collect();
        tree.minimax();
        tree
    }

    /// Adds an expanded position with the searches of its moves: each move, the value
    /// of its search for the side to move in `position` (the search of the position
    /// after it, backed up) and its depth.
    pub fn expand(&mut self, position: Position, ply: usize, searches: &[(Move, i32, u8)]) {
        let edges = searches
            .iter()
            .map(|&(mv, value, depth)| Edge {
                mv,
                child: book_key(&position.play(mv)),
                search: Some((value, depth)),
                games: (0, 0, 0),
                value,
            })
            .collect();
        self.nodes.insert(
            book_key(&position),
            Node {
                position,
                ply,
                edges,
            },
        );
    }

    /// Sets every edge's value: a move to an expanded position takes that position's
    /// value backed up, unless the move's own search is deeper than what the leaves below
    /// support (a refreshed move: [`Support`]); a move to a leaf its own search (an
    /// imported move without one, 0); a move back to a position on the current line (a
    /// repetition) is a draw.
    pub fn minimax(&mut self) {
        let mut values: HashMap<u64, (i32, Support)> = HashMap::with_capacity(self.nodes.len());
        let mut on_line: HashSet<u64> = HashSet::new();
        let roots = self.roots.clone();
        for root in roots {
            self.value_of(root, &mut values, &mut on_line);
        }
        // Positions no root reaches (after a merge of slices from other roots) too, in
        // key order (with repetitions, values depend on the order).
        let mut keys: Vec<u64> = self.nodes.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            self.value_of(key, &mut values, &mut on_line);
        }
    }

    fn value_of(
        &mut self,
        key: u64,
        values: &mut HashMap<u64, (i32, Support)>,
        on_line: &mut HashSet<u64>,
    ) -> Option<(i32, Support)> {
        if let Some(&v) = values.get(&key) {
            return Some(v);
        }
        let children: Vec<u64> = self
            .nodes
            .get(&key)?
            .edges
            .iter()
            .map(|e| e.child)
            .collect();
        on_line.insert(key);
        let mut below = Vec::with_capacity(children.len());
        for child in children {
            let v = if on_line.contains(&child) {
                Some((0, Support::Exact))
            } else {
                self.value_of(child, values, on_line)
                    .map(|(v, support)| (back_up(v), support))
            };
            below.push(v);
        }
        on_line.remove(&key);
        let node = self.nodes.get_mut(&key)?;
        let mut support = Support::Exact;
        for (edge, v) in node.edges.iter_mut().zip(below) {
            let (value, edge_support) = edge_value(edge.search, v);
            edge.value = value;
            support = support.min(edge_support);
        }
        let best = node.edges.iter().map(|e| e.value).max().unwrap_or(0);
        if best.abs() > PROVEN {
            support = Support::Exact;
        }
        values.insert(key, (best, support));
        Some((best, support))
    }

    /// The book's entries (the unreached ones included), sorted.
    pub fn to_book(&self) -> Book {
        let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let mut entries = self.unreached.clone();
        for (&key, node) in &self.nodes {
            for edge in &node.edges {
                let (from, to, captured, crowns) = encode(self.game, edge.mv);
                let (flags, value, search, depth) = match edge.search {
                    Some((s, d)) => (crowns | FLAG_VALUE, clamp(edge.value), clamp(s), d),
                    None => (crowns, 0, 0, 0),
                };
                entries.push(Entry {
                    key,
                    from,
                    to,
                    captured,
                    flags,
                    depth,
                    value,
                    search,
                    count: edge.games.0,
                    wins: edge.games.1,
                    losses: edge.games.2,
                });
            }
        }
        Book::new(self.game, entries)
    }

    /// Every legal move of `position` (what a built position's edges hold).
    pub fn moves_of(position: &Position) -> Vec<Move> {
        legal_moves(position).as_slice().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_searched_deeper_than_its_leaves_keeps_its_own_search() {
        // The position after the move has its moves searched to 16 (support 17 there, 18
        // from here); the move's own search to 20 reaches 21 plies: it is taken.
        let below = Some((30, Support::Plies(17)));
        assert_eq!(
            edge_value(Some((-10, 20)), below),
            (-10, Support::Plies(21))
        );
        // As deep as the leaves or shallower (a built book): the minimaxed value.
        assert_eq!(edge_value(Some((-10, 17)), below), (30, Support::Plies(18)));
        assert_eq!(edge_value(Some((-10, 16)), below), (30, Support::Plies(18)));
        // A leaf: its own search; an imported move without one: 0, unsearched.
        assert_eq!(edge_value(Some((5, 16)), None), (5, Support::Plies(17)));
        assert_eq!(edge_value(None, None), (0, Support::Unsearched));
        assert_eq!(edge_value(None, below), (30, Support::Plies(18)));
        // A proven value below, a repetition, or nothing searched below: the value below.
        let proven = Some((9_990, Support::Plies(3)));
        assert_eq!(edge_value(Some((-10, 20)), proven), (9_990, Support::Exact));
        let repetition = Some((0, Support::Exact));
        assert_eq!(edge_value(Some((-10, 20)), repetition), (0, Support::Exact));
        let unsearched = Some((0, Support::Unsearched));
        assert_eq!(
            edge_value(Some((-10, 20)), unsearched),
            (0, Support::Unsearched)
        );
        // A proven own search beats a heuristic value below.
        assert_eq!(
            edge_value(Some((-10, 20)), Some((9_990, Support::Exact))).0,
            9_990
        );
        assert_eq!(edge_value(Some((9_980, 4)), below), (9_980, Support::Exact));
    }
}
