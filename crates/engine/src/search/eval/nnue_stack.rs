//! The network's accumulators along the search path, one entry per ply.
//!
//! The search is copy-make: a node knows its position, not the move that led to it. So
//! each node records its pieces on entry ([`AccumulatorStack::enter`]), and only an
//! evaluation computes accumulators ([`AccumulatorStack::evaluate`]): from the nearest
//! ply above whose accumulators are computed, by the difference of the two positions'
//! pieces (rows taken off and added per changed piece), or from scratch when no such
//! ply is near or the difference is larger than the position.

use super::nnue::{Accumulator, HIDDEN, Network, PieceSets, piece_count, piece_sets};
use crate::board::Position;

/// How many plies up an evaluation looks for computed accumulators.
const LOOK_BACK: usize = 8;

#[derive(Clone, Copy)]
struct Entry {
    /// The pieces of the node at this ply.
    sets: PieceSets,
    /// Whether `acc` holds the accumulators of `sets`.
    computed: bool,
    acc: Accumulator,
}

/// Accumulators per ply of one search thread.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// Accumulators computed by an update (the rest were refreshes).
    #[cfg(test)]
    updates: usize,
}

impl AccumulatorStack {
    /// A stack for plies `0..=max_ply`, nothing computed.
    pub fn new(max_ply: usize) -> AccumulatorStack {
        let empty = Entry {
            sets: [0; 4],
            computed: false,
            acc: Accumulator([[0; HIDDEN]; 2]),
        };
        AccumulatorStack {
            entries: vec![empty; max_ply + 1],
            #[cfg(test)]
            updates: 0,
        }
    }

    /// Records that the node at `ply` is `pos` (its accumulators are kept when they
    /// are already those of `pos`: a node searched again at its own ply).
    #[inline]
    pub fn enter(&mut self, ply: usize, pos: &Position) {
        if let Some(e) = self.entries.get_mut(ply) {
            let sets = piece_sets(pos);
            if e.sets != sets {
                e.sets = sets;
                e.computed = false;
            }
        }
    }

    /// The score of `pos`, the node at `ply`, for the side to move; computes its
    /// accumulators if they are not yet.
    pub fn evaluate(&mut self, net: &Network, ply: usize, pos: &Position) -> i32 {
        let sets = piece_sets(pos);
        if ply >= self.entries.len() {
            return net.evaluate(pos);
        }
        let (above, here) = self.entries.split_at_mut(ply);
        let entry = &mut here[0];
        if !(entry.computed && entry.sets == sets) {
            let pieces = piece_count(&sets);
            let source = above
                .iter()
                .rev()
                .take(LOOK_BACK)
                .find(|e| e.computed)
                .filter(|e| changes(&e.sets, &sets) <= pieces);
            entry.acc = match source {
                Some(e) => {
                    #[cfg(test)]
                    {
                        self.updates += 1;
                    }
                    let mut acc = e.acc;
                    net.update(&mut acc, &e.sets, &sets);
                    acc
                }
                None => net.refresh(&sets),
            };
            entry.sets = sets;
            entry.computed = true;
        }
        net.output(&entry.acc, pos.side_to_move(), piece_count(&sets))
    }
}

/// Pieces that differ between two positions (each costs a row per view).
fn changes(a: &PieceSets, b: &PieceSets) -> u32 {
    a.iter()
        .zip(b.iter())
        .map(|(x, y)| (x ^ y).count_ones())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::movegen::legal_moves;
    use crate::rng::Rng;
    use crate::search::eval::nnue::tests::random_network;

    /// Random games in every variant, entered ply by ply as the search does, with
    /// evaluations at random plies and random returns up the path: every evaluation
    /// equals the network's from scratch.
    #[test]
    fn incremental_evaluations_equal_refreshes_along_random_games() {
        let mut rng = Rng::new(11);
        for (n, variant) in Variant::ALL.into_iter().enumerate() {
            let net = random_network(n as u64 + 20, variant);
            let mut stack = AccumulatorStack::new(64);
            let mut checked = 0;
            for _ in 0..40 {
                let mut path = vec![Position::start_of(variant)];
                stack.enter(0, &path[0]);
                for _ in 0..200 {
                    let pos = *path.last().unwrap_or(&path[0]);
                    let ply = path.len() - 1;
                    if rng.below(3) == 0 {
                        assert_eq!(stack.evaluate(&net, ply, &pos), net.evaluate(&pos));
                        checked += 1;
                    }
                    let moves = legal_moves(&pos);
                    if moves.is_empty() || ply >= 63 {
                        break;
                    }
                    if ply > 0 && rng.below(4) == 0 {
                        // Back up some plies and take another line, as the search does.
                        let back = 1 + rng.below(ply.min(5) as u64) as usize;
                        path.truncate(path.len() - back);
                        continue;
                    }
                    let child = pos.play(moves[rng.below(moves.len() as u64) as usize]);
                    stack.enter(ply + 1, &child);
                    path.push(child);
                }
            }
            assert!(checked > 1000, "{variant}: {checked}");
            assert!(stack.updates > checked / 2, "{variant}: {}", stack.updates);
        }
    }

    #[test]
    fn plies_beyond_the_stack_are_evaluated_from_scratch() {
        let net = random_network(9, Variant::Italian);
        let mut stack = AccumulatorStack::new(2);
        let pos = Position::start();
        stack.enter(5, &pos);
        assert_eq!(stack.evaluate(&net, 5, &pos), net.evaluate(&pos));
    }
}
