//! The book key: a 64-bit hash of a position (pieces, side to move, the game) that any
//! program can compute from the position alone, documented in `docs/book.md`.
//!
//! It is not the engine's internal Zobrist key (which is free to change): 138 numbers
//! drawn, in a stated order, from SplitMix64 started at [`SEED`]:
//!
//! 1. for each kind in the order white man, black man, white king, black king, and for
//!    each square numbered 1 to 32 *in the game's own numbering* (FID for Italian, PDN for
//!    English, from White's side for Spanish, a1 = 1 … h8 = 32 for the algebraic
//!    games): one key (128 numbers);
//! 2. the key of Black to move;
//! 3. one key for each game: English (21), Italian (22), Russian (25), Brazilian (26),
//!    then the games added since, each drawn after the others so that no key changes:
//!    Pool (23), Czech (29), Spanish (24), Thai (31), Damka (42).
//!
//! The key of a position is the XOR of the keys of its pieces, of Black to move when
//! Black is to move, and of its game.

use crate::board::{Color, Position, Square, Variant};

/// SplitMix64's starting state for the book keys.
pub const SEED: u64 = 0xB00C_D8A9_0000_0001;

/// SplitMix64: the next state and its output.
const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// Number of keys drawn: 4 kinds × 32 squares, Black to move, 9 games.
const KEYS: usize = 4 * 32 + 1 + 9;

/// The keys, in the order they are drawn (see the module documentation).
pub const TABLE: [u64; KEYS] = {
    let mut keys = [0u64; KEYS];
    let mut state = SEED;
    let mut i = 0;
    while i < KEYS {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

/// Index of the Black-to-move key in [`TABLE`].
const BLACK_TO_MOVE: usize = 128;

/// The index of `variant` among the game keys: the first four in the order of their PDN
/// `GameType`, then each game added later after them.
const fn game_index(variant: Variant) -> usize {
    match variant {
        Variant::English => 0,
        Variant::Italian => 1,
        Variant::Russian => 2,
        Variant::Brazilian => 3,
        Variant::Pool => 4,
        Variant::Czech => 5,
        Variant::Spanish => 6,
        Variant::Thai => 7,
        Variant::Damka => 8,
    }
}

/// The key of a piece kind (0 white man, 1 black man, 2 white king, 3 black king) on the
/// square numbered `number` (1..=32) in the game's numbering.
pub fn piece_key(kind: usize, number: u8) -> u64 {
    TABLE[(kind % 4) * 32 + (usize::from(number).clamp(1, 32) - 1)]
}

/// The book key of `position` in its own game.
///
/// ```
/// use damiera_engine::board::Position;
/// use damiera_engine::book::key::book_key;
/// let start = Position::start();
/// assert_ne!(book_key(&start), book_key(&start.with_side(damiera_engine::board::Color::Black)));
/// ```
pub fn book_key(position: &Position) -> u64 {
    let variant = position.variant();
    let mut key = TABLE[BLACK_TO_MOVE + 1 + game_index(variant)];
    if position.side_to_move() == Color::Black {
        key ^= TABLE[BLACK_TO_MOVE];
    }
    for sq in Square::all() {
        if let Some(piece) = position.piece_at(sq) {
            let kind = match (piece.color, piece.king) {
                (Color::White, false) => 0,
                (Color::Black, false) => 1,
                (Color::White, true) => 2,
                (Color::Black, true) => 3,
            };
            key ^= piece_key(kind, variant.number_of(sq));
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_splitmix64_from_the_seed() {
        let mut rng = crate::rng::Rng::new(SEED);
        for k in TABLE {
            assert_eq!(k, rng.next_u64());
        }
        // The first key, as docs/book.md states it (another language checks against it).
        assert_eq!(format!("{:016x}", TABLE[0]), "fcf3df6d8f03715f");
    }

    #[test]
    fn keys_tell_games_and_sides_apart() {
        let mut seen = std::collections::BTreeSet::new();
        for v in Variant::ALL {
            let p = Position::start_of(v);
            assert!(seen.insert(book_key(&p)));
            assert!(seen.insert(book_key(&p.with_side(p.side_to_move().opponent()))));
        }
    }
}
