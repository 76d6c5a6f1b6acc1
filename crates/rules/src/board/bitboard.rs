//! Bitboard constants and helpers for the internal 36-bit layout (see `board::square`).

/// A set of squares in the internal layout.
pub type Bitboard = u64;

/// The 32 real squares.
pub const BOARD: Bitboard = 0xF_7FBF_DFEF;

/// The unused bits between row pairs.
pub const GHOSTS: Bitboard = (1 << 4) | (1 << 13) | (1 << 22) | (1 << 31);

/// Row 0, squares 1–4: White men are crowned here.
pub const WHITE_CROWN_ROW: Bitboard = 0xF;

/// Row 7, squares 29–32: Black men are crowned here.
pub const BLACK_CROWN_ROW: Bitboard = 0xF << 32;

/// Diagonal steps as bit shifts.
pub const UP_LEFT: i32 = -5;
/// One step up and to the right.
pub const UP_RIGHT: i32 = -4;
/// One step down and to the left.
pub const DOWN_LEFT: i32 = 4;
/// One step down and to the right.
pub const DOWN_RIGHT: i32 = 5;
/// All four diagonal steps.
pub const ALL_DIRECTIONS: [i32; 4] = [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT];

/// Shifts every square of `b` one step in direction `d`; squares leaving the board vanish.
#[inline(always)]
pub const fn step(b: Bitboard, d: i32) -> Bitboard {
    (if d > 0 { b << d } else { b >> -d }) & BOARD
}

/// Iterates over the bit indices of a bitboard, lowest first.
#[inline(always)]
pub fn bits(mut b: Bitboard) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros();
            b &= b - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_32_squares() {
        assert_eq!(BOARD.count_ones(), 32);
        assert_eq!(BOARD >> 36, 0);
        assert_eq!(BOARD & GHOSTS, 0);
    }
}
