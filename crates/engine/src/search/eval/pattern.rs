//! The pattern evaluation (Scan's approach, on 8x8): the board is covered by nine
//! overlapping 4x4 regions (rows and columns starting at 0, 2 and 4), each holding eight
//! dark squares. The exact men on a region (empty, white man or black man on each
//! square: one of 3^8 = 6561 configurations) indexes a learned weight, one for the
//! opening and one for the endgame, interpolated by the number of men on the board.
//! Kings get learned material values and a square table; learned terms for runaway men
//! and the side to move complete it, and today's endgame damping is applied on top.
//!
//! The weights are antisymmetric by construction: the position with colours swapped and
//! the board turned scores exactly the negative.
//!
//! Weights are `i16` in sixteenths of a hundredth of a man ([`UNIT`]).

use std::sync::Arc;

use super::hce;
use super::nnue::Network;
use crate::board::bitboard::bits;
use crate::board::{Color, Position, Square, Variant};

/// Regions on the board.
pub const WINDOWS: usize = 9;
/// Configurations of one region: 3^8.
pub const CONFIGS: usize = 6561;
/// Men on a full board: the phase runs from 24 (opening) to 0 (endgame).
pub const FULL_PHASE: i32 = 24;
/// Weight units per hundredth of a man.
pub const UNIT: i32 = 16;
/// Number of `i16` weights, in file order: patterns `[window][config][opening, endgame]`,
/// man and king values `[opening, endgame]`, the king square table (FID squares 1..32,
/// White's view), runaway `[has one, per rank]`, the side to move.
pub const WEIGHT_COUNT: usize = WINDOWS * CONFIGS * 2 + 2 + 2 + 32 + 2 + 1;

/// Offsets of the scalar weights in the flat vector.
pub mod offset {
    use super::{CONFIGS, WINDOWS};
    /// Man value, opening then endgame.
    pub const MAN: usize = WINDOWS * CONFIGS * 2;
    /// King value, opening then endgame.
    pub const KING: usize = MAN + 2;
    /// King square table.
    pub const KING_SQUARE: usize = KING + 2;
    /// Runaway: has one, per rank of the best one.
    pub const RUNAWAY: usize = KING_SQUARE + 32;
    /// Side to move.
    pub const TEMPO: usize = RUNAWAY + 2;
}

/// Internal bit of each region's lowest square.
const WINDOW_SHIFT: [u32; WINDOWS] = [0, 1, 2, 9, 10, 11, 18, 19, 20];
/// A region's squares relative to its lowest: two per row over four rows.
const WINDOW_MASK: u64 = 0b11 | (0b11 << 5) | (0b11 << 9) | (0b11 << 14);

/// Base-3 value of an 8-bit set: bit j counts 3^j.
static TERNARY: [u16; 256] = ternary_table();

const fn ternary_table() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut j) = (0u16, 1u16, 0);
        while j < 8 {
            if b & (1 << j) != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// The eight bits of a region, row by row (bit j = row j/2, square j%2 of that row).
#[inline(always)]
fn gather(set: u64, shift: u32) -> usize {
    let v = (set >> shift) & WINDOW_MASK;
    ((v & 3) | ((v >> 3) & 0xC) | ((v >> 5) & 0x30) | ((v >> 8) & 0xC0)) as usize
}

/// Each region's configuration: digit j is 0 (empty), 1 (white man) or 2 (black man).
#[inline(always)]
pub fn window_indices(white_men: u64, black_men: u64) -> [u16; WINDOWS] {
    let mut out = [0u16; WINDOWS];
    for (n, &shift) in WINDOW_SHIFT.iter().enumerate() {
        out[n] = TERNARY[gather(white_men, shift)] + 2 * TERNARY[gather(black_men, shift)];
    }
    out
}

/// The configuration seen on the mirrored region (board turned, colours swapped): the
/// digits reversed with 1 and 2 exchanged. Region `n` mirrors to region `8 - n`.
pub fn mirror_config(index: usize) -> usize {
    let (mut v, mut out) = (index, 0);
    for _ in 0..8 {
        let digit = match v % 3 {
            1 => 2,
            2 => 1,
            _ => 0,
        };
        out = out * 3 + digit;
        v /= 3;
    }
    out
}

/// FID square index (0..32) of each internal bit.
pub(crate) static SQUARE_OF_BIT: [u8; 36] = square_of_bit();

const fn square_of_bit() -> [u8; 36] {
    let mut t = [0u8; 36];
    let mut n = 1;
    while n <= 32 {
        if let Some(sq) = Square::new(n) {
            t[sq.bit() as usize] = n - 1;
        }
        n += 1;
    }
    t
}

/// What the evaluation looks at in a position, from White's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Each region's configuration.
    pub windows: [u16; WINDOWS],
    /// Men on the board, at most [`FULL_PHASE`].
    pub phase: i32,
    /// White men minus black men.
    pub men: i32,
    /// White kings minus black kings.
    pub kings: i32,
    /// White's kings (FID square index 0..32 set).
    pub white_kings: u32,
    /// Black's kings, as White's squares after turning the board (index 31 - i).
    pub black_kings_mirrored: u32,
    /// Runaway men: has one (White minus Black), rank of the best one (White minus Black).
    pub runaway: [i32; 2],
    /// +1 with White to move, -1 with Black.
    pub tempo: i32,
}

impl Features {
    /// The features of `pos`.
    #[inline(always)]
    pub fn of(pos: &Position) -> Features {
        let (wm, bm) = (pos.men(Color::White), pos.men(Color::Black));
        let (wk, bk) = (pos.kings(Color::White), pos.kings(Color::Black));
        let mut white_kings = 0u32;
        for b in bits(wk) {
            white_kings |= 1 << SQUARE_OF_BIT[b as usize];
        }
        let mut black_kings_mirrored = 0u32;
        for b in bits(bk) {
            black_kings_mirrored |= 1 << (31 - SQUARE_OF_BIT[b as usize]);
        }
        let (w_run, b_run) = (runaway(pos, Color::White), runaway(pos, Color::Black));
        Features {
            windows: window_indices(wm, bm),
            phase: ((wm | bm).count_ones() as i32).min(FULL_PHASE),
            men: wm.count_ones() as i32 - bm.count_ones() as i32,
            kings: wk.count_ones() as i32 - bk.count_ones() as i32,
            white_kings,
            black_kings_mirrored,
            runaway: [
                (w_run > 0) as i32 - (b_run > 0) as i32,
                w_run as i32 - b_run as i32,
            ],
            tempo: if pos.side_to_move() == Color::White {
                1
            } else {
                -1
            },
        }
    }
}

/// The rank (1..=6 from the own back row) of `us`'s most advanced man that no enemy
/// piece can stop, while the enemy has no king; 0 if none.
fn runaway(pos: &Position, us: Color) -> u8 {
    let them = us.opponent();
    if pos.kings(them) != 0 {
        return 0;
    }
    let t = hce::tables();
    let (enemy, variant) = (pos.pieces(them), pos.variant());
    bits(pos.men(us))
        .filter(|&b| t.stoppers(variant, us, b) & enemy == 0)
        .map(|b| t.rank[us as usize][b as usize])
        .max()
        .unwrap_or(0)
}

/// Learned weights, ready for the search (patterns already made antisymmetric), for the
/// variant whose games they were fitted to.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    /// The game these weights evaluate.
    pub variant: Variant,
    /// `[window * CONFIGS + config]` -> `[opening, endgame]`.
    pub patterns: Vec<[i16; 2]>,
    /// Man value `[opening, endgame]`.
    pub man: [i16; 2],
    /// King value `[opening, endgame]`.
    pub king: [i16; 2],
    /// A white king on FID square i+1 (a black king uses square 32 - i, negated).
    pub king_square: [i16; 32],
    /// Runaway: having one, per rank of the best one.
    pub runaway: [i16; 2],
    /// For the side to move.
    pub tempo: i16,
    /// A network that evaluates instead of the patterns (loaded from a `.dmn` file, see
    /// [`super::nnue`]); the pattern weights beside it are then its variant's embedded
    /// ones, unused by the search.
    pub network: Option<Arc<Network>>,
}

impl PatternWeights {
    /// Material only, with today's hand-made Italian values (a man 100, a king 185).
    pub fn material_only() -> PatternWeights {
        PatternWeights::material_only_in(Variant::Italian)
    }

    /// Material only, with the hand-made values of `variant` ([`hce::weights_for`]).
    pub fn material_only_in(variant: Variant) -> PatternWeights {
        let w = hce::weights_for(variant);
        let (man, king) = ((w.man * UNIT) as i16, (w.king * UNIT) as i16);
        PatternWeights {
            variant,
            patterns: vec![[0, 0]; WINDOWS * CONFIGS],
            man: [man, man],
            king: [king, king],
            king_square: [0; 32],
            runaway: [0; 2],
            tempo: 0,
            network: None,
        }
    }

    /// All weights in file order ([`WEIGHT_COUNT`] of them).
    pub fn to_vec(&self) -> Vec<i16> {
        let mut v: Vec<i16> = self.patterns.iter().flatten().copied().collect();
        v.extend(self.man);
        v.extend(self.king);
        v.extend(self.king_square);
        v.extend(self.runaway);
        v.push(self.tempo);
        v
    }

    /// The inverse of [`PatternWeights::to_vec`], for Italian (see
    /// [`PatternWeights::in_variant`]); `None` if the length is wrong.
    pub fn from_slice(v: &[i16]) -> Option<PatternWeights> {
        if v.len() != WEIGHT_COUNT {
            return None;
        }
        let pair = |i: usize| [v[i], v[i + 1]];
        let mut king_square = [0; 32];
        king_square.copy_from_slice(&v[offset::KING_SQUARE..offset::KING_SQUARE + 32]);
        Some(PatternWeights {
            variant: Variant::Italian,
            patterns: v[..offset::MAN].chunks(2).map(|c| [c[0], c[1]]).collect(),
            man: pair(offset::MAN),
            king: pair(offset::KING),
            king_square,
            runaway: pair(offset::RUNAWAY),
            tempo: v[offset::TEMPO],
            network: None,
        })
    }
}

impl PatternWeights {
    /// The same weights, marked as made for `variant`.
    pub fn in_variant(mut self, variant: Variant) -> PatternWeights {
        self.variant = variant;
        self
    }
}

/// The evaluation from White's view, in hundredths of a man.
#[inline]
pub fn evaluate_white(pos: &Position, w: &PatternWeights) -> i32 {
    let f = Features::of(pos);
    let (mut open, mut end) = (0i32, 0i32);
    for (n, &config) in f.windows.iter().enumerate() {
        let [o, e] = w.patterns[n * CONFIGS + config as usize];
        open += o as i32;
        end += e as i32;
    }
    open += f.men * w.man[0] as i32 + f.kings * w.king[0] as i32;
    end += f.men * w.man[1] as i32 + f.kings * w.king[1] as i32;
    let mut common = f.tempo * w.tempo as i32
        + f.runaway[0] * w.runaway[0] as i32
        + f.runaway[1] * w.runaway[1] as i32;
    for i in bits(f.white_kings as u64) {
        common += w.king_square[i as usize] as i32;
    }
    for i in bits(f.black_kings_mirrored as u64) {
        common -= w.king_square[i as usize] as i32;
    }
    let mixed = (open * f.phase + end * (FULL_PHASE - f.phase)) / FULL_PHASE + common;
    hce::scale_endgame(pos, mixed / UNIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_hold_eight_squares_each_and_cover_the_board() {
        let all = crate::board::bitboard::BOARD;
        let mut covered = 0u64;
        for &shift in &WINDOW_SHIFT {
            let squares = WINDOW_MASK << shift;
            assert_eq!(squares & all, squares);
            covered |= squares;
        }
        assert_eq!(covered, all);
    }

    #[test]
    fn configurations_count_in_base_three() {
        // Square 1 is digit 0 of region 0; square 32 is digit 7 of region 8.
        let s1 = Square::new(1).unwrap().mask();
        let s32 = Square::new(32).unwrap().mask();
        assert_eq!(window_indices(s1, 0)[0], 1);
        assert_eq!(window_indices(0, s1)[0], 2);
        assert_eq!(window_indices(s32, 0)[8], 2187);
        assert_eq!(window_indices(BOARD_ALL, 0)[4], (CONFIGS - 1) as u16 / 2);
        assert_eq!(window_indices(0, BOARD_ALL)[4], (CONFIGS - 1) as u16);
    }

    const BOARD_ALL: u64 = crate::board::bitboard::BOARD;

    #[test]
    fn mirrored_regions_see_mirrored_configurations() {
        let pos = Position::parse("W:W18,19,25,29,22:B2,7,12,13,6").unwrap();
        let turned = Position::parse("B:B15,14,8,4,11:W31,26,21,20,27").unwrap();
        let a = window_indices(pos.men(Color::White), pos.men(Color::Black));
        let b = window_indices(turned.men(Color::White), turned.men(Color::Black));
        for n in 0..WINDOWS {
            assert_eq!(mirror_config(a[n] as usize), b[8 - n] as usize);
        }
        for i in [0, 1, 2, 100, 6560] {
            assert_eq!(mirror_config(mirror_config(i)), i);
        }
    }

    #[test]
    fn weights_vector_round_trip() {
        let w = PatternWeights::material_only();
        assert_eq!(w.to_vec().len(), WEIGHT_COUNT);
        assert_eq!(PatternWeights::from_slice(&w.to_vec()), Some(w));
        assert_eq!(PatternWeights::from_slice(&[1, 2]), None);
    }

    #[test]
    fn runaway_rank_and_phase() {
        let f = Features::of(&Position::parse("W:W18:B12").unwrap());
        assert_eq!(f.runaway, [0, 1]);
        assert_eq!((f.phase, f.men, f.tempo), (2, 0, 1));
        let f = Features::of(&Position::parse("B:W18:BK32").unwrap());
        assert_eq!(f.runaway, [0, 0]);
        assert_eq!((f.kings, f.black_kings_mirrored, f.tempo), (-1, 1, -1));
    }
}
