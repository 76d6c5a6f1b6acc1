//! Squares in FID numbering (Art. 2.4) and their internal bit positions.
//!
//! ```text
//!      Black
//!   1   2   3   4        row 0 (White crowns here)
//!     5   6   7   8      row 1
//!   9  10  11  12        row 2
//!    13  14  15  16      row 3
//!  17  18  19  20        row 4
//!    21  22  23  24      row 5
//!  25  26  27  28        row 6
//!    29  30  31  32      row 7 (Black crowns here)
//!      White
//! ```
//! Square 1 is the top-left dark square, 32 the bottom-right one.
//!
//! Internally each pair of rows takes nine bits, with one unused "ghost" bit between
//! an even row and the odd row below it (bits 4, 13, 22, 31). With that layout every
//! diagonal step is a constant shift: −5 up-left, −4 up-right, +4 down-left, +5 down-right,
//! and a step off the board lands on a ghost bit or outside bits 0..36.

use std::fmt;

/// A dark square, numbered 1..=32 as in the FID rulebook.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square numbered `n`, if `n` is in 1..=32.
    pub const fn new(n: u8) -> Option<Square> {
        if n >= 1 && n <= 32 {
            Some(Square(n))
        } else {
            None
        }
    }

    /// The FID number, 1..=32.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Row from Black's side, 0..=7 (row 0 holds squares 1–4).
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 4
    }

    /// Column from the left, 0..=7.
    pub const fn col(self) -> u8 {
        let k = (self.0 - 1) % 4;
        if self.row().is_multiple_of(2) {
            2 * k
        } else {
            2 * k + 1
        }
    }

    /// The square at a row and column, if that is a dark square on the board.
    pub const fn from_row_col(row: u8, col: u8) -> Option<Square> {
        if row > 7 || col > 7 || !(row + col).is_multiple_of(2) {
            return None;
        }
        Some(Square(row * 4 + col / 2 + 1))
    }

    /// Internal bit index of this square (the bitboards' layout; the evaluation indexes
    /// its tables by it).
    pub const fn bit(self) -> u32 {
        let r = self.row() as u32;
        let k = ((self.0 - 1) % 4) as u32;
        9 * (r / 2) + 5 * (r % 2) + k
    }

    /// Single-bit mask of this square in the internal layout.
    pub const fn mask(self) -> u64 {
        1u64 << self.bit()
    }

    /// The square at internal bit index `bit`. The bit must be a real square.
    pub const fn from_bit(bit: u32) -> Square {
        let pair = bit / 9;
        let within = bit % 9;
        let (row, k) = if within < 4 {
            (2 * pair, within)
        } else {
            (2 * pair + 1, within - 5)
        };
        Square((row * 4 + k + 1) as u8)
    }

    /// All 32 squares in ascending order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=32).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_round_trip_and_ghosts() {
        let mut seen = 0u64;
        for sq in Square::all() {
            assert_eq!(Square::from_bit(sq.bit()), sq);
            seen |= sq.mask();
        }
        assert_eq!(seen, crate::board::bitboard::BOARD);
        for ghost in [4, 13, 22, 31] {
            assert_eq!(seen & (1 << ghost), 0);
        }
    }

    #[test]
    fn corners_and_rows() {
        let one = Square::new(1).unwrap();
        assert_eq!((one.row(), one.col()), (0, 0));
        let last = Square::new(32).unwrap();
        assert_eq!((last.row(), last.col()), (7, 7));
        assert_eq!(Square::from_row_col(5, 3), Square::new(22));
        assert_eq!(Square::from_row_col(5, 4), None);
        assert_eq!(Square::new(0), None);
        assert_eq!(Square::new(33), None);
    }

    #[test]
    fn shifts_follow_diagonals() {
        // 22 (row 5, col 3): up-left 18, up-right 19, down-left 26, down-right 27.
        let s = Square::new(22).unwrap().bit();
        assert_eq!(Square::from_bit(s - 5).number(), 18);
        assert_eq!(Square::from_bit(s - 4).number(), 19);
        assert_eq!(Square::from_bit(s + 4).number(), 26);
        assert_eq!(Square::from_bit(s + 5).number(), 27);
    }
}
