//! Database values: win, loss or draw for the side to move, with the distance to the end.
//!
//! One byte a position:
//!
//! | byte       | value                                  |
//! |------------|----------------------------------------|
//! | 0          | draw                                   |
//! | 1..=127    | win in `2 * byte - 1` plies            |
//! | 128..=254  | loss in `2 * (byte - 128)` plies       |
//! | 255        | not yet known (only while building)    |
//!
//! A win always takes an odd number of plies (the winner makes the last move) and a loss an
//! even number, so the byte holds every distance up to 253 plies.

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

/// The byte of a position not resolved yet.
pub const UNKNOWN: u8 = 255;

/// The longest distance a byte holds.
pub const MAX_PLIES: u16 = 253;

impl Outcome {
    /// The byte form (see the module docs). Distances above [`MAX_PLIES`] do not fit.
    #[inline(always)]
    pub fn encode(self) -> u8 {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(d) => d.div_ceil(2) as u8,
            Outcome::Loss(d) => 128 + (d / 2) as u8,
        }
    }

    /// The value of a byte; `None` for [`UNKNOWN`].
    #[inline(always)]
    pub fn decode(byte: u8) -> Option<Outcome> {
        match byte {
            0 => Some(Outcome::Draw),
            1..=127 => Some(Outcome::Win(2 * byte as u16 - 1)),
            128..=254 => Some(Outcome::Loss(2 * (byte as u16 - 128))),
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
    fn bytes_round_trip() {
        for byte in 0..=254u8 {
            let o = Outcome::decode(byte).unwrap();
            assert_eq!(o.encode(), byte);
        }
        assert_eq!(Outcome::decode(UNKNOWN), None);
        assert_eq!(Outcome::Win(MAX_PLIES).encode(), 127);
        assert_eq!(Outcome::Loss(0).before_move(), Outcome::Win(1));
        assert!(Outcome::Win(3).preference() > Outcome::Win(5).preference());
        assert!(Outcome::Loss(8).preference() > Outcome::Loss(2).preference());
    }
}
