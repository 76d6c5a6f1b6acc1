//! Russian and Brazilian draughts: flying kings and men that capture backward.
//!
//! - A man steps one square diagonally forward, and captures in all four directions.
//! - A king moves along a whole diagonal, and captures a piece anywhere on its diagonal
//!   with free squares between, landing on any free square behind it; where the capture
//!   can go on from some of those squares it must land on one of them.
//! - Captured pieces stay on the board until the move ends: they block, and none is taken
//!   twice (the "Turkish strike" cannot happen).
//! - Russian: free choice among captures; a man reaching the last row during a capture is
//!   crowned at once and goes on capturing as a king.
//! - Brazilian (international rules): the capture taking the most pieces is compulsory
//!   (kings and men count alike); a man that passes its last row during a capture stays a
//!   man and is crowned only if it ends there.

use super::capture::CaptureSink;
use super::forward;
use super::list::MoveList;
use crate::board::bitboard::{ALL_DIRECTIONS, Bitboard, bits, step};
use crate::board::{Move, Position};

/// Longest capture: 12 pieces, plus the start square, with room to spare.
const MAX_PATH: usize = 16;

/// Keeps the legal sequences, one entry per distinct move with its number of paths:
/// all of them (Russian) or those taking the most pieces (Brazilian, `MAJORITY`).
pub(crate) struct FlyingMoves<'a, const MAJORITY: bool> {
    pub list: &'a mut MoveList,
    pub best: u32,
}

impl<const MAJORITY: bool> CaptureSink for FlyingMoves<'_, MAJORITY> {
    #[inline]
    fn record(&mut self, mv: Move, key: u32, _path: &[u8]) {
        if MAJORITY {
            if key < self.best {
                return;
            }
            if key > self.best {
                self.best = key;
                self.list.clear();
            }
        }
        self.list.push_path(mv);
    }
}

/// Walks every capture sequence of one piece.
struct Walker<'a, S: CaptureSink, const RUSSIAN: bool> {
    enemy: Bitboard,
    empty: Bitboard,
    crown: Bitboard,
    from: u32,
    path: [u8; MAX_PATH],
    sink: &'a mut S,
}

impl<S: CaptureSink, const RUSSIAN: bool> Walker<'_, S, RUSSIAN> {
    fn man(&mut self, cur: u32, captured: Bitboard, n: usize) {
        let here = 1u64 << cur;
        let mut continued = false;
        for d in ALL_DIRECTIONS {
            let mid = step(here, d) & self.enemy & !captured;
            let land = step(mid, d) & self.empty;
            if land == 0 || n + 1 >= MAX_PATH {
                continue;
            }
            continued = true;
            let to = land.trailing_zeros();
            self.path[n + 1] = to as u8;
            if RUSSIAN && land & self.crown != 0 {
                self.king(to, captured | mid, n + 1, true);
            } else {
                self.man(to, captured | mid, n + 1);
            }
        }
        if !continued && n > 0 {
            self.finish(cur, captured, n, false);
        }
    }

    fn king(&mut self, cur: u32, captured: Bitboard, n: usize, crowned: bool) {
        let mut continued = false;
        for d in ALL_DIRECTIONS {
            let Some((mid, landings)) = self.king_capture(cur, d, captured) else {
                continue;
            };
            if n + 1 >= MAX_PATH {
                continue;
            }
            let taken = captured | mid;
            // Where the capture can go on from some landing squares, it must land there.
            let mut onward = 0;
            for l in bits(landings) {
                if self.king_can_capture(l, taken) {
                    onward |= 1u64 << l;
                }
            }
            let choices = if onward != 0 { onward } else { landings };
            for l in bits(choices) {
                continued = true;
                self.path[n + 1] = l as u8;
                self.king(l, taken, n + 1, crowned);
            }
        }
        if !continued && n > 0 {
            self.finish(cur, captured, n, crowned);
        }
    }

    /// The piece a king on `cur` captures in direction `d`, and its landing squares.
    #[inline]
    fn king_capture(&self, cur: u32, d: i32, captured: Bitboard) -> Option<(Bitboard, Bitboard)> {
        let mut sq = step(1u64 << cur, d);
        while sq & self.empty != 0 {
            sq = step(sq, d);
        }
        if sq & self.enemy & !captured == 0 {
            return None;
        }
        let mut landings = 0;
        let mut land = step(sq, d) & self.empty;
        while land != 0 {
            landings |= land;
            land = step(land, d) & self.empty;
        }
        (landings != 0).then_some((sq, landings))
    }

    fn king_can_capture(&self, cur: u32, captured: Bitboard) -> bool {
        ALL_DIRECTIONS
            .into_iter()
            .any(|d| self.king_capture(cur, d, captured).is_some())
    }

    fn finish(&mut self, cur: u32, captured: Bitboard, n: usize, crowned: bool) {
        let mv = Move::from_bits(self.from, cur, captured);
        // A man crowned on the way and ending on its last row is crowned anyway: only a
        // man that went on elsewhere carries the mark, so that one move has one form.
        let mv = if crowned && (1u64 << cur) & self.crown == 0 {
            mv.crowned()
        } else {
            mv
        };
        self.sink.record(mv, n as u32, &self.path[..=n]);
    }
}

/// Whether a king on `from` (the mover's own square counted empty) can capture.
fn king_sees_prey(from: u32, enemy: Bitboard, empty: Bitboard) -> bool {
    ALL_DIRECTIONS.into_iter().any(|d| {
        let mut sq = step(1u64 << from, d);
        while sq & empty != 0 {
            sq = step(sq, d);
        }
        sq & enemy != 0 && step(sq, d) & empty != 0
    })
}

/// Pieces of the side to move that can capture.
pub(crate) fn capturers<const WHITE: bool>(pos: &Position) -> Bitboard {
    let us = super::color::<WHITE>();
    let enemy = pos.pieces(us.opponent());
    let empty = pos.empty();
    let men = pos.men(us);
    let mut from = 0;
    for d in ALL_DIRECTIONS {
        from |= step(enemy & step(empty, -d), -d) & men;
    }
    for k in bits(pos.kings(us)) {
        if king_sees_prey(k, enemy, empty) {
            from |= 1u64 << k;
        }
    }
    from
}

/// Feeds every complete capture sequence of the pieces in `sources` into `sink`.
pub(crate) fn walk<const WHITE: bool, const RUSSIAN: bool, S: CaptureSink>(
    pos: &Position,
    sources: Bitboard,
    sink: &mut S,
) {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    let kings = pos.kings(us);
    let mut walker: Walker<'_, S, RUSSIAN> = Walker {
        enemy: pos.pieces(us.opponent()),
        empty,
        crown: us.crown_row(),
        from: 0,
        path: [0; MAX_PATH],
        sink,
    };
    for from in bits(sources) {
        walker.from = from;
        walker.path[0] = from as u8;
        // The moving piece leaves its square: it may pass over or end on it again.
        walker.empty = empty | (1 << from);
        if kings & (1 << from) != 0 {
            walker.king(from, 0, 0, false);
        } else {
            walker.man(from, 0, 0);
        }
    }
}

/// Appends the legal moves of the side to move: the captures if there are any, else the
/// quiet moves.
pub(crate) fn generate<const WHITE: bool, const RUSSIAN: bool>(
    pos: &Position,
    list: &mut MoveList,
) {
    let sources = capturers::<WHITE>(pos);
    if sources != 0 {
        if RUSSIAN {
            walk::<WHITE, true, _>(pos, sources, &mut FlyingMoves::<false> { list, best: 0 });
        } else {
            walk::<WHITE, false, _>(pos, sources, &mut FlyingMoves::<true> { list, best: 0 });
        }
        return;
    }
    quiet::<WHITE>(pos, list);
}

/// Appends the quiet moves: men one step forward, kings along their diagonals.
fn quiet<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    for d in forward::<WHITE>() {
        for from in bits(step(empty, -d) & pos.men(us)) {
            list.push(Move::from_bits(from, (from as i32 + d) as u32, 0));
        }
    }
    for from in bits(pos.kings(us)) {
        for d in ALL_DIRECTIONS {
            let mut sq = step(1u64 << from, d) & empty;
            while sq != 0 {
                list.push(Move::from_bits(from, sq.trailing_zeros(), 0));
                sq = step(sq, d) & empty;
            }
        }
    }
}

/// Number of quiet moves of the side to move.
pub(crate) fn quiet_count<const WHITE: bool>(pos: &Position) -> u64 {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    let mut n = 0;
    for d in forward::<WHITE>() {
        n += (step(pos.men(us), d) & empty).count_ones();
    }
    for from in bits(pos.kings(us)) {
        for d in ALL_DIRECTIONS {
            let mut sq = step(1u64 << from, d) & empty;
            while sq != 0 {
                n += 1;
                sq = step(sq, d) & empty;
            }
        }
    }
    n as u64
}
