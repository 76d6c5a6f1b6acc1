//! Squares, bitboards, positions and their text forms: the static half of the rules.

pub mod bitboard;
pub mod games;
mod house;
mod moves;
mod position;
mod square;
mod text;
mod variant;
pub mod zobrist;

pub use games::{Game, Rules, SquareNames};
pub use house::{HouseRule, HouseRules};
pub use moves::Move;
pub use position::{Color, Piece, Position};
pub use square::Square;
pub use text::{PositionError, piece_char};
pub use variant::{UnknownVariant, Variant};
