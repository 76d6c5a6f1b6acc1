//! Perft: the number of leaves of the legal move tree, the standard check of a move
//! generator against published counts.

use super::{MoveList, count, fill, legal_moves};
use crate::board::{Color, Game, Move, Position};

/// Leaves of the legal move tree `depth` plies deep. With `paths`, every capture path
/// counts separately (the convention of the classic C generators); otherwise each
/// distinct move (from, to, captured set) counts once.
pub fn perft(pos: &Position, depth: u32, paths: bool) -> u64 {
    // The game and the side are decided here once: the tree then runs without a dispatch
    // at each node (it cost 3 % of the Italian perft's instructions). Damka's house rules
    // take a plain recursion of their own.
    if pos.house_rules().changes_moves() {
        return super::house::perft(pos, depth, paths);
    }
    crate::with_game!(pos.variant(), G => match pos.side_to_move() {
        Color::White => perft_in::<G, true>(pos, depth, paths),
        Color::Black => perft_in::<G, false>(pos, depth, paths),
    })
}

/// [`perft`] of a position of game `G` with `WHITE` to move.
fn perft_in<G: Game, const WHITE: bool>(pos: &Position, depth: u32, paths: bool) -> u64 {
    match depth {
        0 => 1,
        1 => count::<G, WHITE>(pos, paths),
        _ => {
            let mut list = MoveList::new();
            fill::<G, WHITE>(pos, &mut list);
            let mut total = 0;
            for (i, &mv) in list.iter().enumerate() {
                let weight = if paths { list.paths(i) as u64 } else { 1 };
                let child = if G::CROWNS_IN_PASSING {
                    pos.play(mv)
                } else {
                    pos.play_plain::<WHITE>(mv)
                };
                total += weight
                    * if WHITE {
                        perft_in::<G, false>(&child, depth - 1, paths)
                    } else {
                        perft_in::<G, true>(&child, depth - 1, paths)
                    };
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
