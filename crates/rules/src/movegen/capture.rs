//! Captures of the games with short kings and men that capture forward (Italian Art. 5–6,
//! English): compulsory, continued while possible, chosen as the game's [`Rules`] say.
//!
//! A man captures forward only, and a king (one step) in all four directions. Whether a
//! man may take a king (Italian: never, Art. 5.3) and which captures the player may
//! choose (Italian: the Art. 6.9 priority; English: any) are the game's constants.
//! Captured pieces stay on the board until the move ends, so they block landings and are
//! never jumped twice. A man that reaches its crowning row during a capture stops there.
//!
//! [`Rules`]: crate::board::Rules
//!
//! Priority (Art. 6.9), highest first, as one integer key:
//! 1. most pieces captured, 2. capturing with a king, 3. most kings captured,
//! 4. kings met earliest, compared king by king. Ties remain free choices.

use super::forward;
use super::list::MoveList;
use crate::board::bitboard::{ALL_DIRECTIONS, Bitboard, bits, step};
use crate::board::{Game, Move, Position};

/// Longest possible capture: 12 pieces, plus the start square.
const MAX_PATH: usize = 16;

/// Art. 6.9 priority key of a capture sequence: `count | king capturer | kings | order`.
/// `order` has bit `15 - i` set when the i-th captured piece is a king, so a sequence that
/// meets its kings earlier has the larger key.
#[inline(always)]
const fn priority_key(count: u32, by_king: bool, kings: u32, order: u32) -> u32 {
    (count << 24) | ((by_king as u32) << 23) | (kings << 18) | order
}

/// The key bit of a capture made by a king.
const BY_KING: u32 = 1 << 23;

/// Receives every complete capture sequence.
pub(crate) trait CaptureSink {
    /// One sequence: the move it makes, its priority key (higher wins; equal keys are
    /// free choices), and its landing bits, start first.
    fn record(&mut self, mv: Move, key: u32, path: &[u8]);
}

/// Keeps only the sequences with the highest key, one entry per distinct move.
pub(crate) struct BestMoves<'a> {
    pub list: &'a mut MoveList,
    pub best: u32,
}

impl CaptureSink for BestMoves<'_> {
    #[inline(always)]
    fn record(&mut self, mv: Move, key: u32, _path: &[u8]) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.best = key;
            self.list.clear();
        }
        if key & BY_KING != 0 {
            self.list.push_path(mv);
        } else {
            // A man moves forward only, so its captured set fixes its path: no duplicates.
            self.list.push(mv);
        }
    }
}

/// Keeps every sequence (free choice, as in English checkers), one entry per distinct move.
pub(crate) struct AllMoves<'a> {
    pub list: &'a mut MoveList,
}

impl CaptureSink for AllMoves<'_> {
    #[inline(always)]
    fn record(&mut self, mv: Move, key: u32, _path: &[u8]) {
        if key & BY_KING != 0 {
            self.list.push_path(mv);
        } else {
            self.list.push(mv);
        }
    }
}

/// Walks every capture sequence of one piece.
struct Walker<'a, S: CaptureSink> {
    enemy: Bitboard,
    enemy_kings: Bitboard,
    empty: Bitboard,
    crown: Bitboard,
    from: u32,
    path: [u8; MAX_PATH],
    sink: &'a mut S,
}

impl<S: CaptureSink> Walker<'_, S> {
    fn man<G: Game, const WHITE: bool>(&mut self, cur: u32, captured: Bitboard, n: usize) {
        let here = 1u64 << cur;
        let mut continued = false;
        // Art. 6.6: a man reaching the crowning row stops there.
        if n == 0 || here & self.crown == 0 {
            // Art. 5.3: an Italian man never captures a king; an English one may.
            let enemy_men = if G::MEN_TAKE_KINGS {
                self.enemy
            } else {
                self.enemy & !self.enemy_kings
            };
            for d in forward::<WHITE>() {
                let mid = step(here, d) & enemy_men;
                let land = step(mid, d) & self.empty;
                if land != 0 && n + 1 < MAX_PATH {
                    continued = true;
                    let to = land.trailing_zeros();
                    self.path[n + 1] = to as u8;
                    self.man::<G, WHITE>(to, captured | mid, n + 1);
                }
            }
        }
        if !continued && n > 0 {
            let key = priority_key(n as u32, false, 0, 0);
            let mv = Move::from_bits(self.from, cur, captured);
            self.sink.record(mv, key, &self.path[..=n]);
        }
    }

    fn king(&mut self, cur: u32, captured: Bitboard, n: usize, kings: u32, order: u32) {
        let here = 1u64 << cur;
        let mut continued = false;
        for d in ALL_DIRECTIONS {
            let mid = step(here, d) & self.enemy & !captured;
            let land = step(mid, d) & self.empty;
            if land != 0 && n + 1 < MAX_PATH {
                continued = true;
                let to = land.trailing_zeros();
                let is_king = mid & self.enemy_kings != 0;
                let order = order | ((is_king as u32) << (15 - n));
                self.path[n + 1] = to as u8;
                self.king(to, captured | mid, n + 1, kings + is_king as u32, order);
            }
        }
        if !continued && n > 0 {
            let key = priority_key(n as u32, true, kings, order);
            let mv = Move::from_bits(self.from, cur, captured);
            self.sink.record(mv, key, &self.path[..=n]);
        }
    }
}

/// Pieces of the side to move that can make at least one capture.
#[inline(always)]
pub(crate) fn capturers<G: Game, const WHITE: bool>(pos: &Position) -> Bitboard {
    let us = super::color::<WHITE>();
    let enemy = pos.pieces(us.opponent());
    let enemy_men = if G::MEN_TAKE_KINGS {
        enemy
    } else {
        enemy & !pos.all_kings()
    };
    let empty = pos.empty();
    let mut from = 0;
    let men = pos.men(us);
    for d in forward::<WHITE>() {
        from |= step(enemy_men & step(empty, -d), -d) & men;
    }
    let kings = pos.kings(us);
    if kings != 0 {
        for d in ALL_DIRECTIONS {
            from |= step(enemy & step(empty, -d), -d) & kings;
        }
    }
    from
}

/// Feeds every complete capture sequence of the side to move into `sink`.
pub(crate) fn walk<G: Game, const WHITE: bool, S: CaptureSink>(
    pos: &Position,
    sources: Bitboard,
    sink: &mut S,
) {
    let us = super::color::<WHITE>();
    let them = us.opponent();
    let mut walker = Walker {
        enemy: pos.pieces(them),
        enemy_kings: pos.kings(them),
        empty: pos.empty(),
        crown: us.crown_row(),
        from: 0,
        path: [0; MAX_PATH],
        sink,
    };
    let empty = pos.empty();
    let kings = pos.kings(us);
    for from in bits(sources) {
        walker.from = from;
        walker.path[0] = from as u8;
        // The moving piece leaves its square: a king may pass over or end on it again.
        walker.empty = empty | (1 << from);
        if kings & (1 << from) != 0 {
            walker.king(from, 0, 0, 0, 0);
        } else {
            walker.man::<G, WHITE>(from, 0, 0);
        }
    }
}

/// Counts the legal captures when only men can capture: every sequence of the greatest
/// length is a distinct move (a man's captured set fixes its path), and Art. 6.9 rules
/// 2–4 cannot separate men's captures of men.
#[inline]
pub(crate) fn count_men_only<const WHITE: bool>(pos: &Position, sources: Bitboard) -> u64 {
    let us = super::color::<WHITE>();
    let enemy_men = pos.men(us.opponent());
    let empty = pos.empty();
    let crown = us.crown_row();
    // Usual case first: when no landing square allows a second jump, every capture takes
    // one piece, and there is one per (man, direction) pair.
    let [d1, d2] = forward::<WHITE>();
    let land1 = step(step(sources, d1) & enemy_men, d1) & empty;
    let land2 = step(step(sources, d2) & enemy_men, d2) & empty;
    let jumpers = |d: i32| step(enemy_men & step(empty, -d), -d);
    if (land1 | land2) & !crown & (jumpers(d1) | jumpers(d2)) == 0 {
        return (land1.count_ones() + land2.count_ones()) as u64;
    }
    let (mut best, mut count) = (0, 0);
    for from in bits(sources) {
        let (n, c) = longest_man_captures::<WHITE>(1 << from, enemy_men, empty, crown);
        if n > best {
            (best, count) = (n, c);
        } else if n == best {
            count += c;
        }
    }
    count
}

/// (greatest number of captures, number of sequences reaching it) for a man on `here`.
fn longest_man_captures<const WHITE: bool>(
    here: Bitboard,
    enemy_men: Bitboard,
    empty: Bitboard,
    crown: Bitboard,
) -> (u32, u64) {
    let (mut best, mut count) = (0, 1);
    for d in forward::<WHITE>() {
        let mid = step(here, d) & enemy_men;
        let land = step(mid, d) & empty;
        if land == 0 {
            continue;
        }
        let (n, c) = if land & crown != 0 {
            (1, 1)
        } else {
            let (n, c) = longest_man_captures::<WHITE>(land, enemy_men & !mid, empty, crown);
            (n + 1, c)
        };
        if n > best {
            (best, count) = (n, c);
        } else if n == best {
            count += c;
        }
    }
    (best, count)
}

/// Appends the legal captures of the side to move (chosen as the game's precedence
/// says); returns false if there is none.
#[inline(always)]
pub(crate) fn generate<G: Game, const WHITE: bool>(pos: &Position, list: &mut MoveList) -> bool {
    let sources = capturers::<G, WHITE>(pos);
    if sources == 0 {
        return false;
    }
    generate_from::<G, WHITE>(pos, sources, list);
    true
}

/// Appends the legal captures of the pieces in `sources` (all pieces able to capture).
#[inline(always)]
pub(crate) fn generate_from<G: Game, const WHITE: bool>(
    pos: &Position,
    sources: Bitboard,
    list: &mut MoveList,
) {
    if G::FREE {
        walk::<G, WHITE, _>(pos, sources, &mut AllMoves { list });
    } else {
        walk::<G, WHITE, _>(pos, sources, &mut BestMoves { list, best: 0 });
    }
}
