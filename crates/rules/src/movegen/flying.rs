//! The games with flying kings (Russian, Brazilian, Pool, Czech, Spanish, Thai): captures
//! walked as the game's [`Rules`] say.
//!
//! - A man steps one square diagonally forward, and captures forward and, as the game
//!   says, backward (Russian and Brazilian: always; Czech, Spanish, Thai: never).
//! - A king moves along a whole diagonal, and captures a piece anywhere on its diagonal
//!   with free squares between, landing on any free square behind it; where the capture
//!   can go on from some of those squares it must land on one of them. In Thai draughts
//!   it lands on the square just behind the piece instead.
//! - Captured pieces stay on the board until the move ends: they block, and none is taken
//!   twice (the "Turkish strike" cannot happen). In Thai draughts each leaves the board as
//!   it is jumped, so a later jump of the chain may cross its square.
//! - The game's precedence says which captures may be chosen: any (Russian, Pool, Thai),
//!   one taking the most pieces, kings and men alike (Brazilian), the most pieces then
//!   the most kings (Spanish), or a king's if a king can capture (Czech).
//! - A man reaching the last row during a capture stops there, or is crowned at once and
//!   goes on as a king (Russian), or goes on as a man and is crowned only if it ends there
//!   (Brazilian).
//!
//! [`Rules`]: crate::board::Rules

use super::capture::CaptureSink;
use super::forward;
use super::list::MoveList;
use crate::board::bitboard::{ALL_DIRECTIONS, Bitboard, bits, step};
use crate::board::games::{MenBackward, Promotion};
use crate::board::{Game, Move, Position};

/// Longest capture: 12 pieces, plus the start square, with room to spare.
const MAX_PATH: usize = 16;

/// Keeps the legal sequences, one entry per distinct move with its number of paths:
/// all of them (free choice) or those of the highest key (the most pieces, then where
/// the game says the most kings).
pub(crate) struct FlyingMoves<'a, G: Game> {
    pub list: &'a mut MoveList,
    pub best: u32,
    pub game: std::marker::PhantomData<G>,
}

impl<G: Game> CaptureSink for FlyingMoves<'_, G> {
    #[inline]
    fn record(&mut self, mv: Move, key: u32, _path: &[u8]) {
        if G::MAJORITY {
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
struct Walker<'a, S: CaptureSink, G: Game> {
    enemy: Bitboard,
    enemy_kings: Bitboard,
    empty: Bitboard,
    crown: Bitboard,
    from: u32,
    path: [u8; MAX_PATH],
    sink: &'a mut S,
    game: std::marker::PhantomData<G>,
}

impl<S: CaptureSink, G: Game> Walker<'_, S, G> {
    fn man<const WHITE: bool>(&mut self, cur: u32, captured: Bitboard, n: usize) {
        // Damka's `stop-chain`: every landing ends a move of its own.
        if G::STOP_ANYWHERE && n > 0 {
            self.finish(cur, captured, n, false);
        }
        let here = 1u64 << cur;
        let mut continued = false;
        let prey = if G::MEN_TAKE_KINGS {
            self.enemy
        } else {
            self.enemy & !self.enemy_kings
        };
        for &d in man_directions::<G, WHITE>(n) {
            let mid = step(here, d) & prey & !captured;
            let land = step(mid, d) & self.empty;
            if land == 0 || n + 1 >= MAX_PATH {
                continue;
            }
            continued = true;
            let to = land.trailing_zeros();
            self.path[n + 1] = to as u8;
            if G::REMOVED_AT_ONCE {
                self.empty |= mid;
            }
            if land & self.crown == 0 {
                self.man::<WHITE>(to, captured | mid, n + 1);
            } else {
                match G::RULES.promotion {
                    Promotion::Stop => self.finish(to, captured | mid, n + 1, false),
                    Promotion::CrownAndContinue => self.king(to, captured | mid, n + 1, true),
                    Promotion::ContinueUncrowned => self.man::<WHITE>(to, captured | mid, n + 1),
                }
            }
            if G::REMOVED_AT_ONCE {
                self.empty &= !mid;
            }
        }
        if !continued && n > 0 && !G::STOP_ANYWHERE {
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
            if G::STOP_ANYWHERE {
                // A chain that stops may land anywhere behind: the onward squares bind
                // only a chain that goes on.
                for l in bits(landings) {
                    self.path[n + 1] = l as u8;
                    self.finish(l, taken, n + 1, crowned);
                }
            }
            if G::REMOVED_AT_ONCE {
                self.empty |= mid;
            }
            // Where the capture can go on from some landing squares, it must land there
            // (only one square to choose where a king lands just behind).
            let choices = if G::LANDS_JUST_BEHIND {
                landings
            } else {
                let mut onward = 0;
                for l in bits(landings) {
                    if self.king_can_capture(l, taken) {
                        onward |= 1u64 << l;
                    }
                }
                if onward != 0 { onward } else { landings }
            };
            for l in bits(choices) {
                continued = true;
                self.path[n + 1] = l as u8;
                self.king(l, taken, n + 1, crowned);
            }
            if G::REMOVED_AT_ONCE {
                self.empty &= !mid;
            }
        }
        if !continued && n > 0 && !G::STOP_ANYWHERE {
            self.finish(cur, captured, n, crowned);
        }
    }

    /// The piece a king on `cur` captures in direction `d`, and its landing squares (only
    /// the first where the game's kings land just behind).
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
        if G::LANDS_JUST_BEHIND {
            return (land != 0).then_some((sq, land));
        }
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
        // The key: the pieces taken, then (most kings after most pieces) the kings taken.
        let key = if G::KINGS_IN_KEY {
            ((n as u32) << 5) | (captured & self.enemy_kings).count_ones()
        } else {
            n as u32
        };
        // A man crowned on the way and ending on its last row is crowned anyway: only a
        // man that went on elsewhere carries the mark, so that one move has one form.
        let mv = if crowned && (1u64 << cur) & self.crown == 0 {
            mv.crowned()
        } else {
            mv
        };
        self.sink.record(mv, key, &self.path[..=n]);
    }
}

/// The directions a man captures in on the `n`-th jump of a chain (0 the first).
#[inline(always)]
fn man_directions<G: Game, const WHITE: bool>(n: usize) -> &'static [i32] {
    const FORWARD_WHITE: [i32; 2] = forward::<true>();
    const FORWARD_BLACK: [i32; 2] = forward::<false>();
    let forward_only = match G::RULES.men_capture_backward {
        MenBackward::Never => true,
        MenBackward::Always => false,
        MenBackward::AfterFirstJump => n == 0,
    };
    match (forward_only, WHITE) {
        (false, _) => &ALL_DIRECTIONS,
        (true, true) => &FORWARD_WHITE,
        (true, false) => &FORWARD_BLACK,
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
pub(crate) fn capturers<G: Game, const WHITE: bool>(pos: &Position) -> Bitboard {
    let us = super::color::<WHITE>();
    let enemy = pos.pieces(us.opponent());
    let prey = if G::MEN_TAKE_KINGS {
        enemy
    } else {
        enemy & !pos.all_kings()
    };
    let empty = pos.empty();
    let men = pos.men(us);
    let mut from = 0;
    for &d in man_directions::<G, WHITE>(0) {
        from |= step(prey & step(empty, -d), -d) & men;
    }
    for k in bits(pos.kings(us)) {
        if king_sees_prey(k, enemy, empty) {
            from |= 1u64 << k;
        }
    }
    from
}

/// Feeds every complete capture sequence of the pieces in `sources` into `sink`.
pub(crate) fn walk<G: Game, const WHITE: bool, S: CaptureSink>(
    pos: &Position,
    sources: Bitboard,
    sink: &mut S,
) {
    let us = super::color::<WHITE>();
    let empty = pos.empty();
    let kings = pos.kings(us);
    let mut walker: Walker<'_, S, G> = Walker {
        enemy: pos.pieces(us.opponent()),
        enemy_kings: pos.kings(us.opponent()),
        empty,
        crown: us.crown_row(),
        from: 0,
        path: [0; MAX_PATH],
        sink,
        game: std::marker::PhantomData,
    };
    for from in bits(sources) {
        walker.from = from;
        walker.path[0] = from as u8;
        // The moving piece leaves its square: it may pass over or end on it again.
        walker.empty = empty | (1 << from);
        if kings & (1 << from) != 0 {
            walker.king(from, 0, 0, false);
        } else {
            walker.man::<WHITE>(from, 0, 0);
        }
    }
}

/// Appends the legal moves of the side to move: the captures if there are any, else the
/// quiet moves.
pub(crate) fn generate<G: Game, const WHITE: bool>(pos: &Position, list: &mut MoveList) {
    let mut sources = capturers::<G, WHITE>(pos);
    // Czech: where a king can capture, only the kings' captures are legal.
    if G::KING_FIRST && sources & pos.kings(super::color::<WHITE>()) != 0 {
        sources &= pos.kings(super::color::<WHITE>());
    }
    if sources != 0 {
        let mut sink = FlyingMoves::<G> {
            list,
            best: 0,
            game: std::marker::PhantomData,
        };
        walk::<G, WHITE, _>(pos, sources, &mut sink);
        return;
    }
    quiet::<WHITE>(pos, list);
}

/// Appends the quiet moves: men one step forward, kings along their diagonals.
pub(crate) fn quiet<const WHITE: bool>(pos: &Position, list: &mut MoveList) {
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
