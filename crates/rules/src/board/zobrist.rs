//! Zobrist hashing keys, generated at compile time from a fixed seed (so keys, and
//! therefore searches, are identical on every run and machine).

use super::position::Color;

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

/// Keys indexed by `[color][is king][bit]`.
const PIECE_KEYS: [[[u64; 36]; 2]; 2] = {
    let mut keys = [[[0u64; 36]; 2]; 2];
    let mut state = 0x00DA_11E7_A5EE_D000u64;
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 2 {
            let mut bit = 0;
            while bit < 36 {
                let (s, k) = splitmix64(state);
                state = s;
                keys[color][kind][bit] = k;
                bit += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    keys
};

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(0x5EED_B1AC_0000_0001).1;

/// The key of one piece on one internal bit.
#[inline(always)]
pub fn piece_key(color: Color, king: bool, bit: u32) -> u64 {
    PIECE_KEYS[color as usize][king as usize][bit as usize]
}

/// The combined key of a set of pieces of one color and kind.
#[inline(always)]
pub fn set_key(color: Color, king: bool, set: u64) -> u64 {
    super::bitboard::bits(set).fold(0, |k, bit| k ^ piece_key(color, king, bit))
}

/// Keys of the house rules, one a rule ([`super::HouseRule`]'s bits).
const HOUSE_KEYS: [u64; 8] = {
    let mut keys = [0u64; 8];
    let mut state = 0x4011_5E00_D4A4_0000u64;
    let mut i = 0;
    while i < 8 {
        let (s, k) = splitmix64(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

/// The key of a set of house rules (0 for none): positions under other rules never share
/// a key, so a table kept across games cannot mix them.
pub const fn house_key(bits: u8) -> u64 {
    let mut key = 0;
    let mut i = 0;
    while i < 8 {
        if bits & (1 << i) != 0 {
            key ^= HOUSE_KEYS[i];
        }
        i += 1;
    }
    key
}
