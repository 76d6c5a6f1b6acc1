//! Material classes and the dense combinatorial index of a class's positions.
//!
//! Tables hold White-to-move positions only. A Black-to-move position is looked up as its
//! colour flip: the board turned half round (square `s` becomes `33 - s`) with the colours
//! swapped, which is the same game with White to move (see [`Canonical`]).
//!
//! Squares are numbered 0..=31 here (FID number minus one). The index of a position of
//! class `(wm, wk, bm, bk)` is, from the most significant part down:
//!
//! 1. the men: White men on 4..=31 (28 squares; a white man on 1–4 would be a king) as a
//!    combination, then Black men on the squares 0..=27 left free by White's men — since the
//!    number of free squares depends on White's men, a prefix table of their counts keeps
//!    the men part dense (no wasted range);
//! 2. White kings among the `32 - wm - bm` empty squares;
//! 3. Black kings among the squares still empty.
//!
//! Every index of `0..size` is one legal placement and every placement has one index.
//!
//! The index is the same in every variant: all of them keep men off their crowning row
//! at rest (a Brazilian man that passes it during a capture ends elsewhere), none of
//! them treats men and kings differently here, and the colour flip is the same game in
//! each (their rules are the same for both sides; only who moves first differs).

use crate::board::bitboard::Bitboard;
use crate::board::{Color, Position, Variant};

/// Binomial coefficients `C(n, k)` for `n, k <= 32`.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, zero when `k > n`.
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// White men may stand on 4..=31 (dense squares), Black men on 0..=27.
#[cfg(test)]
const WHITE_MAN_SQUARES: u32 = 0xFFFF_FFF0;
const BLACK_MAN_SQUARES: u32 = 0x0FFF_FFFF;

/// The material of a class: piece counts with White to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// White (side to move) men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// Total pieces.
    pub fn pieces(self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// Total men (both sides).
    pub fn men(self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// Number of distinct slots for [`Material::slot`].
    pub const SLOTS: usize = 13 * 13 * 13 * 13;

    /// A dense number for the material (each count is at most 12), for tables indexed by
    /// class without hashing.
    #[inline(always)]
    pub fn slot(self) -> usize {
        ((self.white_men as usize * 13 + self.white_kings as usize) * 13 + self.black_men as usize)
            * 13
            + self.black_kings as usize
    }

    /// The class of the colour-flipped positions (the other side to move).
    pub fn flipped(self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// Whether the class holds positions: each side at least one piece, men that fit.
    pub fn is_valid(self) -> bool {
        // Sums in u32: the counts come from file headers, where any byte can be.
        self.white_men as u32 + self.white_kings as u32 >= 1
            && self.black_men as u32 + self.black_kings as u32 >= 1
            && self.white_men <= 12
            && self.black_men <= 12
            && self.pieces() <= 24
    }

    /// Whether play from this class (either side to move) may reach positions of class
    /// `to`: each side of `to` comes from one side here, with no more men (men only
    /// leave, by capture or promotion) and no more pieces (a capture removes, a promotion
    /// keeps the count). A superset of the classes a build of this one reads: a job of a
    /// distributed build loads only those.
    pub fn may_reach(self, to: Material) -> bool {
        let side = |men: u8, kings: u8| (men as u32, men as u32 + kings as u32);
        let (w, b) = (
            side(self.white_men, self.white_kings),
            side(self.black_men, self.black_kings),
        );
        let (tw, tb) = (
            side(to.white_men, to.white_kings),
            side(to.black_men, to.black_kings),
        );
        let from = |s: (u32, u32), t: (u32, u32)| t.0 <= s.0 && t.1 <= s.1;
        (from(w, tw) && from(b, tb)) || (from(w, tb) && from(b, tw))
    }

    /// The classes of exactly `pieces` pieces with `men` men in all, one of each colour
    /// pair (the one a build names), in build order: one wave of a distributed build.
    /// Each depends only on classes of fewer pieces and on earlier waves (fewer men), so
    /// the classes of a wave can be solved at the same time.
    pub fn wave(pieces: u32, men: u32) -> Vec<Material> {
        Material::all_up_to(pieces)
            .into_iter()
            .filter(|m| m.pieces() == pieces && m.men() == men && *m <= m.flipped())
            .collect()
    }

    /// Every class with `2..=n` pieces, in build order: fewer pieces first, then fewer men
    /// (captures lead to fewer pieces, promotions to fewer men), then by counts.
    pub fn all_up_to(n: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for total in 2..=n {
            for wm in 0..=total {
                for wk in 0..=total - wm {
                    for bm in 0..=total - wm - wk {
                        let bk = total - wm - wk - bm;
                        let m = Material {
                            white_men: wm as u8,
                            white_kings: wk as u8,
                            black_men: bm as u8,
                            black_kings: bk as u8,
                        };
                        if m.is_valid() {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }

    /// The file stem: the four counts, e.g. `2110` for 2 men and a king against a man.
    pub fn name(self) -> String {
        format!(
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// Parses [`Material::name`].
    pub fn from_name(name: &str) -> Option<Material> {
        let d: Vec<u8> = name
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()?;
        let [white_men, white_kings, black_men, black_kings] = d[..] else {
            return None;
        };
        let m = Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
        };
        m.is_valid().then_some(m)
    }
}

impl std::fmt::Display for Material {
    /// `wm+wk v bm+bk`, e.g. `2m1k-1m0k`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

/// Internal bitboard → dense 32-bit square set (bit `s` = square `s + 1`).
#[inline(always)]
pub fn dense(b: Bitboard) -> u32 {
    ((b & 0xF)
        | ((b >> 1) & 0xFF0)
        | ((b >> 2) & 0xF_F000)
        | ((b >> 3) & 0xFF0_0000)
        | ((b >> 4) & 0xF000_0000)) as u32
}

/// Dense square set → internal bitboard.
#[inline(always)]
pub fn sparse(d: u32) -> Bitboard {
    let d = d as u64;
    (d & 0xF)
        | ((d & 0xFF0) << 1)
        | ((d & 0xF_F000) << 2)
        | ((d & 0xFF0_0000) << 3)
        | ((d & 0xF000_0000) << 4)
}

/// A position in table form: dense square sets with White to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Canonical {
    /// White men.
    pub white_men: u32,
    /// White kings.
    pub white_kings: u32,
    /// Black men.
    pub black_men: u32,
    /// Black kings.
    pub black_kings: u32,
}

impl Canonical {
    /// The table form of `pos`: itself with White to move, else its colour flip.
    #[inline]
    pub fn of(pos: &Position) -> Canonical {
        let (w, b) = (Color::White, Color::Black);
        match pos.side_to_move() {
            Color::White => Canonical {
                white_men: dense(pos.men(w)),
                white_kings: dense(pos.kings(w)),
                black_men: dense(pos.men(b)),
                black_kings: dense(pos.kings(b)),
            },
            Color::Black => Canonical {
                white_men: dense(pos.men(b)).reverse_bits(),
                white_kings: dense(pos.kings(b)).reverse_bits(),
                black_men: dense(pos.men(w)).reverse_bits(),
                black_kings: dense(pos.kings(w)).reverse_bits(),
            },
        }
    }

    /// Its material class.
    #[inline]
    pub fn material(&self) -> Material {
        Material {
            white_men: self.white_men.count_ones() as u8,
            white_kings: self.white_kings.count_ones() as u8,
            black_men: self.black_men.count_ones() as u8,
            black_kings: self.black_kings.count_ones() as u8,
        }
    }

    /// The position, White to move, under the rules of `variant` (the table form is the
    /// same in every variant: they all play on the internal board, see
    /// [`crate::board::Variant`]).
    pub fn position(&self, variant: Variant) -> Position {
        let white = sparse(self.white_men | self.white_kings);
        let black = sparse(self.black_men | self.black_kings);
        let kings = sparse(self.white_kings | self.black_kings);
        Position::from_sets(white, black, kings, Color::White).with_variant(variant)
    }
}

/// Colex rank of a set among the sets of its size.
#[inline(always)]
fn rank_set(mut set: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += binomial(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    rank
}

/// The set of `k` elements with colex rank `rank`.
#[inline(always)]
fn unrank_set(mut rank: u64, k: u32) -> u32 {
    let mut set = 0;
    let mut top = 32;
    for i in (1..=k).rev() {
        // The largest p < top with C(p, i) <= rank, by bisection (C(i - 1, i) = 0).
        let (mut lo, mut hi) = (i - 1, top - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if binomial(mid, i) <= rank {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let p = lo;
        rank -= binomial(p, i);
        set |= 1 << p;
        top = p;
    }
    set
}

/// `set` with the squares of `taken` squeezed out: each element moves down by the number
/// of taken squares below it.
#[inline(always)]
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let sq = s.trailing_zeros();
        let below = (taken & ((1u32 << sq) - 1)).count_ones();
        out |= 1 << (sq - below);
        s &= s - 1;
    }
    out
}

/// The inverse of [`squeeze`]: spreads `set` over the squares of `free` (the `q`-th
/// element goes to the `q`-th free square).
#[inline(always)]
fn spread(set: u32, free: u32) -> u32 {
    let mut out = 0;
    let mut f = free;
    let mut q = 0;
    let mut s = set;
    while s != 0 {
        let want = s.trailing_zeros();
        while q < want {
            f &= f - 1;
            q += 1;
        }
        out |= f & f.wrapping_neg();
        s &= s - 1;
    }
    out
}

/// Index arithmetic for one class.
#[derive(Clone, Debug)]
pub struct ClassIndex {
    /// The class.
    pub material: Material,
    /// Number of positions.
    pub size: u64,
    /// `men_offset[r]`: men-part index of the first placement whose White men have rank `r`.
    men_offset: Vec<u64>,
    white_king_ways: u64,
    black_king_ways: u64,
}

impl ClassIndex {
    /// The index of a valid class.
    pub fn new(material: Material) -> ClassIndex {
        let (wm, bm) = (material.white_men as u32, material.black_men as u32);
        let white_sets = binomial(28, wm);
        let mut men_offset = Vec::with_capacity(white_sets as usize + 1);
        let mut total = 0;
        for r in 0..white_sets {
            men_offset.push(total);
            let whites = unrank_set(r, wm) << 4;
            let free = 28 - (whites & BLACK_MAN_SQUARES).count_ones();
            total += binomial(free, bm);
        }
        men_offset.push(total);
        let empty = 32 - wm - bm;
        let white_king_ways = binomial(empty, material.white_kings as u32);
        let black_king_ways = binomial(
            empty - material.white_kings as u32,
            material.black_kings as u32,
        );
        ClassIndex {
            material,
            size: total * white_king_ways * black_king_ways,
            men_offset,
            white_king_ways,
            black_king_ways,
        }
    }

    /// The index of a position of this class (the caller checks the class).
    #[inline]
    pub fn index(&self, c: &Canonical) -> u64 {
        let white_rank = rank_set(c.white_men >> 4);
        let black_rank = rank_set(squeeze(c.black_men, c.white_men & BLACK_MAN_SQUARES));
        let men = self.men_offset[white_rank as usize] + black_rank;
        let men_set = c.white_men | c.black_men;
        let wk = rank_set(squeeze(c.white_kings, men_set));
        let bk = rank_set(squeeze(c.black_kings, men_set | c.white_kings));
        (men * self.white_king_ways + wk) * self.black_king_ways + bk
    }

    /// The position with index `index < size`.
    pub fn unindex(&self, index: u64) -> Canonical {
        let m = self.material;
        let bk = index % self.black_king_ways;
        let rest = index / self.black_king_ways;
        let wk = rest % self.white_king_ways;
        let men = rest / self.white_king_ways;
        let white_rank = self.men_offset.partition_point(|&o| o <= men) - 1;
        let black_rank = men - self.men_offset[white_rank];
        let white_men = unrank_set(white_rank as u64, m.white_men as u32) << 4;
        let black_free = BLACK_MAN_SQUARES & !white_men;
        let black_men = spread(unrank_set(black_rank, m.black_men as u32), black_free);
        let men_set = white_men | black_men;
        let white_kings = spread(unrank_set(wk, m.white_kings as u32), !men_set);
        let black_kings = spread(
            unrank_set(bk, m.black_kings as u32),
            !(men_set | white_kings),
        );
        Canonical {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }
}

/// The next set of the same size in colex (numeric) order (Gosper's hack).
#[inline(always)]
fn next_set(x: u32) -> u64 {
    let x = x as u64;
    let low = x & x.wrapping_neg();
    let r = x + low;
    (((r ^ x) >> 2) / low) | r
}

impl ClassIndex {
    /// Calls `f` for every index of `range` in order with its position; faster than
    /// [`ClassIndex::unindex`] one by one (the kings step to the next set in place).
    pub fn walk<E>(
        &self,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, &Canonical) -> Result<(), E>,
    ) -> Result<(), E> {
        let m = self.material;
        let (wk, bk) = (m.white_kings as u32, m.black_kings as u32);
        let empty = 32 - m.white_men as u32 - m.black_men as u32;
        let mut i = range.start;
        while i < range.end {
            let mut c = self.unindex(i);
            let men = c.white_men | c.black_men;
            let mut wk_set = squeeze(c.white_kings, men);
            let mut bk_set = squeeze(c.black_kings, men | c.white_kings);
            loop {
                f(i, &c)?;
                i += 1;
                if i >= range.end {
                    break;
                }
                if bk > 0 {
                    let next = next_set(bk_set);
                    if next < 1u64 << (empty - wk) {
                        bk_set = next as u32;
                        c.black_kings = spread(bk_set, !(men | c.white_kings));
                        continue;
                    }
                }
                if wk > 0 {
                    let next = next_set(wk_set);
                    if next < 1u64 << empty {
                        wk_set = next as u32;
                        c.white_kings = spread(wk_set, !men);
                        bk_set = (1u32 << bk) - 1;
                        c.black_kings = spread(bk_set, !(men | c.white_kings));
                        continue;
                    }
                }
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_partition_the_classes_and_lead_only_to_earlier_ones() {
        let named = |n: &str| Material::from_name(n).unwrap();
        // A promotion, a capture, the colour flip; never more men or more pieces a side.
        assert!(named("1101").may_reach(named("0201")));
        assert!(named("1102").may_reach(named("1101")));
        assert!(named("1102").may_reach(named("0211")));
        assert!(!named("0201").may_reach(named("1101")));
        assert!(!named("1101").may_reach(named("1102")));
        for pieces in 2..=7 {
            let mut waves: Vec<Material> = (0..=pieces)
                .flat_map(|m| Material::wave(pieces, m))
                .collect();
            let mut pairs: Vec<Material> = Material::all_up_to(pieces)
                .into_iter()
                .filter(|m| m.pieces() == pieces && *m <= m.flipped())
                .collect();
            waves.sort();
            pairs.sort();
            assert_eq!(waves, pairs, "{pieces} pieces");
            for &m in &waves {
                for to in Material::all_up_to(pieces) {
                    let earlier = to.pieces() < pieces || to.men() < m.men();
                    let own = to == m || to == m.flipped();
                    assert!(!m.may_reach(to) || earlier || own, "{m} reaches {to}");
                }
            }
        }
    }

    /// Found by fuzzing (fuzz/regressions/egdb/): a header's counts of 255 overflowed
    /// the sums in `is_valid` and `pieces`.
    #[test]
    fn counts_from_any_header_are_summed_without_overflow() {
        let m = Material {
            white_men: 0,
            white_kings: 255,
            black_men: 255,
            black_kings: 255,
        };
        assert_eq!(m.pieces(), 765);
        assert_eq!(m.men(), 255);
        assert!(!m.is_valid());
    }

    #[test]
    fn dense_and_sparse_are_inverse() {
        for s in 0..32 {
            assert_eq!(dense(sparse(1 << s)), 1 << s);
        }
        assert_eq!(sparse(u32::MAX), crate::board::bitboard::BOARD);
    }

    #[test]
    fn every_index_round_trips() {
        for m in Material::all_up_to(4) {
            let ci = ClassIndex::new(m);
            for i in 0..ci.size {
                let c = ci.unindex(i);
                assert_eq!(c.material(), m);
                assert_eq!(c.white_men & !WHITE_MAN_SQUARES, 0);
                assert_eq!(c.black_men & !BLACK_MAN_SQUARES, 0);
                let all = [c.white_men, c.white_kings, c.black_men, c.black_kings];
                assert_eq!(all.iter().fold(0, |a, s| a | s).count_ones(), m.pieces());
                assert_eq!(ci.index(&c), i, "{m} {i}");
            }
        }
    }

    #[test]
    fn walk_visits_every_index_in_order() {
        for m in Material::all_up_to(4) {
            let ci = ClassIndex::new(m);
            let mut next = 3.min(ci.size);
            ci.walk(next..ci.size, |i, c| {
                assert_eq!(i, next);
                assert_eq!(*c, ci.unindex(i), "{m} {i}");
                next += 1;
                Ok::<(), ()>(())
            })
            .unwrap();
            assert_eq!(next, ci.size);
        }
    }

    #[test]
    fn sizes_match_the_published_counts() {
        let total: u64 = Material::all_up_to(3)
            .into_iter()
            .map(|m| ClassIndex::new(m).size)
            .sum();
        assert_eq!(2 * total, 399_040);
    }

    #[test]
    fn flip_is_an_involution() {
        let pos = Position::parse("B:W18,K30:B5,K9").unwrap();
        let c = Canonical::of(&pos);
        assert_eq!(
            c.material().flipped(),
            Canonical::of(&pos.with_side(Color::White)).material()
        );
        let back = Canonical::of(&c.position(Variant::Italian).with_side(Color::Black));
        assert_eq!(back, Canonical::of(&pos.with_side(Color::White)));
    }
}
