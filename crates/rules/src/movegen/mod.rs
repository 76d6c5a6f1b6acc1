//! Legal move generation and perft for every game, as its [`Rules`] say (the FID rules,
//! Art. 4–6, for Italian draughts). A call is dispatched once, at its top, to loops
//! compiled for the position's game ([`Position::variant`]); Italian takes the first
//! branch of every dispatch.
//!
//! [`Rules`]: crate::board::Rules
//!
//! ```
//! use damiera_rules::board::Position;
//! use damiera_rules::movegen::legal_moves;
//! let moves = legal_moves(&Position::start());
//! assert_eq!(moves.len(), 7);
//! ```

mod capture;
mod flying;
mod house;
mod list;
pub mod notation;
mod perft;
mod quiet;

use crate::board::bitboard::{DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::board::games::Italian;
use crate::board::{Color, Game, Move, Position, Variant};

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
    // The variant test first and on its own, against memory: the other games' branch
    // takes only `pos`, so the Italian path pays one compare for it (see capturers_of).
    if pos.variant() != Variant::Italian {
        return fill_other(pos, list);
    }
    match pos.side_to_move() {
        Color::White => fill::<Italian, true>(pos, list),
        Color::Black => fill::<Italian, false>(pos, list),
    }
}

/// The legal moves of game `G` with `WHITE` to move, appended to `list`.
#[inline(always)]
pub(super) fn fill<G: Game, const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    let () = G::PLAYABLE;
    if G::FLYING {
        flying::generate::<G, WHITE>(pos, list);
    } else if !capture::generate::<G, WHITE>(pos, list) {
        quiet::generate::<WHITE>(pos, list);
    }
}

/// The moves of the games other than Italian.
#[inline(never)]
fn fill_other(pos: &Position, list: &mut MoveList) {
    if pos.house_rules().changes_moves() {
        return house::fill(pos, list);
    }
    crate::with_game!(pos.variant(), G => match pos.side_to_move() {
        Color::White => fill::<G, true>(pos, list),
        Color::Black => fill::<G, false>(pos, list),
    })
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
        Color::White => capture::capturers::<Italian, true>(pos),
        Color::Black => capture::capturers::<Italian, false>(pos),
    }
}

/// The pieces of `side` in game `G` that could capture.
#[inline(always)]
fn capturers<G: Game, const WHITE: bool>(pos: &Position) -> u64 {
    if G::FLYING {
        flying::capturers::<G, WHITE>(pos)
    } else {
        capture::capturers::<G, WHITE>(pos)
    }
}

/// [`capturers_of`] for the games other than Italian, out of line so that the Italian
/// callers keep their few registers (the flying kings' scan needs many).
#[inline(never)]
fn capturers_other(pos: &Position, side: Color) -> u64 {
    crate::with_game!(pos.variant(), G => match side {
        Color::White => capturers::<G, true>(pos),
        Color::Black => capturers::<G, false>(pos),
    })
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
    let n = match pos.side_to_move() {
        Color::White => quiet::count::<true>(pos),
        Color::Black => quiet::count::<false>(pos),
    };
    // Damka's last man stepping backward: read only where no other quiet move is.
    n != 0 || house::has_last_man_step(pos)
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
        Color::White => count::<Italian, true>(pos, paths),
        Color::Black => count::<Italian, false>(pos, paths),
    }
}

/// [`count_legal`] for the games other than Italian.
#[inline(never)]
fn count_other(pos: &Position, paths: bool) -> u64 {
    if pos.house_rules().changes_moves() {
        return list_count(&legal_moves(pos), paths);
    }
    crate::with_game!(pos.variant(), G => match pos.side_to_move() {
        Color::White => count::<G, true>(pos, paths),
        Color::Black => count::<G, false>(pos, paths),
    })
}

/// [`count_legal`] in game `G` with `WHITE` to move.
#[inline(always)]
pub(super) fn count<G: Game, const WHITE: bool>(pos: &Position, paths: bool) -> u64 {
    if !G::ITALIAN_PRECEDENCE {
        return count_any::<G, WHITE>(pos, paths);
    }
    let sources = capture::capturers::<G, WHITE>(pos);
    if sources == 0 {
        return quiet::count::<WHITE>(pos);
    }
    if sources & pos.all_kings() == 0 {
        // Men's capture paths are distinct moves, so both counts agree.
        return capture::count_men_only::<WHITE>(pos, sources);
    }
    let mut list = MoveList::new();
    capture::generate_from::<G, WHITE>(pos, sources, &mut list);
    list_count(&list, paths)
}

/// [`count`] of a game without the Italian priority: the quiet moves counted, the
/// captures listed.
#[inline(never)]
fn count_any<G: Game, const WHITE: bool>(pos: &Position, paths: bool) -> u64 {
    if capturers::<G, WHITE>(pos) == 0 {
        return if G::FLYING {
            flying::quiet_count::<WHITE>(pos)
        } else {
            quiet::count::<WHITE>(pos)
        };
    }
    let mut list = MoveList::new();
    fill::<G, WHITE>(pos, &mut list);
    list_count(&list, paths)
}

/// The moves of `list`, or with `paths` their capture paths.
#[inline(always)]
fn list_count(list: &MoveList, paths: bool) -> u64 {
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
    mv.takes_a_piece() || pos.all_kings() & (1u64 << mv.src_bit()) == 0
}

/// Whether the side to move has lost: no piece, or no legal move (Art. 9.1).
pub fn is_lost(pos: &Position) -> bool {
    legal_moves(pos).is_empty()
}
