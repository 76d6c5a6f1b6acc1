//! The [`Position`]: pieces as bitboards, side to move and an incremental Zobrist key.

use super::bitboard::{BLACK_CROWN_ROW, BOARD, Bitboard, WHITE_CROWN_ROW};
use super::house::HouseRules;
use super::moves::Move;
use super::square::Square;
use super::variant::Variant;
use super::zobrist;

/// A side. White moves first (Art. 3.3) and plays up the board, toward squares 1–4.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Starts on 21–32.
    White = 0,
    /// Starts on 1–12.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The row where this side's men are crowned.
    #[inline(always)]
    pub const fn crown_row(self) -> Bitboard {
        match self {
            Color::White => WHITE_CROWN_ROW,
            Color::Black => BLACK_CROWN_ROW,
        }
    }
}

/// A piece: a man or a king of one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Whether it is a king.
    pub king: bool,
}

/// A position: who stands where and who is to move. Positions are small values; a
/// move makes a new one ([`Position::play`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    side: Color,
    variant: Variant,
    house: HouseRules,
    key: u64,
}

impl Position {
    /// The starting position: Black on 1–12, White on 21–32, White to move.
    pub fn start() -> Position {
        let black: Bitboard = (1..=12)
            .filter_map(Square::new)
            .fold(0, |b, s| b | s.mask());
        let white: Bitboard = (21..=32)
            .filter_map(Square::new)
            .fold(0, |b, s| b | s.mask());
        Position::from_sets(white, black, 0, Color::White)
    }

    /// The starting position of a variant: as [`Position::start`], with the variant's
    /// first mover to move (Black in English checkers) and its rows of men (two in Thai
    /// draughts: Black on 1–8, White on 25–32).
    pub fn start_of(variant: Variant) -> Position {
        let rows = variant.rules().rows_of_men;
        if rows == 3 {
            return Position::start()
                .with_side(variant.first_mover())
                .with_variant(variant);
        }
        let men = 4 * rows;
        let black: Bitboard = (1..=men)
            .filter_map(Square::new)
            .fold(0, |b, s| b | s.mask());
        let white: Bitboard = (33 - men..=32)
            .filter_map(Square::new)
            .fold(0, |b, s| b | s.mask());
        Position::from_sets(white, black, 0, variant.first_mover()).with_variant(variant)
    }

    /// The same pieces and side to move under the rules of `variant` (house rules are
    /// kept for Damka and dropped for any other game).
    #[inline]
    pub const fn with_variant(self, variant: Variant) -> Position {
        // Cleared while the game is still the old one (only Damka has any to clear).
        let mut pos = if matches!(variant, Variant::Damka) {
            self
        } else {
            self.with_house_rules(HouseRules::NONE)
        };
        pos.variant = variant;
        pos
    }

    /// The same position under the house rules `house`, in Damka (any other game has
    /// none: front ends refuse them with [`HouseRules::check_variant`]). Their key is
    /// part of the position's.
    #[inline]
    pub const fn with_house_rules(mut self, house: HouseRules) -> Position {
        if !matches!(self.variant, Variant::Damka) {
            return self;
        }
        self.key ^= zobrist::house_key(self.house.bits()) ^ zobrist::house_key(house.bits());
        self.house = house;
        self
    }

    /// The house rules this position is played under (none but in Damka).
    #[inline(always)]
    pub const fn house_rules(&self) -> HouseRules {
        self.house
    }

    /// The rules this position is played by.
    #[inline(always)]
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// Builds a position from internal sets; the caller guarantees they are disjoint and on
    /// the board (kings ⊆ white ∪ black).
    pub fn from_sets(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Self {
        let mut pos = Position {
            pieces: [white, black],
            kings,
            side,
            variant: Variant::Italian,
            house: HouseRules::NONE,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Builds a position from a list of pieces. Checks nothing beyond one piece a square
    /// (the text parsers check the rest).
    pub fn from_pieces(pieces: &[(Square, Piece)], side: Color) -> Position {
        let (mut white, mut black, mut kings) = (0, 0, 0);
        for &(sq, piece) in pieces {
            let m = sq.mask();
            white &= !m;
            black &= !m;
            kings &= !m;
            match piece.color {
                Color::White => white |= m,
                Color::Black => black |= m,
            }
            if piece.king {
                kings |= m;
            }
        }
        Position::from_sets(white, black, kings, side)
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::house_key(self.house.bits());
        if self.side == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        for color in [Color::White, Color::Black] {
            key ^= zobrist::set_key(color, false, self.men(color));
            key ^= zobrist::set_key(color, true, self.kings(color));
        }
        key
    }

    /// The side to move.
    #[inline(always)]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key (kept up to date by [`Position::play`]).
    #[inline(always)]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// All pieces of one side.
    #[inline(always)]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color as usize]
    }

    /// Men of one side.
    #[inline(always)]
    pub const fn men(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & !self.kings
    }

    /// Kings of one side.
    #[inline(always)]
    pub const fn kings(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & self.kings
    }

    /// Kings of both sides.
    #[inline(always)]
    pub const fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Occupied squares.
    #[inline(always)]
    pub const fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Empty squares.
    #[inline(always)]
    pub const fn empty(&self) -> Bitboard {
        BOARD & !self.occupied()
    }

    /// Number of pieces of one side.
    pub const fn count(&self, color: Color) -> u32 {
        self.pieces[color as usize].count_ones()
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let m = sq.mask();
        let king = self.kings & m != 0;
        if self.pieces[0] & m != 0 {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else if self.pieces[1] & m != 0 {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else {
            None
        }
    }

    /// All pieces with their squares, in ascending square order.
    pub fn piece_list(&self) -> Vec<(Square, Piece)> {
        Square::all()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
            .collect()
    }

    /// The position after `mv`, which must be legal here (see [`crate::movegen`]).
    /// Captured pieces leave the board and a man on its crowning row is crowned (Art. 4.5).
    #[inline(always)]
    pub fn play(&self, mv: Move) -> Position {
        // A Russian man crowned during a capture may end it anywhere (`Move::crowns`),
        // and a Damka move may huff: both rare, read apart from the plain move.
        if mv.raw() & Move::FLAGS != 0 {
            return self.play_flagged(mv);
        }
        self.play_by(self.side, mv, false)
    }

    /// [`Position::play`] of a move that crowns on the way or huffs.
    #[inline(never)]
    fn play_flagged(&self, mv: Move) -> Position {
        let next = self.play_by(self.side, mv, mv.crowns());
        match mv.huffed_bit() {
            Some(bit) => next.huff(self.side, bit),
            None => next,
        }
    }

    /// The position with `us`'s piece on internal bit `bit` removed (Damka's huffing).
    fn huff(mut self, us: Color, bit: u32) -> Position {
        let mask = 1u64 << bit;
        if self.pieces[us as usize] & mask == 0 {
            return self;
        }
        let king = self.kings & mask != 0;
        self.pieces[us as usize] &= !mask;
        self.kings &= !mask;
        self.key ^= zobrist::piece_key(us, king, bit);
        self
    }

    /// [`Position::play`] for a caller that knows the side to move (`WHITE`) and that `mv`
    /// has no [`Move::crowns`] flag (every variant but Russian): the Italian perft, where
    /// the side test and the flag test are a measurable part of each node.
    #[inline(always)]
    pub(crate) fn play_plain<const WHITE: bool>(&self, mv: Move) -> Position {
        let us = if WHITE { Color::White } else { Color::Black };
        debug_assert!(self.side == us && !mv.crowns());
        self.play_by(us, mv, false)
    }

    #[inline(always)]
    fn play_by(&self, us: Color, mv: Move, crowned_on_the_way: bool) -> Position {
        let them = us.opponent();
        let (from, to) = (mv.src_bit(), mv.dst_bit());
        let from_mask = 1u64 << from;
        let to_mask = 1u64 << to;
        let was_king = self.kings & from_mask != 0;
        let is_king = was_king || to_mask & us.crown_row() != 0 || crowned_on_the_way;
        let caps = mv.captures();

        let mut next = *self;
        next.pieces[us as usize] = (self.pieces[us as usize] & !from_mask) | to_mask;
        next.pieces[them as usize] &= !caps;
        next.kings = (self.kings & !from_mask & !caps) | if is_king { to_mask } else { 0 };
        next.side = them;

        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        key ^= zobrist::piece_key(us, was_king, from) ^ zobrist::piece_key(us, is_king, to);
        if caps != 0 {
            let cap_kings = caps & self.kings;
            key ^= zobrist::set_key(them, true, cap_kings);
            key ^= zobrist::set_key(them, false, caps & !cap_kings);
        }
        next.key = key;
        next
    }

    /// The same position with the other side to move (for tests and analysis tools).
    pub fn with_side(&self, side: Color) -> Position {
        Position::from_sets(self.pieces[0], self.pieces[1], self.kings, side)
            .with_variant(self.variant)
            .with_house_rules(self.house)
    }

    /// Checks the board invariants: sides disjoint, on the board, kings belong to a side,
    /// no man on its own crowning row, at most 12 pieces a side, key up to date.
    pub fn check_invariants(&self) -> Result<(), String> {
        let [w, b] = self.pieces;
        if w & b != 0 {
            return Err("a square holds a piece of both sides".into());
        }
        if (w | b) & !BOARD != 0 {
            return Err("a piece stands off the board".into());
        }
        if self.kings & !(w | b) != 0 {
            return Err("a king bit without a piece".into());
        }
        if self.men(Color::White) & WHITE_CROWN_ROW != 0
            || self.men(Color::Black) & BLACK_CROWN_ROW != 0
        {
            return Err("a man stands on its own crowning row".into());
        }
        if w.count_ones() > 12 || b.count_ones() > 12 {
            return Err("more than 12 pieces a side".into());
        }
        if self.key != self.compute_key() {
            return Err("incremental key differs from a full recompute".into());
        }
        Ok(())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}
