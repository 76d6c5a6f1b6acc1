//! Quiet moves (Art. 4): men one step diagonally forward, kings one step in any direction.

use super::forward;
use super::list::MoveList;
use crate::board::bitboard::{ALL_DIRECTIONS, bits, step};
use crate::board::{Move, Position};

/// Appends every quiet move of the side to move.
#[inline(always)]
pub(crate) fn generate<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    for d in forward::<WHITE>() {
        push_steps(step(empty, -d) & pos.men(us), d, list);
    }
    let kings = pos.kings(us);
    if kings != 0 {
        for d in ALL_DIRECTIONS {
            push_steps(step(empty, -d) & kings, d, list);
        }
    }
}

#[inline(always)]
fn push_steps(sources: u64, d: i32, list: &mut MoveList) {
    for from in bits(sources) {
        list.push(Move::from_bits(from, (from as i32 + d) as u32, 0));
    }
}

/// Number of quiet moves of the side to move, without listing them.
#[inline(always)]
pub(crate) fn count<const WHITE: bool>(pos: &Position) -> u64 {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    let men = pos.men(us);
    let mut n = 0;
    for d in forward::<WHITE>() {
        n += (step(men, d) & empty).count_ones();
    }
    let kings = pos.kings(us);
    if kings != 0 {
        for d in ALL_DIRECTIONS {
            n += (step(kings, d) & empty).count_ones();
        }
    }
    n as u64
}
