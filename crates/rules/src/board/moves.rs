//! The [`Move`] value: from square, to square and the set of captured squares.

use super::bitboard::{Bitboard, bits};
use super::square::Square;

/// A move, identified by its from square, to square and set of captured squares (two
/// capture paths with the same three are the same move). Packed in one `u64`: captured
/// squares in bits 0..36 (internal layout), from in bits 40..46, to in bits 48..54,
/// bit 62 for a man crowned during its capture (Russian), bit 61 for a huff (Damka's
/// house rule: the mover's piece on the bit in 54..60 is removed), bit 63 always set.
///
/// From and to may be equal: a king can capture around a ring and come home.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Move(u64);

impl Move {
    /// The empty move, used as a "none" value in tables.
    pub const NONE: Move = Move(0);

    /// Flag bit: a man crowned during its capture (Russian rules), wherever it ends.
    const CROWNS: u64 = 1 << 62;

    /// Flag bit: the move declined a capture and its side's piece on the bit in 54..60
    /// (where it stands after the move) is huffed.
    const HUFF: u64 = 1 << 61;

    /// The flags that [`crate::board::Position::play`] reads apart (crowning, huffing).
    pub(crate) const FLAGS: u64 = Move::CROWNS | Move::HUFF;

    /// The same move with the mover's piece on internal bit `bit` (after the move)
    /// removed at its end: Damka's huffing house rule.
    #[inline]
    pub(crate) const fn huffing(self, bit: u32) -> Move {
        Move(self.0 | Move::HUFF | ((bit as u64) << 54))
    }

    /// The internal bit of the piece this move huffs, if it huffs one.
    #[inline]
    pub(crate) const fn huffed_bit(self) -> Option<u32> {
        if self.0 & Move::HUFF != 0 {
            Some(((self.0 >> 54) & 63) as u32)
        } else {
            None
        }
    }

    /// The square of the mover's piece this move huffs (removes at its end) under
    /// Damka's huffing house rule, if any.
    pub fn huffed(self) -> Option<Square> {
        self.huffed_bit().map(Square::from_bit)
    }

    /// The same move, marked as crowning its man on the way (Russian draughts: a man that
    /// reaches the last row during a capture goes on as a king).
    #[inline(always)]
    pub(crate) const fn crowned(self) -> Move {
        Move(self.0 | Move::CROWNS)
    }

    /// Whether the moving man is crowned during the move even if it ends off the last row
    /// (only Russian captures set this; a man ending on its last row is crowned anyway).
    #[inline(always)]
    pub const fn crowns(self) -> bool {
        self.0 & Move::CROWNS != 0
    }

    /// Builds a move from internal bit indices and a captured set.
    #[inline(always)]
    pub(crate) const fn from_bits(from: u32, to: u32, captures: Bitboard) -> Move {
        Move(captures | ((from as u64) << 40) | ((to as u64) << 48) | (1 << 63))
    }

    /// Builds a move from squares; `captured` lists the captured squares.
    pub fn new(from: Square, to: Square, captured: &[Square]) -> Move {
        let set = captured.iter().fold(0, |acc, s| acc | s.mask());
        Move::from_bits(from.bit(), to.bit(), set)
    }

    /// Internal bit index of the from square.
    #[inline(always)]
    pub(crate) const fn src_bit(self) -> u32 {
        ((self.0 >> 40) & 63) as u32
    }

    /// Internal bit index of the to square.
    #[inline(always)]
    pub(crate) const fn dst_bit(self) -> u32 {
        ((self.0 >> 48) & 63) as u32
    }

    /// The captured squares as an internal bitboard.
    #[inline(always)]
    pub(crate) const fn captures(self) -> Bitboard {
        self.0 & 0xF_FFFF_FFFF
    }

    /// The square the piece leaves.
    pub const fn from(self) -> Square {
        Square::from_bit(self.src_bit())
    }

    /// The square the piece ends on.
    pub const fn to(self) -> Square {
        Square::from_bit(self.dst_bit())
    }

    /// Whether this move captures.
    pub const fn is_capture(self) -> bool {
        self.captures() != 0
    }

    /// Whether a piece leaves the board: a capture, or a huff (Damka's house rule). One
    /// test, as [`Move::is_capture`].
    #[inline(always)]
    pub const fn takes_a_piece(self) -> bool {
        self.0 & (0xF_FFFF_FFFF | Move::HUFF) != 0
    }

    /// Number of pieces captured.
    pub const fn capture_count(self) -> u32 {
        self.captures().count_ones()
    }

    /// The captured squares in ascending order.
    pub fn captured(self) -> Vec<Square> {
        let mut v: Vec<Square> = bits(self.captures()).map(Square::from_bit).collect();
        v.sort();
        v
    }

    /// Whether this is the "none" value.
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The raw packed value (for hashing into tables).
    pub const fn raw(self) -> u64 {
        self.0
    }
}
