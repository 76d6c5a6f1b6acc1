//! Legal move generation and perft: the FID rules (Art. 4–6) for Italian draughts, and
//! the rules of English, Russian and Brazilian draughts for positions of those variants
//! ([`Position::variant`]). Italian takes the first branch of every dispatch.
//!
//! ```
//! use damiera_rules::board::Position;
//! use damiera_rules::movegen::legal_moves;
//! let moves = legal_moves(&Position::start());
//! assert_eq!(moves.len(), 7);
//! ```

mod capture;
mod flying;
mod list;
pub mod notation;
mod perft;
mod quiet;

use crate::board::bitboard::{DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::board::{Color, Move, Position, Variant};

pub use list::{MAX_MOVES, MoveList};
pub use notation::{
    MoveError, capture_paths, capture_separator, hub_text, hub_text_in, line_text, line_words,
    parse_move, path_text, sort_moves, sort_moves_in,
};
pub use perft::{divide, perft};

/// The side for a const-generic color flag.
#[inline(always)]
pub(crate) const fn color<const WHITE: bool>() -> Color {
    if WHITE { Color::White } else { Color::Black }
}

/// The two forward steps of a man: up for White, down for Black.
#[inline(always)]
pub(crate) const fn forward<const WHITE: bool>() -> [i32; 2] {
    if WHITE {
        [UP_LEFT, UP_RIGHT]
    } else {
        [DOWN_LEFT, DOWN_RIGHT]
    }
}

/// All legal moves of the side to move: the best captures if any capture exists
/// (captures are compulsory, Art. 6.1), otherwise every quiet move.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_into(pos, &mut list);
    list
}

/// Fills `list` (emptied first) with the legal moves; avoids copying a returned list in
/// hot loops.
#[inline]
pub fn generate_into(pos: &Position, list: &mut MoveList) {
    list.clear();
    // The variant test first and on its own, against memory: the other variants' branch
    // takes only `pos`, so the Italian path pays one compare for it (see capturers_of).
    if pos.variant() != Variant::Italian {
        return fill_other(pos, list);
    }
    match pos.side_to_move() {
        Color::White => fill::<true>(pos, list),
        Color::Black => fill::<false>(pos, list),
    }
}

#[inline(always)]
pub(super) fn fill<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    if !capture::generate::<WHITE>(pos, list) {
        quiet::generate::<WHITE>(pos, list);
    }
}

/// The moves of the variants other than Italian.
#[inline(never)]
fn fill_other(pos: &Position, list: &mut MoveList) {
    match (pos.variant(), pos.side_to_move()) {
        (Variant::English, Color::White) => {
            if !capture::generate_free::<true>(pos, list) {
                quiet::generate::<true>(pos, list);
            }
        }
        (Variant::English, Color::Black) => {
            if !capture::generate_free::<false>(pos, list) {
                quiet::generate::<false>(pos, list);
            }
        }
        (Variant::Russian, Color::White) => flying::generate::<true, true>(pos, list),
        (Variant::Russian, Color::Black) => flying::generate::<false, true>(pos, list),
        (Variant::Brazilian, Color::White) => flying::generate::<true, false>(pos, list),
        (Variant::Brazilian, Color::Black) => flying::generate::<false, false>(pos, list),
        (Variant::Italian, Color::White) => fill::<true>(pos, list),
        (Variant::Italian, Color::Black) => fill::<false>(pos, list),
    }
}

/// The pieces of `side` that could capture in `pos` (whoever is to move).
#[inline(always)]
fn capturers_of(pos: &Position, side: Color) -> u64 {
    // Tested apart from the side (not as a pair): loading both and comparing each cost
    // the Italian search 3 to 4 instructions at every call instead of 1 or 2.
    if pos.variant() != Variant::Italian {
        return capturers_other(pos, side);
    }
    match side {
        Color::White => capture::capturers::<true, false>(pos),
        Color::Black => capture::capturers::<false, false>(pos),
    }
}

/// [`capturers_of`] for the variants other than Italian, out of line so that the
/// Italian callers keep their few registers (the flying kings' scan needs many).
#[inline(never)]
fn capturers_other(pos: &Position, side: Color) -> u64 {
    match (pos.variant(), side) {
        (Variant::Italian, Color::White) => capture::capturers::<true, false>(pos),
        (Variant::Italian, Color::Black) => capture::capturers::<false, false>(pos),
        (Variant::English, Color::White) => capture::capturers::<true, true>(pos),
        (Variant::English, Color::Black) => capture::capturers::<false, true>(pos),
        (_, Color::White) => flying::capturers::<true>(pos),
        (_, Color::Black) => flying::capturers::<false>(pos),
    }
}

/// Whether the side to move must capture.
#[inline(always)]
pub fn has_capture(pos: &Position) -> bool {
    capturers_of(pos, pos.side_to_move()) != 0
}

/// Whether the side to move has a quiet move (a step of a man or king to an empty
/// square), whether or not a capture is compulsory instead.
#[inline]
pub fn has_quiet_move(pos: &Position) -> bool {
    // A flying king with a free neighbour has a quiet move as a short king has.
    match pos.side_to_move() {
        Color::White => quiet::count::<true>(pos) != 0,
        Color::Black => quiet::count::<false>(pos) != 0,
    }
}

/// Whether the opponent of the side to move could capture if it were its turn.
pub fn opponent_threatens(pos: &Position) -> bool {
    capturers_of(pos, pos.side_to_move().opponent()) != 0
}

/// Number of legal moves (or, with `paths`, of capture paths) without making them.
#[inline]
pub fn count_legal(pos: &Position, paths: bool) -> u64 {
    if pos.variant() != Variant::Italian {
        return count_other(pos, paths);
    }
    match pos.side_to_move() {
        Color::White => count::<true>(pos, paths),
        Color::Black => count::<false>(pos, paths),
    }
}

/// [`count_legal`] for the variants other than Italian.
#[inline(never)]
fn count_other(pos: &Position, paths: bool) -> u64 {
    if !has_capture(pos) {
        return match (pos.variant().flying_kings(), pos.side_to_move()) {
            (false, Color::White) => quiet::count::<true>(pos),
            (false, Color::Black) => quiet::count::<false>(pos),
            (true, Color::White) => flying::quiet_count::<true>(pos),
            (true, Color::Black) => flying::quiet_count::<false>(pos),
        };
    }
    let list = legal_moves(pos);
    if paths {
        list.total_paths()
    } else {
        list.len() as u64
    }
}

#[inline(always)]
pub(super) fn count<const WHITE: bool>(pos: &Position, paths: bool) -> u64 {
    let sources = capture::capturers::<WHITE, false>(pos);
    if sources == 0 {
        return quiet::count::<WHITE>(pos);
    }
    if sources & pos.all_kings() == 0 {
        // Men's capture paths are distinct moves, so both counts agree.
        return capture::count_men_only::<WHITE>(pos, sources);
    }
    let mut list = MoveList::new();
    capture::generate_from::<WHITE>(pos, sources, &mut list);
    if paths {
        list.total_paths()
    } else {
        list.len() as u64
    }
}

/// Whether `mv`, played in `pos`, can never be undone: a capture (pieces leave the
/// board) or a man's move (men only go forward). Only kings' quiet moves are reversible,
/// so only they count toward repetitions and a game's move limit.
#[inline(always)]
pub fn is_irreversible(pos: &Position, mv: Move) -> bool {
    mv.is_capture() || pos.all_kings() & (1u64 << mv.src_bit()) == 0
}

/// Whether the side to move has lost: no piece, or no legal move (Art. 9.1).
pub fn is_lost(pos: &Position) -> bool {
    legal_moves(pos).is_empty()
}
