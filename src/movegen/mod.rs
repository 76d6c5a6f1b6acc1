//! Legal move generation by the FID rules (Art. 4–6) and perft.
//!
//! ```
//! use damiera::board::Position;
//! use damiera::movegen::legal_moves;
//! let moves = legal_moves(&Position::start());
//! assert_eq!(moves.len(), 7);
//! ```

mod capture;
mod list;
pub mod notation;
mod perft;
mod quiet;

use crate::board::bitboard::{DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::board::{Color, Position};

pub use list::{MAX_MOVES, MoveList};
pub use notation::{MoveError, capture_paths, hub_text, parse_move, path_text, sort_moves};
pub use perft::{divide, perft};

/// The side for a const-generic color flag.
#[inline(always)]
pub(crate) const fn color<const WHITE: bool>() -> Color {
    if WHITE { Color::White } else { Color::Black }
}

/// The two forward steps of a man: up for White, down for Black.
#[inline(always)]
pub(crate) const fn forward<const WHITE: bool>() -> [i32; 2] {
    if WHITE { [UP_LEFT, UP_RIGHT] } else { [DOWN_LEFT, DOWN_RIGHT] }
}

/// All legal moves of the side to move: the best captures if any capture exists
/// (captures are compulsory, Art. 6.1), otherwise every quiet move.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    match pos.side_to_move() {
        Color::White => fill::<true>(pos, &mut list),
        Color::Black => fill::<false>(pos, &mut list),
    }
    list
}

#[inline(always)]
fn fill<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    if !capture::generate::<WHITE>(pos, list) {
        quiet::generate::<WHITE>(pos, list);
    }
}

/// Whether the side to move must capture.
pub fn has_capture(pos: &Position) -> bool {
    match pos.side_to_move() {
        Color::White => capture::capturers::<true>(pos) != 0,
        Color::Black => capture::capturers::<false>(pos) != 0,
    }
}

/// Number of legal moves (or, with `paths`, of capture paths) without making them.
#[inline]
pub fn count_legal(pos: &Position, paths: bool) -> u64 {
    match pos.side_to_move() {
        Color::White => count::<true>(pos, paths),
        Color::Black => count::<false>(pos, paths),
    }
}

#[inline(always)]
fn count<const WHITE: bool>(pos: &Position, paths: bool) -> u64 {
    let mut list = MoveList::new();
    if capture::generate::<WHITE>(pos, &mut list) {
        if paths { list.total_paths() } else { list.len() as u64 }
    } else {
        quiet::count::<WHITE>(pos)
    }
}

/// Whether the side to move has lost: no piece, or no legal move (Art. 9.1).
pub fn is_lost(pos: &Position) -> bool {
    legal_moves(pos).is_empty()
}
