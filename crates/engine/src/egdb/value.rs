//! Database values: win, loss or draw for the side to move, with the distance to the end.
//!
//! A win always takes an odd number of plies (the winner makes the last move) and a loss an
//! even number, so a value code halves the distance:
//!
//! | code (16 bits)      | value                                 |
//! |---------------------|---------------------------------------|
//! | 0                   | draw                                  |
//! | 1..=0x7FFF          | win in `2 * code - 1` plies           |
//! | 0x8000..=0xFFFE     | loss in `2 * (code - 0x8000)` plies   |
//! | 0xFFFF              | not yet known (only while building)   |
//!
//! Files store one byte a position when every distance of the class fits (wins up to 253
//! plies, losses up to 252): 0 draw, 1..=127 wins, 128..=254 losses, as above with
//! 0x8000 replaced by 128; otherwise the two bytes of the code, little-endian.

/// The value of a position for the side to move, with plies to the end of the game under
/// best play (the winner wins as fast as it can, the loser loses as slowly as it can).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies (0: it has lost now).
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

/// A value code (see the module docs).
pub type Code = u16;

/// The code of a position not resolved yet.
pub const UNKNOWN: Code = 0xFFFF;

/// The longest distance the builder accepts (far beyond any class it can build).
pub const MAX_PLIES: u16 = 4_000;

/// The one-byte form of a code, when it fits.
#[inline(always)]
pub fn to_byte(code: Code) -> Option<u8> {
    match code {
        0..=127 => Some(code as u8),
        0x8000..=0x807E => Some((code - 0x8000 + 128) as u8),
        _ => None,
    }
}

/// The code of a one-byte value.
#[inline(always)]
pub fn from_byte(byte: u8) -> Code {
    match byte {
        0..=127 => byte as Code,
        128..=254 => 0x8000 + (byte - 128) as Code,
        255 => UNKNOWN,
    }
}

impl Outcome {
    /// The code (see the module docs).
    #[inline(always)]
    pub fn encode(self) -> Code {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(d) => d.div_ceil(2),
            Outcome::Loss(d) => 0x8000 + d / 2,
        }
    }

    /// The value of a code; `None` for [`UNKNOWN`].
    #[inline(always)]
    pub fn decode(code: Code) -> Option<Outcome> {
        match code {
            0 => Some(Outcome::Draw),
            1..=0x7FFF => Some(Outcome::Win(2 * code - 1)),
            0x8000..=0xFFFE => Some(Outcome::Loss(2 * (code - 0x8000))),
            UNKNOWN => None,
        }
    }

    /// The value for the player who moved into a position of this value.
    #[inline(always)]
    pub fn before_move(self) -> Outcome {
        match self {
            Outcome::Draw => Outcome::Draw,
            Outcome::Win(d) => Outcome::Loss(d + 1),
            Outcome::Loss(d) => Outcome::Win(d + 1),
        }
    }

    /// Preference for the side to move: higher is better (faster wins, slower losses).
    #[inline(always)]
    pub fn preference(self) -> i32 {
        match self {
            Outcome::Win(d) => 1000 - d as i32,
            Outcome::Draw => 0,
            Outcome::Loss(d) => -1000 + d as i32,
        }
    }

    /// Plies to the end, if decided.
    pub fn plies(self) -> Option<u16> {
        match self {
            Outcome::Win(d) | Outcome::Loss(d) => Some(d),
            Outcome::Draw => None,
        }
    }

    /// `win`, `loss` or `draw`, with the plies after a space when decided.
    pub fn text(self) -> String {
        match self {
            Outcome::Win(d) => format!("win {d}"),
            Outcome::Loss(d) => format!("loss {d}"),
            Outcome::Draw => "draw".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_bytes_round_trip() {
        for byte in 0..=254u8 {
            let code = from_byte(byte);
            let o = Outcome::decode(code).unwrap();
            assert_eq!(o.encode(), code);
            assert_eq!(to_byte(code), Some(byte));
        }
        assert_eq!(Outcome::decode(UNKNOWN), None);
        assert_eq!(to_byte(Outcome::Win(253).encode()), Some(127));
        assert_eq!(to_byte(Outcome::Win(255).encode()), None);
        assert_eq!(to_byte(Outcome::Loss(252).encode()), Some(254));
        assert_eq!(to_byte(Outcome::Loss(254).encode()), None);
        assert_eq!(to_byte(UNKNOWN), None);
        for d in [0u16, 2, 300, 3998] {
            assert_eq!(
                Outcome::decode(Outcome::Loss(d).encode()),
                Some(Outcome::Loss(d))
            );
            assert_eq!(
                Outcome::decode(Outcome::Win(d + 1).encode()),
                Some(Outcome::Win(d + 1))
            );
        }
        assert_eq!(Outcome::Loss(0).before_move(), Outcome::Win(1));
        assert!(Outcome::Win(3).preference() > Outcome::Win(5).preference());
        assert!(Outcome::Loss(8).preference() > Outcome::Loss(2).preference());
    }
}
