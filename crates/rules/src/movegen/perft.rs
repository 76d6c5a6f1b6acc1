//! Perft: the number of leaves of the legal move tree, the standard check of a move
//! generator against published counts.

use super::{MoveList, count, count_legal, fill, generate_into, legal_moves};
use crate::board::{Color, Move, Position, Variant};

/// Leaves of the legal move tree `depth` plies deep. With `paths`, every capture path
/// counts separately (the convention of the classic C generators); otherwise each
/// distinct move (from, to, captured set) counts once.
pub fn perft(pos: &Position, depth: u32, paths: bool) -> u64 {
    // The variant and the side are decided here once: the Italian tree then runs without
    // a dispatch at each node (it cost 3 % of perft's instructions).
    match (pos.variant(), pos.side_to_move()) {
        (Variant::Italian, Color::White) => perft_italian::<true>(pos, depth, paths),
        (Variant::Italian, Color::Black) => perft_italian::<false>(pos, depth, paths),
        _ => perft_any(pos, depth, paths),
    }
}

/// [`perft`] of an Italian position with `WHITE` to move.
fn perft_italian<const WHITE: bool>(pos: &Position, depth: u32, paths: bool) -> u64 {
    match depth {
        0 => 1,
        1 => count::<WHITE>(pos, paths),
        _ => {
            let mut list = MoveList::new();
            fill::<WHITE>(pos, &mut list);
            let mut total = 0;
            for (i, &mv) in list.iter().enumerate() {
                let weight = if paths { list.paths(i) as u64 } else { 1 };
                let child = pos.play_plain::<WHITE>(mv);
                total += weight
                    * if WHITE {
                        perft_italian::<false>(&child, depth - 1, paths)
                    } else {
                        perft_italian::<true>(&child, depth - 1, paths)
                    };
            }
            total
        }
    }
}

/// [`perft`] of a position of any variant, dispatching at each node.
fn perft_any(pos: &Position, depth: u32, paths: bool) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos, paths),
        _ => {
            let mut list = MoveList::new();
            generate_into(pos, &mut list);
            let mut total = 0;
            for (i, &mv) in list.iter().enumerate() {
                let weight = if paths { list.paths(i) as u64 } else { 1 };
                total += weight * perft_any(&pos.play(mv), depth - 1, paths);
            }
            total
        }
    }
}

/// Perft split by root move: each legal move with its leaf count (weighted by its number
/// of paths when `paths` is set).
pub fn divide(pos: &Position, depth: u32, paths: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let list = legal_moves(pos);
    list.iter()
        .enumerate()
        .map(|(i, &mv)| {
            let weight = if paths { list.paths(i) as u64 } else { 1 };
            (mv, weight * perft(&pos.play(mv), depth - 1, paths))
        })
        .collect()
}
